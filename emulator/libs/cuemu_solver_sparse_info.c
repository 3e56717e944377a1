/*
 * cuemu_solver_sparse_info.c: the low-level API of cuSOLVER's sparse
 * solvers (cusolverSp_LOWLEVEL_PREVIEW.h) on cuemu's direct solver
 * (cuemu_solver_sparse.h): Cholesky (csrcholInfo_t and csrcholInfoHost_t),
 * QR (csrqrInfo_t, csrqrInfoHost_t; square systems, shifted by mu, and
 * the batched csrqrsvBatched) and LU (csrluInfoHost_t, its solve and the
 * extraction of its factors, cuemu_solver_sparse_lu.c) for S, D, C and Z.
 *
 * An info object keeps the pattern its analysis saw and, once factored,
 * the factor. A call on the device synchronises the handle's stream first
 * and returns with its results written. The sizes a BufferInfo call
 * reports are those of cuemu's band factor (internal data) and of one
 * vector (the workspace, which cuemu does not use).
 */
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_solver_sparse.h"

#define E CUEMU_SOLVER_EXPORT

/* One info object of any of the three kinds. */
typedef struct cuemu_sp_info {
  int analysed, set_up;
  int64_t m, n, nnz;
  int *row_ptr, *col_ind; /* the analysed pattern, 0-based */
  void *values;           /* csrqrSetup's values, kept for csrqrFactor */
  cuemu_solver_type type;
  cuemu_solver_value mu;
  cuemu_sp_factor factor;
  int factored;
  cuemu_sp_lu lu; /* csrluFactorHost's explicit factors (csrluExtractHost) */
} cuemu_sp_info;

static cusolverStatus_t info_create(cuemu_sp_info **info) {
  if (!info)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *info = calloc(1, sizeof **info);
  return *info ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

static cusolverStatus_t info_destroy(cuemu_sp_info *info) {
  if (!info)
    return CUSOLVER_STATUS_INVALID_VALUE;
  cuemu__sp_factor_free(&info->factor);
  cuemu__sp_lu_free(&info->lu);
  free(info->row_ptr), free(info->col_ind), free(info->values);
  free(info);
  return CUSOLVER_STATUS_SUCCESS;
}

/* Create and Destroy of each kind: csrcholInfo, csrcholInfoHost,
 * csrqrInfo, csrqrInfoHost, csrluInfoHost. */
#define SP_INFO_LIFE(KIND)                                                     \
  E cusolverStatus_t cusolverSpCreate##KIND(cuemu_sp_info **info) {            \
    return info_create(info);                                                  \
  }                                                                            \
  E cusolverStatus_t cusolverSpDestroy##KIND(cuemu_sp_info *info) {            \
    return info_destroy(info);                                                 \
  }
SP_INFO_LIFE(CsrcholInfo)
SP_INFO_LIFE(CsrcholInfoHost)
SP_INFO_LIFE(CsrqrInfo)
SP_INFO_LIFE(CsrqrInfoHost)
SP_INFO_LIFE(CsrluInfoHost)

/* A device call's wait for the stream (the arrays may be results of
 * earlier work). */
static cusolverStatus_t on_device(cusolverSpHandle_t h, int device) {
  if (device && cuemu_rt_stream_synchronize(h->stream) != 0)
    return CUSOLVER_STATUS_EXECUTION_FAILED;
  return CUSOLVER_STATUS_SUCCESS;
}

/* The analysis: the pattern of the m x n matrix, kept 0-based. Only
 * square systems are solved (a QR of a rectangular matrix, for least
 * squares, is not emulated: NOT_SUPPORTED). */
static cusolverStatus_t analysis(cusolverSpHandle_t h, int device, int m, int n,
                                 int nnz, const struct cusparseMatDescr *d,
                                 const int *row_ptr, const int *col_ind,
                                 cuemu_sp_info *info) {
  cuemu_sp_csr a;
  cusolverStatus_t st = cuemu__sp_csr(h, m, n, nnz, d, NULL, row_ptr, col_ind,
                                      CUEMU_SOLVER_D, &a);
  if (st == CUSOLVER_STATUS_SUCCESS && !info)
    st = CUSOLVER_STATUS_INVALID_VALUE;
  if (st == CUSOLVER_STATUS_SUCCESS && m != n)
    st = CUSOLVER_STATUS_NOT_SUPPORTED;
  if (st == CUSOLVER_STATUS_SUCCESS)
    st = on_device(h, device);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  int *rows = malloc(((size_t)m + 1) * sizeof *rows);
  int *cols = malloc(((size_t)nnz + 1) * sizeof *cols);
  if (!rows || !cols) {
    free(rows), free(cols);
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  for (int i = 0; i <= m; ++i)
    rows[i] = row_ptr[i] - a.base;
  for (int k = 0; k < nnz; ++k)
    cols[k] = col_ind[k] - a.base;
  free(info->row_ptr), free(info->col_ind);
  info->row_ptr = rows, info->col_ind = cols;
  info->m = m, info->n = n, info->nnz = nnz, info->analysed = 1;
  return CUSOLVER_STATUS_SUCCESS;
}

#define SP_ANALYSIS(NAME, DEVICE)                                              \
  E cusolverStatus_t cusolverSpXcsr##NAME(                                     \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const int *row_ptr, const int *col_ind, cuemu_sp_info *info) {           \
    return analysis(h, DEVICE, n, n, nnz, d, row_ptr, col_ind, info);          \
  }
