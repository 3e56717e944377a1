/*
 * cuemu_solver_tridiagonal.c: cuSOLVER's reduction of a symmetric
 * (Hermitian) matrix to tridiagonal form, S/D/C/Z: sytrd/hetrd,
 * Q^H A Q = T, and its Q: orgtr/ungtr (Q itself) and ormtr/unmtr
 * (op(Q) C or C op(Q)), with their buffer sizes. LAPACK's unblocked sytd2
 * form: with uplo lower, Q = H(1) H(2) ... H(n-1), each reflector
 * (cuemu_solver_factor.c) zeroing a column below the subdiagonal, its
 * vector below the subdiagonal of A; with upper, Q = H(n-1) ... H(1), each
 * zeroing a column above the superdiagonal, its vector above it. d and e
 * (T's diagonal and off-diagonal, real) are also left on A's diagonal and
 * first sub- or superdiagonal. On a complex-double copy, in the handle's
 * stream order.
 */
#include <stdlib.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)
#define AT(i, j) (a[(int64_t)(j)*n + (i)])

/* ---- The numerics
 * ----------------------------------------------------------
 */

/* Reflector i (0 <= i < n - 1) of the reduced a (n x n): its vector v,
 * its unit entry included, over rows *first to *first + len (returned). */
static int64_t reflector_at(const cuemu_solver_value *a, int64_t n, int lower,
                            int64_t i, cuemu_solver_value *v, int64_t *first) {
  if (lower) {
    *first = i + 1;
    v[0] = 1;
    for (int64_t r = 1; r < n - i - 1; ++r)
      v[r] = AT(i + 1 + r, i);
    return n - i - 1;
  }
  *first = 0;
  for (int64_t r = 0; r < i; ++r)
    v[r] = AT(r, i + 1);
  v[i] = 1;
  return i + 1;
}

/* Reduces the full Hermitian a (n x n) in place: d (n) and e (n - 1) get
 * T's diagonal and off-diagonal, tau (n - 1) the reflectors'. */
static void tridiagonalize(cuemu_solver_value *a, int64_t n, int lower,
                           double *d, double *e, cuemu_solver_value *tau,
                           cuemu_solver_value *v) {
  for (int64_t s = 0; s < n - 1; ++s) {
    /* Lower: column i below the subdiagonal, from the first column on;
     * upper: column i + 1 above the superdiagonal, from the last one. */
    int64_t i = lower ? s : n - 2 - s, first;
    cuemu_solver_value *alpha = lower ? &AT(i + 1, i) : &AT(i, i + 1);
    tau[i] = cuemu__solver_reflector(
        alpha, lower ? &AT(i + 2, i) : &AT(0, i + 1), lower ? n - i - 2 : i);
    e[i] = creal(*alpha);
    /* The part still to reduce := H^H part H. */
    int64_t len = reflector_at(a, n, lower, i, v, &first);
    cuemu_solver_value *part = &AT(first, first);
    cuemu__solver_reflect_left(v, conj(tau[i]), part, len, len, n);
    cuemu__solver_reflect_right(v, tau[i], part, len, len, n);
  }
  for (int64_t i = 0; i < n; ++i)
    d[i] = creal(AT(i, i));
}

/* c (m x cols, leading dimension m) := op(Q) c (side left, m = n) or
 * c op(Q) (right, cols = n), Q that of the reduced a (n x n). */
static void apply_q(const cuemu_solver_value *a, int64_t n, int lower,
                    const cuemu_solver_value *tau, int side, int op,
                    cuemu_solver_value *c, int64_t m, int64_t cols,
                    cuemu_solver_value *v) {
  /* Q = F(0) ... F(k-1), F(j) = H(j) (lower) or H(k-1-j) (upper). Q C
   * applies F(k-1) first, Q^H C F(0)^H, C Q F(0), C Q^H F(k-1)^H. */
  int64_t k = n > 0 ? n - 1 : 0;
  int adjoint = op != CUEMU_OP_N;
  int ascending = (side == CUEMU_SIDE_LEFT) == adjoint;
  for (int64_t s = 0; s < k; ++s) {
    int64_t j = ascending ? s : k - 1 - s, i = lower ? j : k - 1 - j, first;
    int64_t len = reflector_at(a, n, lower, i, v, &first);
    cuemu_solver_value t = adjoint ? conj(tau[i]) : tau[i];
    if (side == CUEMU_SIDE_LEFT)
      cuemu__solver_reflect_left(v, t, c + first, len, cols, m);
    else
      cuemu__solver_reflect_right(v, t, c + first * m, m, len, m);
  }
}

