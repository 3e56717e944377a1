/*
 * cuemu_solver_auxiliary.c: cuSOLVER's auxiliary routines, S/D/C/Z and
 * the 64-bit generic API: laswp (LAPACK's row interchanges), lauum (U U^H
 * or L^H L over the triangle, with its buffer size) and Xlarft (the
 * triangular factor T of a block reflector, with its buffer size). On
 * complex-double copies, in the handle's stream order; laswp and Xlarft
 * have no devInfo: a bad argument is only CUSOLVER_STATUS_INVALID_VALUE.
 */
#include <stdlib.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)

/* ---- laswp
 * ----------------------------------------------------------------
 */

/* One laswp: rows k1 to k2 (1-based) of the lda x n A exchanged in turn
 * with ipiv's rows, ipiv read from (k1 - 1) forward by incx, or backward
 * from the end for a negative incx, as LAPACK's laswp. */
typedef struct {
  cuemu_solver_type type;
  int64_t n, lda, k1, k2, incx;
  void *a;
  const int *ipiv;
} laswp_call;

static void run_laswp(void *p) {
  laswp_call *c = p;
  int64_t count = c->k2 - c->k1 + 1, step = c->incx > 0 ? c->incx : -c->incx;
  for (int64_t s = 0; s < count; ++s) {
    /* Forward: row k1 + s with ipiv's entry s; backward: the last first. */
    int64_t t = c->incx > 0 ? s : count - 1 - s, row = c->k1 - 1 + t;
    int64_t other = c->ipiv[t * step] - 1;
    if (other == row)
      continue;
    for (int64_t j = 0; j < c->n; ++j) {
      int64_t x = j * c->lda + row, y = j * c->lda + other;
      cuemu_solver_value v = cuemu__solver_load(c->a, c->type, x);
      cuemu__solver_store(c->a, c->type, x,
                          cuemu__solver_load(c->a, c->type, y));
      cuemu__solver_store(c->a, c->type, y, v);
    }
  }
}

static cusolverStatus_t laswp(cusolverDnHandle_t h, cuemu_solver_type type,
                              int64_t n, void *a, int64_t lda, int64_t k1,
                              int64_t k2, const int *ipiv, int64_t incx) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (n < 0 || lda < 1 || k1 < 1 || k2 < k1 || k2 > lda || incx == 0 || !ipiv)
    return CUSOLVER_STATUS_INVALID_VALUE;
  const char *name = "cusolverDn?laswp";
  int64_t step = incx > 0 ? incx : -incx;
  if (!cuemu__solver_check_matrix(name, "A", a, lda, n, lda,
                                  cuemu__solver_size(type)) ||
      !cuemu__solver_check(name, "devIpiv", ipiv,
                           (size_t)((k2 - k1) * step + 1) * sizeof(int)))
    return CUSOLVER_STATUS_SUCCESS;
  laswp_call *c = malloc(sizeof *c);
  if (!c)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  *c = (laswp_call){type, n, lda, k1, k2, incx, a, ipiv};
  return cuemu__solver_submit(h, run_laswp, c);
}

/* ---- lauum
 * ----------------------------------------------------------------
 */

/* U U^H (upper) or L^H L (lower) of the triangle uplo names, over it. */
static void run_lauum(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n;
  int lower = c->uplo == CUEMU_LOWER;
  cuemu_solver_value *t = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  cuemu_solver_value *r = malloc((size_t)MAX1(n * n) * sizeof *r);
  if (t && r) {
    /* (U U^H)_ij = sum over l >= max(i, j) of U_il conj(U_jl);
     * (L^H L)_ij = sum over l >= max(i, j) of conj(L_li) L_lj. */
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        cuemu_solver_value s = 0;
        for (int64_t l = i > j ? i : j; l < n; ++l)
          s += lower ? conj(t[i * n + l]) * t[j * n + l]
                     : t[l * n + i] * conj(t[l * n + j]);
        r[j * n + i] = s;
      }
    cuemu__solver_put_triangle(c->a, c->type, n, c->lda, c->uplo, r);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(t);
  free(r);
}

static cusolverStatus_t lauum(cusolverDnHandle_t h, cuemu_solver_type type,
                              int uplo, int64_t n, void *a, int64_t lda,
                              int *info) {
  cusolverStatus_t st = cuemu__solver_check_triangle(h, uplo, n, lda, info);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  const char *name = "cusolverDn?lauum";
  if (!cuemu__solver_check_matrix(name, "A", a, n, n, lda,
                                  cuemu__solver_size(type)) ||
      !cuemu__solver_check_info(name, info))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {
      .type = type, .uplo = uplo, .n = n, .a = a, .lda = lda, .info = info};
  return cuemu__solver_enqueue(h, run_lauum, &c);
}

/* P the prefix, T the type. */
#define AUXILIARY_API(P, T)                                                    \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##laswp(                   \
      cusolverDnHandle_t h, int n, void *a, int lda, int k1, int k2,           \
      const int *ipiv, int incx) {                                             \
    return laswp(h, T, n, a, lda, k1, k2, ipiv, incx);                         \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##lauum_bufferSize(        \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda, int *lwork) {   \
    (void)uplo, (void)a;                                                       \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n), lwork);          \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##lauum(                   \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda, void *work,     \
      int lwork, int *info) {                                                  \
    (void)work, (void)lwork;                                                   \
    return lauum(h, T, uplo, n, a, lda, info);                                 \
  }