SP_ANALYSIS(cholAnalysis, 1)
SP_ANALYSIS(cholAnalysisHost, 0)
SP_ANALYSIS(luAnalysisHost, 0)
#define SP_QR_ANALYSIS(NAME, DEVICE)                                           \
  E cusolverStatus_t cusolverSpXcsr##NAME(                                     \
      cusolverSpHandle_t h, int m, int n, int nnz,                             \
      const struct cusparseMatDescr *d, const int *row_ptr,                    \
      const int *col_ind, cuemu_sp_info *info) {                               \
    return analysis(h, DEVICE, m, n, nnz, d, row_ptr, col_ind, info);          \
  }
SP_QR_ANALYSIS(qrAnalysis, 1)
SP_QR_ANALYSIS(qrAnalysisHost, 0)
SP_QR_ANALYSIS(qrAnalysisBatched, 1)

/* Factors `values` (nnz of `type`, on the analysed pattern) into info,
 * shifted by -mu. */
static cusolverStatus_t factor(cusolverSpHandle_t h, cuemu_sp_info *info,
                               cuemu_solver_type type, const void *values,
                               int cholesky, cuemu_solver_value mu) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!info || !info->analysed || (info->nnz > 0 && !values))
    return CUSOLVER_STATUS_INVALID_VALUE;
  cuemu_sp_csr a = {info->m,       info->n, info->nnz, info->row_ptr,
                    info->col_ind, values,  type,      0};
  cuemu__sp_factor_free(&info->factor);
  info->factored = 0;
  cusolverStatus_t st = cuemu__sp_factor(&a, cholesky, mu, &info->factor);
  info->factored = st == CUSOLVER_STATUS_SUCCESS;
  info->type = type;
  return st;
}

/* csrluFactorHost: the band factor, and its factors made explicit for
 * csrluExtractHost. */
static cusolverStatus_t lu_factor(cusolverSpHandle_t h, cuemu_sp_info *info,
                                  cuemu_solver_type type, const void *values) {
  cusolverStatus_t st = factor(h, info, type, values, 0, 0);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  cuemu_sp_csr a = {info->m,       info->n, info->nnz, info->row_ptr,
                    info->col_ind, values,  type,      0};
  cuemu__sp_lu_free(&info->lu);
  return cuemu__sp_lu_explicit(&a, &info->factor, &info->lu);
}

E cusolverStatus_t cusolverSpXcsrluNnzHost(cusolverSpHandle_t h, int *nnz_l,
                                           int *nnz_u, cuemu_sp_info *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!nnz_l || !nnz_u || !info || !info->factored || !info->lu.l_rows)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *nnz_l = info->lu.l_rows[info->n], *nnz_u = info->lu.u_rows[info->n];
  return CUSOLVER_STATUS_SUCCESS;
}

/* csrluExtractHost: P, Q, L (unit diagonal stored) and U in CSR of the
 * descriptors' bases, values of `type`. */
static cusolverStatus_t lu_extract(cusolverSpHandle_t h, cuemu_sp_info *info,
                                   cuemu_solver_type type, int *P, int *Q,
                                   const struct cusparseMatDescr *dl,
                                   void *l_vals, int *l_rows, int *l_cols,
                                   const struct cusparseMatDescr *du,
                                   void *u_vals, int *u_rows, int *u_cols) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  const cuemu_sp_lu *lu = info ? &info->lu : NULL;
  if (!lu || !info->factored || !lu->l_rows || !P || !Q || !dl || !du ||
      !l_vals || !l_rows || !l_cols || !u_vals || !u_rows || !u_cols)
    return CUSOLVER_STATUS_INVALID_VALUE;
  int n = (int)lu->n, bl = dl->base, bu = du->base;
  memcpy(P, lu->P, (size_t)n * sizeof *P);
  memcpy(Q, lu->Q, (size_t)n * sizeof *Q);
  for (int i = 0; i <= n; ++i)
    l_rows[i] = lu->l_rows[i] + bl, u_rows[i] = lu->u_rows[i] + bu;
  for (int k = 0; k < lu->l_rows[n]; ++k) {
    l_cols[k] = lu->l_cols[k] + bl;
    cuemu__solver_store(l_vals, type, k, lu->l_vals[k]);
  }
  for (int k = 0; k < lu->u_rows[n]; ++k) {
    u_cols[k] = lu->u_cols[k] + bu;
    cuemu__solver_store(u_vals, type, k, lu->u_vals[k]);
  }
  return CUSOLVER_STATUS_SUCCESS;
}

