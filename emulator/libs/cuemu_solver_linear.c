/*
 * cuemu_solver_linear.c: cuSOLVER's dense linear solvers, S/D/C/Z and the
 * 64-bit generic API: getrf (with and without pivoting), getrs, potrf,
 * potrs, potri, the generic trtri and their buffer sizes. Arguments are checked
 * as LAPACK does (devInfo = -i and CUSOLVER_STATUS_INVALID_VALUE); the
 * computation runs in the handle's stream order on a complex-double copy
 * (cuemu_solver_factor.c).
 */
#include <stdlib.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)

/* ---- Runs in stream order ------------------------------------------------
 */

static int64_t pivot_at(const cuemu_solver_call *c, int64_t i) {
  return c->ipiv64 ? ((const int64_t *)c->pivots)[i]
                   : ((const int *)c->pivots)[i];
}

static void run_getrf(void *p) {
  cuemu_solver_call *c = p;
  int64_t steps = c->m < c->n ? c->m : c->n;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, c->m, c->n, c->lda);
  int64_t *ipiv = malloc((size_t)MAX1(steps) * sizeof *ipiv);
  if (!a || !ipiv) {
    free(a);
    free(ipiv);
    return;
  }
  int info = cuemu__solver_lu(a, c->m, c->n, c->pivots ? ipiv : NULL);
  cuemu__solver_put(c->a, c->type, c->m, c->n, c->lda, a);
  cuemu__solver_put_pivots(c, ipiv, steps);
  if (c->info)
    cuemu__solver_info_set(c->info, 0, info);
  free(a);
  free(ipiv);
}

static void run_getrs(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  cuemu_solver_value *b = cuemu__solver_get(c->b, c->type, n, c->nrhs, c->ldb);
  int64_t *ipiv = malloc((size_t)MAX1(n) * sizeof *ipiv);
  if (a && b && ipiv) {
    for (int64_t i = 0; c->pivots && i < n; ++i)
      ipiv[i] = pivot_at(c, i);
    cuemu__solver_lu_solve(a, n, c->pivots ? ipiv : NULL, c->op, b, c->nrhs);
    cuemu__solver_put(c->b, c->type, n, c->nrhs, c->ldb, b);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(a);
  free(b);
  free(ipiv);
}

static void run_potrf(void *p) {
  cuemu_solver_call *c = p;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, c->n, c->n, c->lda);
  if (!a)
    return;
  int info = cuemu__solver_cholesky(a, c->n, c->uplo);
  cuemu__solver_put_triangle(c->a, c->type, c->n, c->lda, c->uplo, a);
  if (c->info)
    cuemu__solver_info_set(c->info, 0, info);
  free(a);
}

static void run_potrs(void *p) {
  cuemu_solver_call *c = p;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, c->n, c->n, c->lda);
  cuemu_solver_value *b =
      cuemu__solver_get(c->b, c->type, c->n, c->nrhs, c->ldb);
  if (a && b) {
    cuemu__solver_cholesky_solve(a, c->n, c->uplo, b, c->nrhs);
    cuemu__solver_put(c->b, c->type, c->n, c->nrhs, c->ldb, b);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(a);
  free(b);
}

/* The inverse from the Cholesky factor: A^-1 = (L L^H)^-1, each column
 * solved for; info > 0 where the factor's diagonal has a zero. */
static void run_potri(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n;
  cuemu_solver_value *f = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  cuemu_solver_value *x = calloc((size_t)MAX1(n * n), sizeof *x);
  if (f && x) {
    int info = 0;
    for (int64_t i = 0; i < n && !info; ++i)
      if (f[i * n + i] == 0)
        info = (int)(i + 1);
    if (!info) {
      for (int64_t i = 0; i < n; ++i)
        x[i * n + i] = 1;
      cuemu__solver_cholesky_solve(f, n, c->uplo, x, n);
      cuemu__solver_put_triangle(c->a, c->type, n, c->lda, c->uplo, x);
    }
    if (c->info)
      cuemu__solver_info_set(c->info, 0, info);
  }
  free(f);
  free(x);
}

/* Xtrtri: the inverse of the triangle uplo names, over it; info = k when
 * a non-unit diagonal's k-th entry is zero (A unchanged then). A unit
 * diagonal is neither read nor written. */
