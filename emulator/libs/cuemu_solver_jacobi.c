/*
 * cuemu_solver_jacobi.c: cuSOLVER's Jacobi eigen-solver and SVD, S/D/C/Z:
 * syevj/heevj and gesvdj (with their buffer sizes) and the objects of their
 * settings and reports (syevjInfo_t, gesvdjInfo_t). The eigen-solver is
 * syevd's path with a tolerance and a limit of sweeps
 * (cuemu_solver_orthogonal.c); the SVD is one-sided Jacobi
 * (cuemu_solver_spectral.c) on A, or on A^H when A has more columns than
 * rows.
 */
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)

/* ---- The objects of settings (syevjInfo_t and gesvdjInfo_t share one
 * form) ------------------------------------------------------------------
 */

static cusolverStatus_t create_info(cuemu_solver_jacobi **info) {
  if (!info)
    return CUSOLVER_STATUS_INVALID_VALUE;
  cuemu_solver_jacobi *j = calloc(1, sizeof *j);
  if (!j)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  j->max_sweeps = 100; /* cuSOLVER's default */
  j->sort = 1;
  *info = j;
  return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t destroy_info(cuemu_solver_jacobi *info) {
  if (!info)
    return CUSOLVER_STATUS_INVALID_VALUE;
  free(info);
  return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t set_tolerance(cuemu_solver_jacobi *info, double tol) {
  if (!info)
    return CUSOLVER_STATUS_INVALID_VALUE;
  info->tol = tol; /* <= 0: the default, the type's machine epsilon */
  return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t set_max_sweeps(cuemu_solver_jacobi *info, int sweeps) {
  if (!info || sweeps < 1)
    return CUSOLVER_STATUS_INVALID_VALUE;
  info->max_sweeps = sweeps;
  return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t set_sort(cuemu_solver_jacobi *info, int sort) {
  if (!info)
    return CUSOLVER_STATUS_INVALID_VALUE;
  info->sort = sort; /* kept: the calls cuemu has always sort */
  return CUSOLVER_STATUS_SUCCESS;
}

/* The report of the last call that ran with info, once the handle's stream
 * has run it; a batched call has none (NOT_SUPPORTED, as cuSOLVER). */
static cusolverStatus_t get_report(cusolverDnHandle_t h,
                                   cuemu_solver_jacobi *info, double *residual,
                                   int *sweeps) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!info || (!residual && !sweeps))
    return CUSOLVER_STATUS_INVALID_VALUE;
  cuemu_rt_stream_synchronize(h->stream);
  if (info->batched)
    return CUSOLVER_STATUS_NOT_SUPPORTED;
  if (residual)
    *residual = info->residual;
  if (sweeps)
    *sweeps = info->sweeps;
  return CUSOLVER_STATUS_SUCCESS;
}

#define INFO_API(J, I)                                                         \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnCreate##I##Info(              \
      cuemu_solver_jacobi **info) {                                            \
    return create_info(info);                                                  \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnDestroy##I##Info(             \
      cuemu_solver_jacobi *info) {                                             \
    return destroy_info(info);                                                 \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnX##J##SetTolerance(           \
      cuemu_solver_jacobi *info, double tolerance) {                           \
    return set_tolerance(info, tolerance);                                     \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnX##J##SetMaxSweeps(           \
      cuemu_solver_jacobi *info, int max_sweeps) {                             \
    return set_max_sweeps(info, max_sweeps);                                   \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnX##J##SetSortEig(             \
      cuemu_solver_jacobi *info, int sort) {                                   \
    return set_sort(info, sort);                                               \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnX##J##GetResidual(            \
      cusolverDnHandle_t h, cuemu_solver_jacobi *info, double *residual) {     \
    return get_report(h, info, residual, NULL);                                \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnX##J##GetSweeps(              \
      cusolverDnHandle_t h, cuemu_solver_jacobi *info, int *sweeps) {          \
    return get_report(h, info, NULL, sweeps);                                  \
  }

INFO_API(syevj, Syevj)
INFO_API(gesvdj, Gesvdj)

double cuemu__solver_jacobi_tolerance(const cuemu_solver_jacobi *j,
                                      cuemu_solver_type type) {
  if (j && j->tol > 0)
    return j->tol;
  return cuemu__solver_real_size(type) == 4 ? 0x1p-23 : 0x1p-52;
}

/* ---- gesvdj
 * ----------------------------------------------------------------------
 */

/* One SVD: A at pa, S at ps, U at pu, V at pv, info at *info. */
static void gesvdj_one(const cuemu_solver_call *c, void *pa, void *ps, void *pu,
                       void *pv, int *info) {
  int64_t m = c->m, n = c->n, k = m < n ? m : n;
  /* A's SVD from that of A (m >= n) or of B = A^H: A = V_B S U_B^H. */
  int wide = m < n;
  int64_t rows = wide ? n : m, cols = wide ? m : n;
  cuemu_solver_value *a = cuemu__solver_get(pa, c->type, m, n, c->lda);
  cuemu_solver_value *b = malloc((size_t)MAX1(m * n) * sizeof *b);
  cuemu_solver_value *u = malloc((size_t)MAX1(rows * rows) * sizeof *u);
  cuemu_solver_value *vt = malloc((size_t)MAX1(cols * cols) * sizeof *vt);
  cuemu_solver_value *left = malloc((size_t)MAX1(m * m) * sizeof *left);
  cuemu_solver_value *right = malloc((size_t)MAX1(n * n) * sizeof *right);
  double *s = malloc((size_t)MAX1(k) * sizeof *s);
  if (a && b && u && vt && left && right && s) {
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i)
        b[wide ? i * n + j : j * m + i] =
            wide ? conj(a[j * m + i]) : a[j * m + i];
    cuemu_solver_sweeps ctl = {
        .tol = c->tol, .max_sweeps = c->max_sweeps, .unsorted = c->unsorted};
    int bad =
        k > 0 ? cuemu__solver_svd_jacobi(b, rows, cols, s, u, vt, &ctl) : 0;
    /* left = U (m x m), right = V (n x n): u and vt^H, swapped when wide. */
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = 0; i < m; ++i)
        left[j * m + i] = wide ? conj(vt[i * m + j]) : u[j * m + i];
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        right[j * n + i] = wide ? u[j * n + i] : conj(vt[i * n + j]);
    for (int64_t i = 0; i < k; ++i)
      cuemu__solver_store_real(ps, c->type, i, s[i]);
    if (c->vectors) {
      cuemu__solver_put(pu, c->type, m, c->econ ? k : m, c->ldu, left);
      cuemu__solver_put(pv, c->type, n, c->econ ? k : n, c->ldvt, right);
    }
    c->jacobi->residual = ctl.residual;
    c->jacobi->sweeps = ctl.sweeps;
    c->jacobi->batched = c->batch > 0;
    /* min(m, n) + 1: the tolerance not met in the sweeps allowed. */
    if (info)
      cuemu__solver_info_set(info, 0, bad ? (int)k + 1 : 0);
  }
  free(a);
  free(b);
  free(u);
  free(vt);
  free(left);
  free(right);
  free(s);
}