/* The sizes of a BufferInfo call. */
static cusolverStatus_t buffer_info(cusolverSpHandle_t h, cuemu_sp_info *info,
                                    cuemu_solver_type type, size_t *internal,
                                    size_t *workspace) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!info || !info->analysed || !internal || !workspace)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *internal = ((size_t)info->nnz + (size_t)info->n + 1) *
              (cuemu__solver_size(type) + sizeof(int));
  *workspace = ((size_t)info->n + 1) * cuemu__solver_size(type);
  return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t zero_pivot(cusolverSpHandle_t h, cuemu_sp_info *info,
                                   double tol, int *position) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!info || !info->factored || !position || tol < 0)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *position = cuemu__sp_zero_pivot(&info->factor, tol);
  return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t solve(cusolverSpHandle_t h, int device,
                              cuemu_sp_info *info, int n, const void *b,
                              void *x) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!info || !info->factored || n != info->n || (n > 0 && (!b || !x)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  cusolverStatus_t st = on_device(h, device);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  cuemu__sp_solve(&info->factor, info->type, b, x);
  return CUSOLVER_STATUS_SUCCESS;
}

/* csrqrSetup: keeps a copy of the values and mu for csrqrFactor. */
static cusolverStatus_t qr_setup(cusolverSpHandle_t h, int device,
                                 cuemu_sp_info *info, cuemu_solver_type type,
                                 int m, int n, int nnz, const void *values,
                                 cuemu_solver_value mu) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!info || !info->analysed || m != info->m || n != info->n ||
      nnz != info->nnz || (nnz > 0 && !values))
    return CUSOLVER_STATUS_INVALID_VALUE;
  cusolverStatus_t st = on_device(h, device);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  size_t bytes = ((size_t)nnz + 1) * cuemu__solver_size(type);
  void *copy = malloc(bytes);
  if (!copy)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  if (nnz > 0)
    memcpy(copy, values, (size_t)nnz * cuemu__solver_size(type));
  free(info->values);
  info->values = copy, info->type = type, info->mu = mu, info->set_up = 1;
  return CUSOLVER_STATUS_SUCCESS;
}

/* csrqrFactor: factors the set-up matrix; with b and x, also solves. */
static cusolverStatus_t qr_factor(cusolverSpHandle_t h, int device,
                                  cuemu_sp_info *info, int m, int n,
                                  const void *b, void *x) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!info || !info->set_up || m != info->m || n != info->n)
    return CUSOLVER_STATUS_INVALID_VALUE;
  cusolverStatus_t st = on_device(h, device);
  if (st == CUSOLVER_STATUS_SUCCESS)
    st = factor(h, info, info->type, info->values, 0, info->mu);
  if (st == CUSOLVER_STATUS_SUCCESS && b && x)
    cuemu__sp_solve(&info->factor, info->type, b, x);
  return st;
}

/* csrqrsvBatched: batch systems of one pattern, each its values, b and
 * x one after the other. */
static cusolverStatus_t qr_batched(cusolverSpHandle_t h, cuemu_sp_info *info,
                                   cuemu_solver_type type, int m, int n,
                                   int nnz, const void *values, const void *b,
                                   void *x, int batch) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!info || !info->analysed || m != info->m || n != info->n ||
      nnz != info->nnz || batch < 0 || (batch > 0 && (!values || !b || !x)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  cusolverStatus_t st = on_device(h, 1);
  size_t es = cuemu__solver_size(type);
  for (int i = 0; i < batch && st == CUSOLVER_STATUS_SUCCESS; ++i) {
    st = factor(h, info, type, (const char *)values + (size_t)i * nnz * es, 0,
                0);
    if (st == CUSOLVER_STATUS_SUCCESS)
      cuemu__sp_solve(&info->factor, type, (const char *)b + (size_t)i * m * es,
                      (char *)x + (size_t)i * n * es);
  }
  return st;
}