static void run_trtri(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n;
  int lower = c->uplo == CUEMU_LOWER;
  cuemu_solver_value *t = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  cuemu_solver_value *x = calloc((size_t)MAX1(n * n), sizeof *x);
  if (t && x) {
    int info = 0;
    for (int64_t i = 0; i < n && !c->unit && !info; ++i)
      if (t[i * n + i] == 0)
        info = (int)(i + 1);
    if (!info) {
      for (int64_t j = 0; j < n; ++j) {
        x[j * n + j] = 1;
        cuemu__solver_triangular_solve(t, n, CUEMU_OP_N, lower, c->unit,
                                       x + j * n);
        /* A unit diagonal is written back as it was. */
        if (c->unit)
          x[j * n + j] = t[j * n + j];
      }
      cuemu__solver_put_triangle(c->a, c->type, n, c->lda, c->uplo, x);
    }
    if (c->info)
      cuemu__solver_info_set(c->info, 0, info);
  }
  free(t);
  free(x);
}

/* ---- Checks and calls
 * --------------------------------------------------------
 */

/* Checks the device memory of a call's matrices, pivots and info. */
static int check_memory(const char *name, const cuemu_solver_call *c,
                        int64_t arows, int64_t acols, int64_t brows,
                        int64_t bcols, int64_t pivots) {
  size_t e = cuemu__solver_size(c->type);
  return cuemu__solver_check(name, "A", c->a,
                             cuemu__solver_span(arows, acols, c->lda, e)) &&
         (!c->b ||
          cuemu__solver_check(name, "B", c->b,
                              cuemu__solver_span(brows, bcols, c->ldb, e))) &&
         (!c->pivots || cuemu__solver_check(name, "devIpiv", c->pivots,
                                            (size_t)(pivots > 0 ? pivots : 0) *
                                                (c->ipiv64 ? 8 : 4))) &&
         (!c->info ||
          cuemu__solver_check(name, "devInfo", c->info, sizeof(int)));
}

static cusolverStatus_t getrf(cusolverDnHandle_t h, cuemu_solver_type type,
                              int64_t m, int64_t n, void *a, int64_t lda,
                              void *ipiv, int ipiv64, int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (m < 0)
    return cuemu__solver_bad_argument(h, info, 1);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 2);
  if (lda < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 4);
  cuemu_solver_call c = {.type = type,
                         .m = m,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .pivots = ipiv,
                         .ipiv64 = ipiv64,
                         .info = info};
  if (!check_memory("cusolverDn?getrf", &c, m, n, 0, 0, m < n ? m : n))
    return CUSOLVER_STATUS_SUCCESS;
  return cuemu__solver_enqueue(h, run_getrf, &c);
}

static cusolverStatus_t getrs(cusolverDnHandle_t h, cuemu_solver_type type,
                              int op, int64_t n, int64_t nrhs, const void *a,
                              int64_t lda, const void *ipiv, int ipiv64,
                              void *b, int64_t ldb, int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (op != CUEMU_OP_N && op != CUEMU_OP_T && op != CUEMU_OP_C)
    return cuemu__solver_bad_argument(h, info, 1);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 2);
  if (nrhs < 0)
    return cuemu__solver_bad_argument(h, info, 3);
  if (lda < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 5);
  if (ldb < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 8);
  cuemu_solver_call c = {.type = type,
                         .op = op,
                         .n = n,
                         .nrhs = nrhs,
                         .a = (void *)a,
                         .lda = lda,
                         .b = b,
                         .ldb = ldb,
                         .pivots = (void *)ipiv,
                         .ipiv64 = ipiv64,
                         .info = info};
  if (!check_memory("cusolverDn?getrs", &c, n, n, n, nrhs, n))
    return CUSOLVER_STATUS_SUCCESS;
  return cuemu__solver_enqueue(h, run_getrs, &c);
}