/* gesvdj, or gesvdjBatched's c->batch matrices one after another (A
 * lda x n elements apart, S min(m, n), U ldu x m, V ldv x n; one info
 * each). */
static void run_gesvdj(void *p) {
  cuemu_solver_call *c = p;
  int64_t count = c->batch > 0 ? c->batch : 1, k = c->m < c->n ? c->m : c->n;
  size_t e = cuemu__solver_size(c->type);
  /* U and V may be NULL without vectors. */
  for (int64_t b = 0; b < count; ++b)
    gesvdj_one(
        c, (char *)c->a + (size_t)(b * c->lda * c->n) * e,
        (char *)c->s + (size_t)(b * k) * cuemu__solver_real_size(c->type),
        c->vectors ? (char *)c->u + (size_t)(b * c->ldu * c->m) * e : NULL,
        c->vectors ? (char *)c->vt + (size_t)(b * c->ldvt * c->n) * e : NULL,
        c->info ? c->info + b : NULL);
}

/* gesvdj, and gesvdjBatched (batch > 0: m and n at most 32, no economy
 * size, as cuSOLVER's). */
static cusolverStatus_t gesvdj(cusolverDnHandle_t h, cuemu_solver_type type,
                               int jobz, int econ, int64_t m, int64_t n,
                               void *a, int64_t lda, void *s, void *u,
                               int64_t ldu, void *v, int64_t ldv, int *info,
                               cuemu_solver_jacobi *params, int64_t batch) {
  /* The batched call's arguments count without econ. */
  int shift = batch > 0 ? -1 : 0;
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (jobz != CUEMU_EIG_NOVECTOR && jobz != CUEMU_EIG_VECTOR)
    return cuemu__solver_bad_argument(h, info, 1);
  if (econ != 0 && econ != 1)
    return cuemu__solver_bad_argument(h, info, 2);
  if (m < 0 || (batch > 0 && m > 32))
    return cuemu__solver_bad_argument(h, info, 3 + shift);
  if (n < 0 || (batch > 0 && n > 32))
    return cuemu__solver_bad_argument(h, info, 4 + shift);
  if (lda < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 6 + shift);
  int vectors = jobz == CUEMU_EIG_VECTOR;
  if (vectors && ldu < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 9 + shift);
  if (vectors && ldv < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 11 + shift);
  if (!params)
    return cuemu__solver_bad_argument(h, info, 15 + shift);
  if (batch < 0)
    return cuemu__solver_bad_argument(h, info, 15);
  int64_t k = m < n ? m : n, count = batch > 0 ? batch : 1;
  size_t e = cuemu__solver_size(type);
  const char *name =
      batch > 0 ? "cusolverDn?gesvdjBatched" : "cusolverDn?gesvdj";
  /* A batch's matrices lie lda x n (U: ldu x m, V: ldv x n) apart. */
  if (!cuemu__solver_check_matrix(name, "A", a, m, n + (count - 1) * n, lda,
                                  e) ||
      !cuemu__solver_check_matrix(name, "S", s, k * count, 1, MAX1(k * count),
                                  cuemu__solver_real_size(type)) ||
      (vectors &&
       !cuemu__solver_check_matrix(name, "U", u, m,
                                   (econ ? k : m) + (count - 1) * m, ldu, e)) ||
      (vectors &&
       !cuemu__solver_check_matrix(name, "V", v, n,
                                   (econ ? k : n) + (count - 1) * n, ldv, e)) ||
      (info &&
       !cuemu__solver_check(name, "info", info, (size_t)count * sizeof(int))))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .vectors = vectors,
                         .econ = econ,
                         .m = m,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .s = s,
                         .u = u,
                         .ldu = ldu,
                         .vt = v,
                         .ldvt = ldv,
                         .info = info,
                         .jacobi = params,
                         .tol = cuemu__solver_jacobi_tolerance(params, type),
                         .max_sweeps = params->max_sweeps,
                         .batch = batch,
                         /* only a batch may be unsorted, as cuSOLVER's */
                         .unsorted = batch > 0 && !params->sort};
  return cuemu__solver_enqueue(h, run_gesvdj, &c);
}