/* ---- Runs in stream order
 * ------------------------------------------------
 */

/* sytrd: d in c->s, e in c->u. */
static void run_sytrd(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  cuemu_solver_value *tau = malloc((size_t)MAX1(n) * sizeof *tau);
  cuemu_solver_value *v = malloc((size_t)MAX1(n) * sizeof *v);
  double *d = malloc((size_t)MAX1(n) * sizeof *d);
  double *e = malloc((size_t)MAX1(n) * sizeof *e);
  if (a && tau && v && d && e) {
    int lower = c->uplo == CUEMU_LOWER;
    cuemu__solver_hermitian(a, n, c->uplo);
    tridiagonalize(a, n, lower, d, e, tau, v);
    for (int64_t i = 0; i < n; ++i) {
      AT(i, i) = d[i];
      cuemu__solver_store_real(c->s, c->type, i, d[i]);
    }
    for (int64_t i = 0; i + 1 < n; ++i)
      cuemu__solver_store_real(c->u, c->type, i, e[i]);
    cuemu__solver_put(c->tau, c->type, n > 1 ? n - 1 : 0, 1, MAX1(n - 1), tau);
    cuemu__solver_put_triangle(c->a, c->type, n, c->lda, c->uplo, a);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(a);
  free(tau);
  free(v);
  free(d);
  free(e);
}

/* orgtr (c->b NULL: Q over A) and ormtr (op(Q) C or C op(Q), C in c->b,
 * Q of order c->k). */
static void run_orgtr(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->k, rows = c->b ? c->m : n, cols = c->b ? c->n : n;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  cuemu_solver_value *tau =
      cuemu__solver_get(c->tau, c->type, n > 1 ? n - 1 : 0, 1, MAX1(n - 1));
  cuemu_solver_value *v = malloc((size_t)MAX1(n) * sizeof *v);
  cuemu_solver_value *m =
      c->b ? cuemu__solver_get(c->b, c->type, rows, cols, c->ldb)
           : calloc((size_t)MAX1(n * n), sizeof *m);
  if (a && tau && v && m) {
    for (int64_t i = 0; !c->b && i < n; ++i)
      m[i * n + i] = 1;
    apply_q(a, n, c->uplo == CUEMU_LOWER, tau, c->b ? c->side : CUEMU_SIDE_LEFT,
            c->b ? c->op : CUEMU_OP_N, m, rows, cols, v);
    cuemu__solver_put(c->b ? c->b : c->a, c->type, rows, cols,
                      c->b ? c->ldb : c->lda, m);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(a);
  free(tau);
  free(v);
  free(m);
}

/* ---- Checks and calls
 * --------------------------------------------------------
 */

static cusolverStatus_t sytrd(cusolverDnHandle_t h, cuemu_solver_type type,
                              int uplo, int64_t n, void *a, int64_t lda,
                              void *d, void *e, void *tau, int *info) {
  cusolverStatus_t st = cuemu__solver_check_triangle(h, uplo, n, lda, info);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  size_t size = cuemu__solver_size(type), real = cuemu__solver_real_size(type);
  const char *name = "cusolverDn?sytrd";
  int64_t k = n > 0 ? n - 1 : 0;
  if (!cuemu__solver_check_matrix(name, "A", a, n, n, lda, size) ||
      !cuemu__solver_check_matrix(name, "d", d, n, 1, MAX1(n), real) ||
      !cuemu__solver_check_matrix(name, "e", e, k, 1, MAX1(k), real) ||
      !cuemu__solver_check_matrix(name, "tau", tau, k, 1, MAX1(k), size) ||
      !cuemu__solver_check_info(name, info))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .uplo = uplo,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .s = d,
                         .u = e,
                         .tau = tau,
                         .info = info};
  return cuemu__solver_enqueue(h, run_sytrd, &c);
}

/* orgtr (cm NULL; side, op, m and n unused) and ormtr. */
static cusolverStatus_t ormtr(cusolverDnHandle_t h, cuemu_solver_type type,
                              int side, int uplo, int op, int64_t m, int64_t n,
                              const void *a, int64_t lda, const void *tau,
                              void *cm, int64_t ldc, int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  /* orgtr's arguments: uplo, n, A, lda; ormtr's: side, uplo, trans, m, n,
   * A, lda, tau, C, ldc. */
  int64_t nq = !cm || side == CUEMU_SIDE_LEFT ? m : n;
  if (cm && side != CUEMU_SIDE_LEFT && side != CUEMU_SIDE_RIGHT)
    return cuemu__solver_bad_argument(h, info, 1);
  if (uplo != CUEMU_LOWER && uplo != CUEMU_UPPER)
    return cuemu__solver_bad_argument(h, info, cm ? 2 : 1);
  if (cm && !cuemu__solver_q_op(type, op))
    return cuemu__solver_bad_argument(h, info, 3);
  if (m < 0)
    return cuemu__solver_bad_argument(h, info, cm ? 4 : 2);
  if (cm && n < 0)
    return cuemu__solver_bad_argument(h, info, 5);
  if (lda < MAX1(nq))
    return cuemu__solver_bad_argument(h, info, cm ? 7 : 4);
  if (cm && ldc < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 10);
  size_t e = cuemu__solver_size(type);
  const char *name = cm ? "cusolverDn?ormtr" : "cusolverDn?orgtr";
  int64_t k = nq > 0 ? nq - 1 : 0;
  if (!cuemu__solver_check_matrix(name, "A", a, nq, nq, lda, e) ||
      !cuemu__solver_check_matrix(name, "tau", tau, k, 1, MAX1(k), e) ||
      (cm && !cuemu__solver_check_matrix(name, "C", cm, m, n, ldc, e)) ||
      !cuemu__solver_check_info(name, info))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .side = side,
                         .uplo = uplo,
                         .op = op,
                         .m = m,
                         .n = n,
                         .k = nq,
                         .a = (void *)a,
                         .lda = lda,
                         .tau = (void *)tau,
                         .b = cm,
                         .ldb = ldc,
                         .info = info};
  return cuemu__solver_enqueue(h, run_orgtr, &c);
}

