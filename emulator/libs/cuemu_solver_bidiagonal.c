/*
 * cuemu_solver_bidiagonal.c: cuSOLVER's reduction of a general matrix to
 * bidiagonal form, S/D/C/Z: gebrd, Q^H A P = B, and its Q and P^H:
 * orgbr/ungbr, with their buffer sizes. LAPACK's unblocked gebd2 form:
 * for m >= n, B is upper bidiagonal, Q = H(1) ... H(n) (each reflector
 * zeroing a column below the diagonal, its vector there) and
 * P = G(1) ... G(n-1) (each zeroing a row right of the superdiagonal, the
 * conjugate of its vector there); for m < n, B is lower bidiagonal,
 * Q = H(1) ... H(m-1) below the subdiagonal and P = G(1) ... G(m) right of
 * the diagonal. The reflectors are QR's (cuemu_solver_factor.c). On a
 * complex-double copy, in the handle's stream order.
 */
#include <stdlib.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)
#define AT(i, j) (a[(int64_t)(j)*m + (i)])

/* ---- The numerics
 * ----------------------------------------------------------
 */

/* H(i) on column i from row r: reflects A(r:m, i) to (beta, 0, ...) and
 * applies H^H to the columns after it; beta is returned in *beta. */
static cuemu_solver_value column_step(cuemu_solver_value *a, int64_t m,
                                      int64_t n, int64_t i, int64_t r,
                                      double *beta, cuemu_solver_value *v) {
  cuemu_solver_value tau =
      cuemu__solver_reflector(&AT(r, i), &AT(r + 1, i), m - r - 1);
  *beta = creal(AT(r, i));
  v[0] = 1;
  for (int64_t s = 1; s < m - r; ++s)
    v[s] = AT(r + s, i);
  cuemu__solver_reflect_left(v, conj(tau), &AT(r, i + 1), m - r, n - i - 1, m);
  return tau;
}

/* G(i) on row i from column c: reflects A(i, c:n) to (beta, 0, ...) as
 * LAPACK does (on the row's conjugate, which is stored back conjugated)
 * and applies G to the rows after it. */
static cuemu_solver_value row_step(cuemu_solver_value *a, int64_t m, int64_t n,
                                   int64_t i, int64_t c, double *beta,
                                   cuemu_solver_value *u) {
  int64_t len = n - c;
  for (int64_t s = 0; s < len; ++s)
    u[s] = conj(AT(i, c + s));
  cuemu_solver_value tau = cuemu__solver_reflector(&u[0], &u[1], len - 1);
  *beta = creal(u[0]);
  AT(i, c) = u[0];
  for (int64_t s = 1; s < len; ++s)
    AT(i, c + s) = conj(u[s]);
  u[0] = 1;
  cuemu__solver_reflect_right(u, tau, &AT(i + 1, c), m - i - 1, len, m);
  return tau;
}

/* Reduces the m x n a in place: d (min(m, n)), e (min(m, n) - 1), tauq
 * and taup (min(m, n); the last of one of them 0, as LAPACK's). */
static void bidiagonalize(cuemu_solver_value *a, int64_t m, int64_t n,
                          double *d, double *e, cuemu_solver_value *tauq,
                          cuemu_solver_value *taup, cuemu_solver_value *v) {
  int64_t k = m < n ? m : n;
  for (int64_t i = 0; i < k; ++i) {
    if (m >= n) {
      tauq[i] = column_step(a, m, n, i, i, &d[i], v);
      taup[i] = i + 1 < n ? row_step(a, m, n, i, i + 1, &e[i], v) : 0;
    } else {
      taup[i] = row_step(a, m, n, i, i, &d[i], v);
      tauq[i] = i + 1 < m ? column_step(a, m, n, i, i + 1, &e[i], v) : 0;
    }
  }
}

/* orgbr: Q's first n columns (side left; the reflectors of a gebrd of k
 * columns, below the diagonal when m >= k, else below the subdiagonal) or
 * P^H's first m rows (right; a gebrd of k rows, right of the diagonal when
 * k < n, else of the superdiagonal), into q (m x n, leading dimension m),
 * from the m x n f. */