AUXILIARY_API(S, CUEMU_SOLVER_S)
AUXILIARY_API(D, CUEMU_SOLVER_D)
AUXILIARY_API(C, CUEMU_SOLVER_C)
AUXILIARY_API(Z, CUEMU_SOLVER_Z)

/* ---- Xlarft
 * ---------------------------------------------------------------
 */

/* cusolverDirectMode_t and cusolverStorevMode_t. */
enum { CUEMU_DIRECT_FORWARD = 0, CUEMU_DIRECT_BACKWARD = 1 };
enum { CUEMU_STOREV_COLUMNWISE = 0 };

/* T (k x k) of H = I - V T V^H, V n x k columnwise: forward, H = H(1)
 * ... H(k), T upper, v_i's unit at i and zeros above it; backward,
 * H = H(k) ... H(1), T lower, v_i's unit at n - k + i and zeros below.
 * Only T's triangle is written, as LAPACK's larft. c->k is k, c->b T. */
static void run_larft(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n, k = c->k;
  int forward = c->op == CUEMU_DIRECT_FORWARD;
  cuemu_solver_value *v = cuemu__solver_get(c->a, c->type, n, k, c->lda);
  cuemu_solver_value *tau = cuemu__solver_get(c->tau, c->type, k, 1, MAX1(k));
  cuemu_solver_value *t = calloc((size_t)MAX1(k * k), sizeof *t);
  if (v && tau && t) {
    /* The implicit unit and zeros of each vector. */
    for (int64_t i = 0; i < k; ++i)
      for (int64_t r = 0; r < n; ++r) {
        int64_t unit = forward ? i : n - k + i;
        if (r == unit)
          v[i * n + r] = 1;
        else if (forward ? r < unit : r > unit)
          v[i * n + r] = 0;
      }
    /* Forward: T(0:i, i) = -tau_i T(0:i, 0:i) V(:, 0:i)^H v_i; backward
     * the same from the last column, below the diagonal. */
    for (int64_t s = 0; s < k; ++s) {
      int64_t i = forward ? s : k - 1 - s;
      int64_t lo = forward ? 0 : i + 1, hi = forward ? i : k;
      cuemu_solver_value *w = t + i * k;
      for (int64_t j = lo; j < hi; ++j) {
        cuemu_solver_value d = 0;
        for (int64_t r = 0; r < n; ++r)
          d += conj(v[j * n + r]) * v[i * n + r];
        w[j] = -tau[i] * d;
      }
      /* w := T(lo:hi, lo:hi) w, triangular, in place (upper: top down;
       * lower: bottom up). */
      for (int64_t q = 0; q < hi - lo; ++q) {
        int64_t r = forward ? lo + q : hi - 1 - q;
        cuemu_solver_value x = 0;
        for (int64_t j = forward ? r : lo; forward ? j < hi : j <= r; ++j)
          x += t[j * k + r] * w[j];
        w[r] = x;
      }
      w[i] = tau[i];
    }
    cuemu__solver_put_triangle(c->b, c->type, k, c->ldb,
                               forward ? CUEMU_UPPER : CUEMU_LOWER, t);
  }
  free(v);
  free(tau);
  free(t);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXlarft_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, int direct, int storev,
    int64_t n, int64_t k, int type_v, const void *v, int64_t ldv, int type_tau,
    const void *tau, int type_t, void *t, int64_t ldt, int compute,
    size_t *device, size_t *host) {
  (void)params, (void)direct, (void)storev, (void)v, (void)tau, (void)t;
  if (h && (n < 0 || k < 0 || k > n || ldv < MAX1(n) || ldt < MAX1(k)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  return cuemu__solver_generic_size(h, "cusolverDnXlarft_bufferSize",
                                    type_tau == type_v && type_t == type_v &&
                                            compute == type_v
                                        ? cuemu__solver_from_data_type(type_v)
                                        : -1,
                                    device, host);
}

/* Columnwise storage only, and n >= k, as cuSOLVER's. */
CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnXlarft(cusolverDnHandle_t h, cusolverDnParams_t params, int direct,
                 int storev, int64_t n, int64_t k, int type_v, const void *v,
                 int64_t ldv, int type_tau, const void *tau, int type_t,
                 void *t, int64_t ldt, int compute, void *device_buffer,
                 size_t device_bytes, void *host_buffer, size_t host_bytes) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  int type = type_tau == type_v && type_t == type_v && compute == type_v
                 ? cuemu__solver_from_data_type(type_v)
                 : -1;
  if (type < 0)
    return cuemu__solver_unsupported("cusolverDnXlarft");
  if ((direct != CUEMU_DIRECT_FORWARD && direct != CUEMU_DIRECT_BACKWARD) ||
      storev != CUEMU_STOREV_COLUMNWISE || n < 0 || k < 0 || k > n ||
      ldv < MAX1(n) || ldt < MAX1(k))
    return CUSOLVER_STATUS_INVALID_VALUE;
  const char *name = "cusolverDnXlarft";
  size_t e = cuemu__solver_size(type);
  if (!cuemu__solver_check_matrix(name, "V", v, n, k, ldv, e) ||
      !cuemu__solver_check_matrix(name, "tau", tau, k, 1, MAX1(k), e) ||
      !cuemu__solver_check_matrix(name, "T", t, k, k, ldt, e))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .op = direct,
                         .n = n,
                         .k = k,
                         .a = (void *)v,
                         .lda = ldv,
                         .tau = (void *)tau,
                         .b = t,
                         .ldb = ldt};
  return cuemu__solver_enqueue(h, run_larft, &c);
}