/* syevj runs syevd's path with the settings of params; syevjBatched
 * (batch > 0) takes n at most 32, as cuSOLVER's. */
static cusolverStatus_t syevj(cusolverDnHandle_t h, cuemu_solver_type type,
                              int jobz, int uplo, int64_t n, void *a,
                              int64_t lda, void *w, int *info,
                              cuemu_solver_jacobi *params, int64_t batch) {
  if (h && batch > 0 && n > 32)
    return cuemu__solver_bad_argument(h, info, 3);
  if (h && !params)
    return cuemu__solver_bad_argument(h, info, 10);
  if (h && batch < 0)
    return cuemu__solver_bad_argument(h, info, 11);
  return cuemu__solver_syevd(h, type, jobz, uplo, n, a, lda, w, info, params,
                             batch, NULL);
}

/* P the prefix, T the type, SY "sy"/"he". */
#define JACOBI_API(P, T, SY)                                                   \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##evj_bufferSize(      \
      cusolverDnHandle_t h, int jobz, int uplo, int n, const void *a, int lda, \
      const void *w, int *lwork, cuemu_solver_jacobi *params) {                \
    (void)jobz, (void)uplo, (void)a, (void)w, (void)params;                    \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n), lwork);          \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##evj(                 \
      cusolverDnHandle_t h, int jobz, int uplo, int n, void *a, int lda,       \
      void *w, void *work, int lwork, int *info,                               \
      cuemu_solver_jacobi *params) {                                           \
    (void)work, (void)lwork;                                                   \
    return syevj(h, T, jobz, uplo, n, a, lda, w, info, params, 0);             \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gesvdj_bufferSize(       \
      cusolverDnHandle_t h, int jobz, int econ, int m, int n, const void *a,   \
      int lda, const void *s, const void *u, int ldu, const void *v, int ldv,  \
      int *lwork, cuemu_solver_jacobi *params) {                               \
    (void)jobz, (void)econ, (void)a, (void)s, (void)u, (void)ldu, (void)v,     \
        (void)ldv, (void)params;                                               \
    return cuemu__solver_work_size(h, m < 0 || n < 0 || lda < MAX1(m), lwork); \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gesvdj(                  \
      cusolverDnHandle_t h, int jobz, int econ, int m, int n, void *a,         \
      int lda, void *s, void *u, int ldu, void *v, int ldv, void *work,        \
      int lwork, int *info, cuemu_solver_jacobi *params) {                     \
    (void)work, (void)lwork;                                                   \
    return gesvdj(h, T, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, info,     \
                  params, 0);                                                  \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t                                         \
      cusolverDn##P##SY##evjBatched_bufferSize(                                \
          cusolverDnHandle_t h, int jobz, int uplo, int n, const void *a,      \
          int lda, const void *w, int *lwork, cuemu_solver_jacobi *params,     \
          int batch) {                                                         \
    (void)jobz, (void)uplo, (void)a, (void)w, (void)params;                    \
    return cuemu__solver_work_size(                                            \
        h, n < 0 || n > 32 || lda < MAX1(n) || batch < 0, lwork);              \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##evjBatched(          \
      cusolverDnHandle_t h, int jobz, int uplo, int n, void *a, int lda,       \
      void *w, void *work, int lwork, int *info, cuemu_solver_jacobi *params,  \
      int batch) {                                                             \
    (void)work, (void)lwork;                                                   \
    /* A batch of none is a batch: it enqueues nothing but the checks. */      \
    return batch == 0 && h                                                     \
               ? CUSOLVER_STATUS_SUCCESS                                       \
               : syevj(h, T, jobz, uplo, n, a, lda, w, info, params, batch);   \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t                                         \
      cusolverDn##P##gesvdjBatched_bufferSize(                                 \
          cusolverDnHandle_t h, int jobz, int m, int n, const void *a,         \
          int lda, const void *s, const void *u, int ldu, const void *v,       \
          int ldv, int *lwork, cuemu_solver_jacobi *params, int batch) {       \
    (void)jobz, (void)a, (void)s, (void)u, (void)ldu, (void)v, (void)ldv,      \
        (void)params;                                                          \
    return cuemu__solver_work_size(                                            \
        h, m < 0 || n < 0 || m > 32 || n > 32 || lda < MAX1(m) || batch < 0,   \
        lwork);                                                                \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gesvdjBatched(           \
      cusolverDnHandle_t h, int jobz, int m, int n, void *a, int lda, void *s, \
      void *u, int ldu, void *v, int ldv, void *work, int lwork, int *info,    \
      cuemu_solver_jacobi *params, int batch) {                                \
    (void)work, (void)lwork;                                                   \
    return batch == 0 && h ? CUSOLVER_STATUS_SUCCESS                           \
                           : gesvdj(h, T, jobz, 0, m, n, a, lda, s, u, ldu, v, \
                                    ldv, info, params, batch);                 \
  }

JACOBI_API(S, CUEMU_SOLVER_S, sy)
JACOBI_API(D, CUEMU_SOLVER_D, sy)
JACOBI_API(C, CUEMU_SOLVER_C, he)
JACOBI_API(Z, CUEMU_SOLVER_Z, he)