/* P the prefix, T the type, OR "or"/"un", SY "sy"/"he". */
#define TRIDIAGONAL_API(P, T, OR, SY)                                          \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##trd_bufferSize(      \
      cusolverDnHandle_t h, int uplo, int n, const void *a, int lda,           \
      const void *d, const void *e, const void *tau, int *lwork) {             \
    (void)uplo, (void)a, (void)d, (void)e, (void)tau;                          \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n), lwork);          \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##trd(                 \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda, void *d,        \
      void *e, void *tau, void *work, int lwork, int *info) {                  \
    (void)work, (void)lwork;                                                   \
    return sytrd(h, T, uplo, n, a, lda, d, e, tau, info);                      \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##OR##gtr_bufferSize(      \
      cusolverDnHandle_t h, int uplo, int n, const void *a, int lda,           \
      const void *tau, int *lwork) {                                           \
    (void)uplo, (void)a, (void)tau;                                            \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n), lwork);          \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##OR##gtr(                 \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda,                 \
      const void *tau, void *work, int lwork, int *info) {                     \
    (void)work, (void)lwork;                                                   \
    return ormtr(h, T, CUEMU_SIDE_LEFT, uplo, CUEMU_OP_N, n, n, a, lda, tau,   \
                 NULL, 1, info);                                               \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##OR##mtr_bufferSize(      \
      cusolverDnHandle_t h, int side, int uplo, int op, int m, int n,          \
      const void *a, int lda, const void *tau, const void *c, int ldc,         \
      int *lwork) {                                                            \
    (void)uplo, (void)op, (void)a, (void)tau, (void)c;                         \
    int nq = side == CUEMU_SIDE_LEFT ? m : n;                                  \
    return cuemu__solver_work_size(                                            \
        h, m < 0 || n < 0 || lda < MAX1(nq) || ldc < MAX1(m), lwork);          \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##OR##mtr(                 \
      cusolverDnHandle_t h, int side, int uplo, int op, int m, int n, void *a, \
      int lda, void *tau, void *c, int ldc, void *work, int lwork,             \
      int *info) {                                                             \
    (void)work, (void)lwork;                                                   \
    return ormtr(h, T, side, uplo, op, m, n, a, lda, tau, c, ldc, info);       \
  }

TRIDIAGONAL_API(S, CUEMU_SOLVER_S, or, sy)
TRIDIAGONAL_API(D, CUEMU_SOLVER_D, or, sy)
TRIDIAGONAL_API(C, CUEMU_SOLVER_C, un, he)
TRIDIAGONAL_API(Z, CUEMU_SOLVER_Z, un, he)