static void generate(const cuemu_solver_value *f, int64_t m, int64_t n,
                     int64_t k, int left, const cuemu_solver_value *tau,
                     cuemu_solver_value *q, cuemu_solver_value *v) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i)
      q[j * m + i] = i == j;
  int shifted = left ? m < k : k >= n;
  int64_t count = shifted ? (left ? m : n) - 1 : k;
  /* Q C applies H(count) first; C P^H = C G(count)^H ... G(1)^H too. */
  for (int64_t i = count - 1; i >= 0; --i) {
    int64_t start = i + shifted, len = (left ? m : n) - start;
    v[0] = 1;
    for (int64_t s = 1; s < len; ++s)
      v[s] = left ? f[i * m + start + s] : conj(f[(start + s) * m + i]);
    if (left)
      cuemu__solver_reflect_left(v, tau[i], q + start, len, n, m);
    else
      cuemu__solver_reflect_right(v, conj(tau[i]), q + start * m, m, len, m);
  }
}

/* ---- Runs in stream order
 * ------------------------------------------------
 */

/* gebrd: d in c->s, e in c->u, tauq in c->tau, taup in c->vt. */
static void run_gebrd(void *p) {
  cuemu_solver_call *c = p;
  int64_t m = c->m, n = c->n, k = m < n ? m : n;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, m, n, c->lda);
  cuemu_solver_value *taus = malloc((size_t)MAX1(2 * k) * sizeof *taus);
  cuemu_solver_value *v = malloc((size_t)MAX1(m > n ? m : n) * sizeof *v);
  double *de = malloc((size_t)MAX1(2 * k) * sizeof *de);
  if (a && taus && v && de) {
    bidiagonalize(a, m, n, de, de + k, taus, taus + k, v);
    cuemu__solver_put(c->a, c->type, m, n, c->lda, a);
    for (int64_t i = 0; i < k; ++i) {
      cuemu__solver_store_real(c->s, c->type, i, de[i]);
      if (i + 1 < k)
        cuemu__solver_store_real(c->u, c->type, i, de[k + i]);
    }
    cuemu__solver_put(c->tau, c->type, k, 1, MAX1(k), taus);
    cuemu__solver_put(c->vt, c->type, k, 1, MAX1(k), taus + k);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(a);
  free(taus);
  free(v);
  free(de);
}

static void run_orgbr(void *p) {
  cuemu_solver_call *c = p;
  int64_t m = c->m, n = c->n, k = c->k;
  int left = c->side == CUEMU_SIDE_LEFT;
  /* tau: min(m, k) of Q's, min(n, k) of P's. */
  int64_t ntau = left ? (m < k ? m : k) : (n < k ? n : k);
  cuemu_solver_value *f = cuemu__solver_get(c->a, c->type, m, n, c->lda);
  cuemu_solver_value *tau =
      cuemu__solver_get(c->tau, c->type, ntau, 1, MAX1(ntau));
  cuemu_solver_value *q = malloc((size_t)MAX1(m * n) * sizeof *q);
  cuemu_solver_value *v = malloc((size_t)MAX1(m > n ? m : n) * sizeof *v);
  if (f && tau && q && v) {
    generate(f, m, n, k, left, tau, q, v);
    cuemu__solver_put(c->a, c->type, m, n, c->lda, q);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(f);
  free(tau);
  free(q);
  free(v);
}

/* ---- Checks and calls
 * --------------------------------------------------------
 */

static cusolverStatus_t gebrd(cusolverDnHandle_t h, cuemu_solver_type type,
                              int64_t m, int64_t n, void *a, int64_t lda,
                              void *d, void *e, void *tauq, void *taup,
                              int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (m < 0)
    return cuemu__solver_bad_argument(h, info, 1);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 2);
  if (lda < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 4);
  size_t size = cuemu__solver_size(type), real = cuemu__solver_real_size(type);
  const char *name = "cusolverDn?gebrd";
  int64_t k = m < n ? m : n, k1 = k > 0 ? k - 1 : 0;
  if (!cuemu__solver_check_matrix(name, "A", a, m, n, lda, size) ||
      !cuemu__solver_check_matrix(name, "D", d, k, 1, MAX1(k), real) ||
      !cuemu__solver_check_matrix(name, "E", e, k1, 1, MAX1(k1), real) ||
      !cuemu__solver_check_matrix(name, "TAUQ", tauq, k, 1, MAX1(k), size) ||
      !cuemu__solver_check_matrix(name, "TAUP", taup, k, 1, MAX1(k), size) ||
      !cuemu__solver_check_info(name, info))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .m = m,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .s = d,
                         .u = e,
                         .tau = tauq,
                         .vt = taup,
                         .info = info};
  return cuemu__solver_enqueue(h, run_gebrd, &c);
}