/* The typed calls: P the letter, T the element type, R the type of tol. */
#define SP_LOWLEVEL(P, T, R, TYPE)                                             \
  E cusolverStatus_t cusolverSp##P##csrcholBufferInfo(                         \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind,                 \
      cuemu_sp_info *info, size_t *internal, size_t *workspace) {              \
    (void)n, (void)nnz, (void)d, (void)values, (void)row_ptr, (void)col_ind;   \
    return buffer_info(h, info, TYPE, internal, workspace);                    \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrcholBufferInfoHost(                     \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind,                 \
      cuemu_sp_info *info, size_t *internal, size_t *workspace) {              \
    (void)n, (void)nnz, (void)d, (void)values, (void)row_ptr, (void)col_ind;   \
    return buffer_info(h, info, TYPE, internal, workspace);                    \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrcholFactor(                             \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind,                 \
      cuemu_sp_info *info, void *buffer) {                                     \
    (void)n, (void)nnz, (void)d, (void)row_ptr, (void)col_ind, (void)buffer;   \
    cusolverStatus_t st =                                                      \
        h ? on_device(h, 1) : CUSOLVER_STATUS_NOT_INITIALIZED;                 \
    return st ? st : factor(h, info, TYPE, values, 1, 0);                      \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrcholFactorHost(                         \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind,                 \
      cuemu_sp_info *info, void *buffer) {                                     \
    (void)n, (void)nnz, (void)d, (void)row_ptr, (void)col_ind, (void)buffer;   \
    return factor(h, info, TYPE, values, 1, 0);                                \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrcholZeroPivot(                          \
      cusolverSpHandle_t h, cuemu_sp_info *info, R tol, int *position) {       \
    return zero_pivot(h, info, tol, position);                                 \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrcholZeroPivotHost(                      \
      cusolverSpHandle_t h, cuemu_sp_info *info, R tol, int *position) {       \
    return zero_pivot(h, info, tol, position);                                 \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrcholSolve(                              \
      cusolverSpHandle_t h, int n, const T *b, T *x, cuemu_sp_info *info,      \
      void *buffer) {                                                          \
    (void)buffer;                                                              \
    return solve(h, 1, info, n, b, x);                                         \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrcholSolveHost(                          \
      cusolverSpHandle_t h, int n, const T *b, T *x, cuemu_sp_info *info,      \
      void *buffer) {                                                          \
    (void)buffer;                                                              \
    return solve(h, 0, info, n, b, x);                                         \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrBufferInfo(                           \
      cusolverSpHandle_t h, int m, int n, int nnz,                             \
      const struct cusparseMatDescr *d, const T *values, const int *row_ptr,   \
      const int *col_ind, cuemu_sp_info *info, size_t *internal,               \
      size_t *workspace) {                                                     \
    (void)m, (void)n, (void)nnz, (void)d, (void)values, (void)row_ptr,         \
        (void)col_ind;                                                         \
    return buffer_info(h, info, TYPE, internal, workspace);                    \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrBufferInfoHost(                       \
      cusolverSpHandle_t h, int m, int n, int nnz,                             \
      const struct cusparseMatDescr *d, const T *values, const int *row_ptr,   \
      const int *col_ind, cuemu_sp_info *info, size_t *internal,               \
      size_t *workspace) {                                                     \
    (void)m, (void)n, (void)nnz, (void)d, (void)values, (void)row_ptr,         \
        (void)col_ind;                                                         \
    return buffer_info(h, info, TYPE, internal, workspace);                    \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrBufferInfoBatched(                    \
      cusolverSpHandle_t h, int m, int n, int nnz,                             \
      const struct cusparseMatDescr *d, const T *values, const int *row_ptr,   \
      const int *col_ind, int batch, cuemu_sp_info *info, size_t *internal,    \
      size_t *workspace) {                                                     \
    (void)m, (void)n, (void)nnz, (void)d, (void)values, (void)row_ptr,         \
        (void)col_ind, (void)batch;                                            \
    return buffer_info(h, info, TYPE, internal, workspace);                    \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrSetup(                                \
      cusolverSpHandle_t h, int m, int n, int nnz,                             \
      const struct cusparseMatDescr *d, const T *values, const int *row_ptr,   \
      const int *col_ind, T mu, cuemu_sp_info *info) {                         \
    (void)d, (void)row_ptr, (void)col_ind;                                     \
    return qr_setup(h, 1, info, TYPE, m, n, nnz, values, mu);                  \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrSetupHost(                            \
      cusolverSpHandle_t h, int m, int n, int nnz,                             \
      const struct cusparseMatDescr *d, const T *values, const int *row_ptr,   \
      const int *col_ind, T mu, cuemu_sp_info *info) {                         \
    (void)d, (void)row_ptr, (void)col_ind;                                     \
    return qr_setup(h, 0, info, TYPE, m, n, nnz, values, mu);                  \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrFactor(                               \
      cusolverSpHandle_t h, int m, int n, int nnz, T *b, T *x,                 \
      cuemu_sp_info *info, void *buffer) {                                     \
    (void)nnz, (void)buffer;                                                   \
    return qr_factor(h, 1, info, m, n, b, x);                                  \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrFactorHost(                           \
      cusolverSpHandle_t h, int m, int n, int nnz, T *b, T *x,                 \
      cuemu_sp_info *info, void *buffer) {                                     \
    (void)nnz, (void)buffer;                                                   \
    return qr_factor(h, 0, info, m, n, b, x);                                  \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrZeroPivot(                            \
      cusolverSpHandle_t h, cuemu_sp_info *info, R tol, int *position) {       \
    return zero_pivot(h, info, tol, position);                                 \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrZeroPivotHost(                        \
      cusolverSpHandle_t h, cuemu_sp_info *info, R tol, int *position) {       \
    return zero_pivot(h, info, tol, position);                                 \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrSolve(                                \
      cusolverSpHandle_t h, int m, int n, T *b, T *x, cuemu_sp_info *info,     \
      void *buffer) {                                                          \
    (void)buffer;                                                              \
    return m == n ? solve(h, 1, info, n, b, x)                                 \
                  : CUSOLVER_STATUS_INVALID_VALUE;                             \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrSolveHost(                            \
      cusolverSpHandle_t h, int m, int n, T *b, T *x, cuemu_sp_info *info,     \
      void *buffer) {                                                          \
    (void)buffer;                                                              \
    return m == n ? solve(h, 0, info, n, b, x)                                 \
                  : CUSOLVER_STATUS_INVALID_VALUE;                             \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrqrsvBatched(                            \
      cusolverSpHandle_t h, int m, int n, int nnz,                             \
      const struct cusparseMatDescr *d, const T *values, const int *row_ptr,   \
      const int *col_ind, const T *b, T *x, int batch, cuemu_sp_info *info,    \
      void *buffer) {                                                          \
    (void)d, (void)row_ptr, (void)col_ind, (void)buffer;                       \
    return qr_batched(h, info, TYPE, m, n, nnz, values, b, x, batch);          \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrluBufferInfoHost(                       \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind,                 \
      cuemu_sp_info *info, size_t *internal, size_t *workspace) {              \
    (void)n, (void)nnz, (void)d, (void)values, (void)row_ptr, (void)col_ind;   \
    return buffer_info(h, info, TYPE, internal, workspace);                    \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrluFactorHost(                           \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind,                 \
      cuemu_sp_info *info, R pivot_threshold, void *buffer) {                  \
    (void)n, (void)nnz, (void)d, (void)row_ptr, (void)col_ind, (void)buffer;   \
    if (pivot_threshold < 0 || pivot_threshold > 1)                            \
      return h ? CUSOLVER_STATUS_INVALID_VALUE                                 \
               : CUSOLVER_STATUS_NOT_INITIALIZED;                              \
    return lu_factor(h, info, TYPE, values);                                   \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrluExtractHost(                          \
      cusolverSpHandle_t h, int *p, int *q, const struct cusparseMatDescr *dl, \
      T *l_vals, int *l_rows, int *l_cols, const struct cusparseMatDescr *du,  \
      T *u_vals, int *u_rows, int *u_cols, cuemu_sp_info *info,                \
      void *buffer) {                                                          \
    (void)buffer;                                                              \
    return lu_extract(h, info, TYPE, p, q, dl, l_vals, l_rows, l_cols, du,     \
                      u_vals, u_rows, u_cols);                                 \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrluZeroPivotHost(                        \
      cusolverSpHandle_t h, cuemu_sp_info *info, R tol, int *position) {       \
    return zero_pivot(h, info, tol, position);                                 \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrluSolveHost(                            \
      cusolverSpHandle_t h, int n, const T *b, T *x, cuemu_sp_info *info,      \
      void *buffer) {                                                          \
    (void)buffer;                                                              \
    return solve(h, 0, info, n, b, x);                                         \
  }

SP_LOWLEVEL(S, float, float, CUEMU_SOLVER_S)
SP_LOWLEVEL(D, double, double, CUEMU_SOLVER_D)
SP_LOWLEVEL(C, float _Complex, float, CUEMU_SOLVER_C)
SP_LOWLEVEL(Z, double _Complex, double, CUEMU_SOLVER_Z)