/* potrf (b NULL, run_potrf), potri (run_potri) and potrs. */
static cusolverStatus_t potr(cusolverDnHandle_t h, cuemu_solver_type type,
                             void (*run)(void *), int uplo, int64_t n,
                             int64_t nrhs, const void *a, int64_t lda, void *b,
                             int64_t ldb, int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  int solve = run == run_potrs;
  if (uplo != CUEMU_LOWER && uplo != CUEMU_UPPER)
    return cuemu__solver_bad_argument(h, info, 1);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 2);
  if (solve && nrhs < 0)
    return cuemu__solver_bad_argument(h, info, 3);
  if (lda < MAX1(n))
    return cuemu__solver_bad_argument(h, info, solve ? 5 : 4);
  if (solve && ldb < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 7);
  cuemu_solver_call c = {.type = type,
                         .uplo = uplo,
                         .n = n,
                         .nrhs = nrhs,
                         .a = (void *)a,
                         .lda = lda,
                         .b = solve ? b : NULL,
                         .ldb = ldb,
                         .info = info};
  if (!check_memory("cusolverDn?potr?", &c, n, n, n, nrhs, 0))
    return CUSOLVER_STATUS_SUCCESS;
  return cuemu__solver_enqueue(h, run, &c);
}

/* ---- The S, D, C and Z entry points
 * --------------------------------------------
 */

#define LINEAR_API(P, T)                                                       \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##getrf_bufferSize(        \
      cusolverDnHandle_t h, int m, int n, void *a, int lda, int *lwork) {      \
    (void)a;                                                                   \
    if (m < 0 || n < 0 || lda < MAX1(m))                                       \
      return h ? CUSOLVER_STATUS_INVALID_VALUE                                 \
               : CUSOLVER_STATUS_NOT_INITIALIZED;                              \
    return cuemu__solver_work_size(h, 0, lwork);                               \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##getrf(                   \
      cusolverDnHandle_t h, int m, int n, void *a, int lda, void *work,        \
      int *ipiv, int *info) {                                                  \
    (void)work;                                                                \
    return getrf(h, T, m, n, a, lda, ipiv, 0, info);                           \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##getrs(                   \
      cusolverDnHandle_t h, int op, int n, int nrhs, const void *a, int lda,   \
      const int *ipiv, void *b, int ldb, int *info) {                          \
    return getrs(h, T, op, n, nrhs, a, lda, ipiv, 0, b, ldb, info);            \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##potrf_bufferSize(        \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda, int *lwork) {   \
    (void)a;                                                                   \
    (void)uplo;                                                                \
    if (n < 0 || lda < MAX1(n))                                                \
      return h ? CUSOLVER_STATUS_INVALID_VALUE                                 \
               : CUSOLVER_STATUS_NOT_INITIALIZED;                              \
    return cuemu__solver_work_size(h, 0, lwork);                               \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##potrf(                   \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda, void *work,     \
      int lwork, int *info) {                                                  \
    (void)work;                                                                \
    (void)lwork;                                                               \
    return potr(h, T, run_potrf, uplo, n, 0, a, lda, NULL, 0, info);           \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##potrs(                   \
      cusolverDnHandle_t h, int uplo, int n, int nrhs, const void *a, int lda, \
      void *b, int ldb, int *info) {                                           \
    return potr(h, T, run_potrs, uplo, n, nrhs, a, lda, b, ldb, info);         \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##potri_bufferSize(        \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda, int *lwork) {   \
    return cusolverDn##P##potrf_bufferSize(h, uplo, n, a, lda, lwork);         \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##potri(                   \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda, void *work,     \
      int lwork, int *info) {                                                  \
    (void)work;                                                                \
    (void)lwork;                                                               \
    return potr(h, T, run_potri, uplo, n, 0, a, lda, NULL, 0, info);           \
  }

LINEAR_API(S, CUEMU_SOLVER_S)
LINEAR_API(D, CUEMU_SOLVER_D)
LINEAR_API(C, CUEMU_SOLVER_C)
LINEAR_API(Z, CUEMU_SOLVER_Z)

/* ---- The 64-bit generic API
 * ---------------------------------------------------
 */

/* The element type of dataTypeA; the compute type must be the same (cuemu
 * computes every type in double). -1 for an unsupported pair. */