/* LAPACK's orgbr conditions: Q (side left) is m x n with
 * m >= n >= min(m, k); P^H (right) m x n with n >= m >= min(n, k). */
static int orgbr_shape_bad(int left, int64_t m, int64_t n, int64_t k) {
  if (left)
    return n < 0 || n > m || n < (m < k ? m : k);
  return n < 0 || m > n || m < (n < k ? n : k);
}

static cusolverStatus_t orgbr(cusolverDnHandle_t h, cuemu_solver_type type,
                              int side, int64_t m, int64_t n, int64_t k,
                              void *a, int64_t lda, const void *tau,
                              int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  int left = side == CUEMU_SIDE_LEFT;
  if (!left && side != CUEMU_SIDE_RIGHT)
    return cuemu__solver_bad_argument(h, info, 1);
  if (m < 0)
    return cuemu__solver_bad_argument(h, info, 2);
  if (orgbr_shape_bad(left, m, n, k))
    return cuemu__solver_bad_argument(h, info, 3);
  if (k < 0)
    return cuemu__solver_bad_argument(h, info, 4);
  if (lda < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 6);
  size_t size = cuemu__solver_size(type);
  const char *name = "cusolverDn?orgbr";
  int64_t ntau = left ? (m < k ? m : k) : (n < k ? n : k);
  if (!cuemu__solver_check_matrix(name, "A", a, m, n, lda, size) ||
      !cuemu__solver_check_matrix(name, "tau", tau, ntau, 1, MAX1(ntau),
                                  size) ||
      !cuemu__solver_check_info(name, info))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .side = side,
                         .m = m,
                         .n = n,
                         .k = k,
                         .a = a,
                         .lda = lda,
                         .tau = (void *)tau,
                         .info = info};
  return cuemu__solver_enqueue(h, run_orgbr, &c);
}

/* P the prefix, T the type, OR "or"/"un". */
#define BIDIAGONAL_API(P, T, OR)                                               \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gebrd_bufferSize(        \
      cusolverDnHandle_t h, int m, int n, int *lwork) {                        \
    return cuemu__solver_work_size(h, m < 0 || n < 0, lwork);                  \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gebrd(                   \
      cusolverDnHandle_t h, int m, int n, void *a, int lda, void *d, void *e,  \
      void *tauq, void *taup, void *work, int lwork, int *info) {              \
    (void)work, (void)lwork;                                                   \
    return gebrd(h, T, m, n, a, lda, d, e, tauq, taup, info);                  \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##OR##gbr_bufferSize(      \
      cusolverDnHandle_t h, int side, int m, int n, int k, const void *a,      \
      int lda, const void *tau, int *lwork) {                                  \
    (void)a, (void)tau;                                                        \
    return cuemu__solver_work_size(                                            \
        h,                                                                     \
        m < 0 || k < 0 || lda < MAX1(m) ||                                     \
            orgbr_shape_bad(side == CUEMU_SIDE_LEFT, m, n, k),                 \
        lwork);                                                                \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##OR##gbr(                 \
      cusolverDnHandle_t h, int side, int m, int n, int k, void *a, int lda,   \
      const void *tau, void *work, int lwork, int *info) {                     \
    (void)work, (void)lwork;                                                   \
    return orgbr(h, T, side, m, n, k, a, lda, tau, info);                      \
  }

BIDIAGONAL_API(S, CUEMU_SOLVER_S, or)
BIDIAGONAL_API(D, CUEMU_SOLVER_D, or)
BIDIAGONAL_API(C, CUEMU_SOLVER_C, un)
BIDIAGONAL_API(Z, CUEMU_SOLVER_Z, un)
