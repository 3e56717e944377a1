/*
 * cuemu_solver_generalized.c: cuSOLVER's generalized Hermitian-definite
 * eigen-solvers, S/D/C/Z: sygvd/hegvd and sygvj/hegvj (with their buffer
 * sizes), for A x = lambda B x (itype 1), A B x = lambda x (2) and
 * B A x = lambda x (3), as LAPACK's sygvd: B = L L^H (Cholesky, uplo's
 * triangle), the standard problem C = L^-1 A L^-H (itype 1) or L^H A L (2
 * and 3) solved by the Jacobi eigen-solver (cuemu_solver_spectral.c), the
 * vectors brought back (L^-H y, or L y for itype 3). B is left holding its
 * factor, A the vectors; in the handle's stream order.
 */
#include <stdlib.h>
#include <string.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)
#define AT(a, i, j) ((a)[(int64_t)(j)*n + (i)])

/* x := L^-1 x (forward) or L^-H x (backward) for the lower n x n l. */
static void lower_solve(const cuemu_solver_value *l, int64_t n, int adjoint,
                        cuemu_solver_value *x) {
  if (!adjoint) {
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t k = 0; k < i; ++k)
        x[i] -= AT(l, i, k) * x[k];
      x[i] /= AT(l, i, i);
    }
  } else {
    for (int64_t i = n - 1; i >= 0; --i) {
      for (int64_t k = i + 1; k < n; ++k)
        x[i] -= conj(AT(l, k, i)) * x[k];
      x[i] /= conj(AT(l, i, i));
    }
  }
}

/* C := L^-1 A L^-H (itype 1) or L^H A L (2, 3), A full Hermitian, in a;
 * t is n x n scratch. */
static void reduce(cuemu_solver_value *a, const cuemu_solver_value *l,
                   int64_t n, int itype, cuemu_solver_value *t) {
  if (itype == 1) {
    /* T = L^-1 A column by column; C = L^-1 T^H (= (T L^-H)^H, and C is
     * Hermitian). */
    memcpy(t, a, (size_t)(n * n) * sizeof *t);
    for (int64_t j = 0; j < n; ++j)
      lower_solve(l, n, 0, t + j * n);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        AT(a, i, j) = conj(AT(t, j, i));
    for (int64_t j = 0; j < n; ++j)
      lower_solve(l, n, 0, a + j * n);
    return;
  }
  /* T = A L, then C = L^H T. */
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      cuemu_solver_value s = 0;
      for (int64_t k = j; k < n; ++k)
        s += AT(a, i, k) * AT(l, k, j);
      AT(t, i, j) = s;
    }
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      cuemu_solver_value s = 0;
      for (int64_t k = i; k < n; ++k)
        s += conj(AT(l, k, i)) * AT(t, k, j);
      AT(a, i, j) = s;
    }
}

static void run_sygvd(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  cuemu_solver_value *b = cuemu__solver_get(c->b, c->type, n, n, c->ldb);
  cuemu_solver_value *l = calloc((size_t)MAX1(n * n), sizeof *l);
  cuemu_solver_value *t = malloc((size_t)MAX1(n * n) * sizeof *t);
  double *w = malloc((size_t)MAX1(n) * sizeof *w);
  if (!a || !b || !l || !t || !w)
    goto out;
  int minor = cuemu__solver_cholesky(b, n, c->uplo);
  /* B's factor in uplo's triangle, as potrf leaves it. */
  cuemu__solver_put_triangle(c->b, c->type, n, c->ldb, c->uplo, b);
  if (minor) {
    /* The leading minor of order `minor` of B is not positive definite
     * (sygvdx: no eigenvalue found). */
    cuemu__solver_range_count(&c->select, 0);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, (int)(n + minor));
    goto out;
  }
  /* L: B = L L^H, from the lower factor or the upper U = L^H. */
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i)
      AT(l, i, j) = c->uplo == CUEMU_LOWER ? AT(b, i, j) : conj(AT(b, j, i));
  cuemu__solver_hermitian(a, n, c->uplo);
  reduce(a, l, n, c->itype, t);
  /* The reduced matrix is Hermitian up to rounding: its average. */
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) {
      cuemu_solver_value v = (AT(a, i, j) + conj(AT(a, j, i))) / 2;
      AT(a, i, j) = v;
      AT(a, j, i) = conj(v);
    }
  cuemu_solver_sweeps ctl = {.tol = c->tol, .max_sweeps = c->max_sweeps};
  int bad =
      cuemu__solver_eigh_jacobi(a, n, w, c->vectors, c->jacobi ? &ctl : NULL);
  /* sygvdx keeps a part: its eigenvalues in W's first meig, their vectors
   * in A's first meig columns. */
  int64_t first, m = cuemu__solver_range_keep(&c->select, w, n, &first);
  if (c->vectors) {
    /* x = L^-H y (itype 1 and 2) or L y (3), column by column. */
    for (int64_t j = first; j < first + m; ++j) {
      cuemu_solver_value *y = a + j * n;
      if (c->itype == 3) {
        for (int64_t i = n - 1; i >= 0; --i) {
          cuemu_solver_value s = 0;
          for (int64_t k = 0; k <= i; ++k)
            s += AT(l, i, k) * y[k];
          y[i] = s;
        }
      } else
        lower_solve(l, n, 1, y);
    }
    cuemu__solver_put(c->a, c->type, n, m, c->lda, a + first * n);
  }
  for (int64_t i = 0; i < m; ++i)
    cuemu__solver_store_real(c->s, c->type, i, w[i]);
  if (c->jacobi) {
    c->jacobi->residual = ctl.residual;
    c->jacobi->sweeps = ctl.sweeps;
    c->jacobi->batched = 0;
  }
  /* sygvd: n when the sweeps do not converge (LAPACK: info in 1..n);
   * sygvj: n + 1, as syevj. */
  if (c->info)
    cuemu__solver_info_set(c->info, 0, bad ? (int)n + (c->jacobi != NULL) : 0);