static int generic_type(int data_type, int compute_type) {
  int t = cuemu__solver_from_data_type(data_type);
  return t >= 0 && compute_type == data_type ? t : -1;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgetrf_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, int64_t m, int64_t n,
    int type_a, const void *a, int64_t lda, int compute, size_t *device,
    size_t *host) {
  (void)params, (void)a;
  if (m < 0 || n < 0 || lda < MAX1(m))
    return h ? CUSOLVER_STATUS_INVALID_VALUE : CUSOLVER_STATUS_NOT_INITIALIZED;
  return cuemu__solver_generic_size(h, "cusolverDnXgetrf_bufferSize",
                                    generic_type(type_a, compute), device,
                                    host);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnXgetrf(cusolverDnHandle_t h, cusolverDnParams_t params, int64_t m,
                 int64_t n, int type_a, void *a, int64_t lda, int64_t *ipiv,
                 int compute, void *device_buffer, size_t device_bytes,
                 void *host_buffer, size_t host_bytes, int *info) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  int t = generic_type(type_a, compute);
  if (h && t < 0)
    return cuemu__solver_unsupported("cusolverDnXgetrf");
  return getrf(h, t, m, n, a, lda, ipiv, 1, info);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgetrs(
    cusolverDnHandle_t h, cusolverDnParams_t params, int op, int64_t n,
    int64_t nrhs, int type_a, const void *a, int64_t lda, const int64_t *ipiv,
    int type_b, void *b, int64_t ldb, int *info) {
  (void)params;
  int t = generic_type(type_a, type_b);
  if (h && t < 0)
    return cuemu__solver_unsupported("cusolverDnXgetrs");
  return getrs(h, t, op, n, nrhs, a, lda, ipiv, 1, b, ldb, info);
}

/* Xtrtri's arguments count as LAPACK's trtri counts them (uplo 1, diag 2,
 * n 3, A 4, lda 5). */
CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXtrtri_bufferSize(
    cusolverDnHandle_t h, int uplo, int diag, int64_t n, int type_a, void *a,
    int64_t lda, size_t *device, size_t *host) {
  (void)uplo, (void)diag, (void)a;
  if (h && (n < 0 || lda < MAX1(n)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  return cuemu__solver_generic_size(h, "cusolverDnXtrtri_bufferSize",
                                    cuemu__solver_from_data_type(type_a),
                                    device, host);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXtrtri(
    cusolverDnHandle_t h, int uplo, int diag, int64_t n, int type_a, void *a,
    int64_t lda, void *device_buffer, size_t device_bytes, void *host_buffer,
    size_t host_bytes, int *info) {
  (void)device_buffer, (void)device_bytes, (void)host_buffer, (void)host_bytes;
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  int t = cuemu__solver_from_data_type(type_a);
  if (t < 0)
    return cuemu__solver_unsupported("cusolverDnXtrtri");
  if (uplo != CUEMU_LOWER && uplo != CUEMU_UPPER)
    return cuemu__solver_bad_argument(h, info, 1);
  if (diag != 0 && diag != 1) /* CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT */
    return cuemu__solver_bad_argument(h, info, 2);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 3);
  if (lda < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 5);
  cuemu_solver_call c = {.type = t,
                         .uplo = uplo,
                         .unit = diag == 1,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .info = info};
  if (!check_memory("cusolverDnXtrtri", &c, n, n, 0, 0, 0))
    return CUSOLVER_STATUS_SUCCESS;
  return cuemu__solver_enqueue(h, run_trtri, &c);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXpotrf_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, int uplo, int64_t n,
    int type_a, const void *a, int64_t lda, int compute, size_t *device,
    size_t *host) {
  (void)params, (void)a, (void)uplo;
  if (n < 0 || lda < MAX1(n))
    return h ? CUSOLVER_STATUS_INVALID_VALUE : CUSOLVER_STATUS_NOT_INITIALIZED;
  return cuemu__solver_generic_size(h, "cusolverDnXpotrf_bufferSize",
                                    generic_type(type_a, compute), device,
                                    host);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXpotrf(
    cusolverDnHandle_t h, cusolverDnParams_t params, int uplo, int64_t n,
    int type_a, void *a, int64_t lda, int compute, void *device_buffer,
    size_t device_bytes, void *host_buffer, size_t host_bytes, int *info) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  int t = generic_type(type_a, compute);
  if (h && t < 0)
    return cuemu__solver_unsupported("cusolverDnXpotrf");
  return potr(h, t, run_potrf, uplo, n, 0, a, lda, NULL, 0, info);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnXpotrs(cusolverDnHandle_t h, cusolverDnParams_t params, int uplo,
                 int64_t n, int64_t nrhs, int type_a, const void *a,
                 int64_t lda, int type_b, void *b, int64_t ldb, int *info) {
  (void)params;
  int t = generic_type(type_a, type_b);
  if (h && t < 0)
    return cuemu__solver_unsupported("cusolverDnXpotrs");
  return potr(h, t, run_potrs, uplo, n, nrhs, a, lda, b, ldb, info);
}