out:
  free(a);
  free(b);
  free(l);
  free(t);
  free(w);
}

cusolverStatus_t cuemu__solver_sygv(cusolverDnHandle_t h,
                                    cuemu_solver_type type, int itype, int jobz,
                                    int uplo, int64_t n, void *a, int64_t lda,
                                    void *b, int64_t ldb, void *w, int *info,
                                    cuemu_solver_jacobi *jacobi,
                                    const cuemu_solver_range *range) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  /* sygvdx's range is its third argument; vl, vu, il, iu and meig come
   * after ldb. */
  int x = range != NULL, bad = x ? cuemu__solver_range_bad(range, n) : 0;
  if (itype < 1 || itype > 3)
    return cuemu__solver_bad_argument(h, info, 1);
  if (jobz != CUEMU_EIG_NOVECTOR && jobz != CUEMU_EIG_VECTOR)
    return cuemu__solver_bad_argument(h, info, 2);
  if (bad == 1)
    return cuemu__solver_bad_argument(h, info, 3);
  if (uplo != CUEMU_LOWER && uplo != CUEMU_UPPER)
    return cuemu__solver_bad_argument(h, info, 3 + x);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 4 + x);
  if (lda < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 6 + x);
  if (ldb < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 8 + x);
  if (bad)
    return cuemu__solver_bad_argument(h, info, 9 + bad);
  if (x && !range->meig)
    return cuemu__solver_bad_argument(h, info, 14);
  size_t e = cuemu__solver_size(type);
  const char *name = jacobi  ? "cusolverDn?sygvj"
                     : range ? "cusolverDn?sygvdx"
                             : "cusolverDn?sygvd";
  if (!cuemu__solver_check(name, "A", a, cuemu__solver_span(n, n, lda, e)) ||
      !cuemu__solver_check(name, "B", b, cuemu__solver_span(n, n, ldb, e)) ||
      !cuemu__solver_check(name, "W", w,
                           (size_t)n * cuemu__solver_real_size(type)) ||
      (info && !cuemu__solver_check(name, "devInfo", info, sizeof(int))))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .itype = itype,
                         .vectors = jobz == CUEMU_EIG_VECTOR,
                         .uplo = uplo,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .b = b,
                         .ldb = ldb,
                         .s = w,
                         .info = info,
                         .jacobi = jacobi};
  if (range)
    c.select = *range;
  if (jacobi) {
    c.tol = cuemu__solver_jacobi_tolerance(jacobi, type);
    c.max_sweeps = jacobi->max_sweeps;
  }
  return cuemu__solver_range_enqueue(h, run_sygvd, &c);
}

/* P the prefix, T the type, SY "sy"/"he". */
#define GENERALIZED_API(P, T, SY)                                              \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##gvd_bufferSize(      \
      cusolverDnHandle_t h, int itype, int jobz, int uplo, int n,              \
      const void *a, int lda, const void *b, int ldb, const void *w,           \
      int *lwork) {                                                            \
    (void)itype, (void)jobz, (void)uplo, (void)a, (void)b, (void)w;            \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n) || ldb < MAX1(n), \
                                   lwork);                                     \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##gvd(                 \
      cusolverDnHandle_t h, int itype, int jobz, int uplo, int n, void *a,     \
      int lda, void *b, int ldb, void *w, void *work, int lwork, int *info) {  \
    (void)work, (void)lwork;                                                   \
    return cuemu__solver_sygv(h, T, itype, jobz, uplo, n, a, lda, b, ldb, w,   \
                              info, NULL, NULL);                               \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##gvj_bufferSize(      \
      cusolverDnHandle_t h, int itype, int jobz, int uplo, int n,              \
      const void *a, int lda, const void *b, int ldb, const void *w,           \
      int *lwork, cuemu_solver_jacobi *params) {                               \
    (void)itype, (void)jobz, (void)uplo, (void)a, (void)b, (void)w,            \
        (void)params;                                                          \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n) || ldb < MAX1(n), \
                                   lwork);                                     \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##gvj(                 \
      cusolverDnHandle_t h, int itype, int jobz, int uplo, int n, void *a,     \
      int lda, void *b, int ldb, void *w, void *work, int lwork, int *info,    \
      cuemu_solver_jacobi *params) {                                           \
    (void)work, (void)lwork;                                                   \
    if (h && !params)                                                          \
      return cuemu__solver_bad_argument(h, info, 13);                          \
    return cuemu__solver_sygv(h, T, itype, jobz, uplo, n, a, lda, b, ldb, w,   \
                              info, params, NULL);                             \
  }

GENERALIZED_API(S, CUEMU_SOLVER_S, sy)
GENERALIZED_API(D, CUEMU_SOLVER_D, sy)
GENERALIZED_API(C, CUEMU_SOLVER_C, he)
GENERALIZED_API(Z, CUEMU_SOLVER_Z, he)
