/*
 * cuemu_solver_sparse.c: cuSOLVER's sparse API (cusolverSp.h): the handle,
 * the orderings (symrcm, symamd, symmdq, metisnd: each gives the reverse
 * Cuthill-McKee ordering, a valid permutation that keeps the band narrow;
 * the solvers do not depend on it), csrperm, csrissym, and the high-level
 * solvers csrlsvqr, csrlsvchol (on the device and on the host) and
 * csrlsvlu (on the host) for S, D, C and Z, on the direct solver of
 * cuemu_solver_sparse_band.c. The low-level API is
 * cuemu_solver_sparse_info.c.
 *
 * A device call synchronises the handle's stream first (its matrices may
 * be the results of earlier work) and returns with its results written:
 * its singularity is host memory, so it blocks, as cuSOLVER's does.
 */
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_solver_sparse.h"

#define E CUEMU_SOLVER_EXPORT

E cusolverStatus_t cusolverSpCreate(cusolverSpHandle_t *handle) {
  if (!handle)
    return CUSOLVER_STATUS_INVALID_VALUE;
  int device;
  if (cuemu_rt_get_device(&device) != 0)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  cusolverSpHandle_t h = calloc(1, sizeof *h);
  if (!h)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  h->device = device;
  *handle = h;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverSpDestroy(cusolverSpHandle_t h) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  cuemu_rt_stream_synchronize(h->stream);
  free(h);
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverSpSetStream(cusolverSpHandle_t h, void *stream) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  h->stream = stream;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverSpGetStream(cusolverSpHandle_t h, void **stream) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!stream)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *stream = h->stream;
  return CUSOLVER_STATUS_SUCCESS;
}

/* ---- Orderings and permutations --------------------------------------------
 */

/* The ordering of the n x n pattern, as `p` (n ints). */
static cusolverStatus_t ordering(cusolverSpHandle_t h, int n, int nnz,
                                 const struct cusparseMatDescr *d,
                                 const int *row_ptr, const int *col_ind,
                                 int *p) {
  cuemu_sp_csr a;
  cusolverStatus_t st = cuemu__sp_csr(h, n, n, nnz, d, NULL, row_ptr, col_ind,
                                      CUEMU_SOLVER_D, &a);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  if (n > 0 && !p)
    return CUSOLVER_STATUS_INVALID_VALUE;
  int64_t *q = malloc(((size_t)n + 1) * sizeof *q);
  if (!q || !cuemu__sp_rcm(&a, q)) {
    free(q);
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  for (int i = 0; i < n; ++i)
    p[i] = (int)q[i];
  free(q);
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverSpXcsrsymrcmHost(cusolverSpHandle_t h, int n,
                                            int nnz,
                                            const struct cusparseMatDescr *d,
                                            const int *row_ptr,
                                            const int *col_ind, int *p) {
  return ordering(h, n, nnz, d, row_ptr, col_ind, p);
}

E cusolverStatus_t cusolverSpXcsrsymamdHost(cusolverSpHandle_t h, int n,
                                            int nnz,
                                            const struct cusparseMatDescr *d,
                                            const int *row_ptr,
                                            const int *col_ind, int *p) {
  return ordering(h, n, nnz, d, row_ptr, col_ind, p);
}

E cusolverStatus_t cusolverSpXcsrsymmdqHost(cusolverSpHandle_t h, int n,
                                            int nnz,
                                            const struct cusparseMatDescr *d,
                                            const int *row_ptr,
                                            const int *col_ind, int *p) {
  return ordering(h, n, nnz, d, row_ptr, col_ind, p);
}

E cusolverStatus_t cusolverSpXcsrmetisndHost(
    cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,
    const int *row_ptr, const int *col_ind, const int64_t *options, int *p) {
  (void)options;
  return ordering(h, n, nnz, d, row_ptr, col_ind, p);
}

/* Whether the pattern is symmetric (csrEndPtrA: each row's end, which may
 * come before the next row's start). */
E cusolverStatus_t cusolverSpXcsrissymHost(cusolverSpHandle_t h, int m, int nnz,
                                           const struct cusparseMatDescr *d,
                                           const int *row_ptr,
                                           const int *end_ptr,
                                           const int *col_ind, int *issym) {
  cuemu_sp_csr a;
  cusolverStatus_t st = cuemu__sp_csr(h, m, m, nnz, d, NULL, row_ptr, col_ind,
                                      CUEMU_SOLVER_D, &a);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  if (!issym || (m > 0 && !end_ptr))
    return CUSOLVER_STATUS_INVALID_VALUE;
  int sym = 1, base = a.base;
  for (int i = 0; i < m && sym; ++i)
    for (int k = row_ptr[i] - base; k < end_ptr[i] - base && sym; ++k) {
      int j = col_ind[k] - base, found = 0;
      for (int q = row_ptr[j] - base; j >= 0 && j < m && q < end_ptr[j] - base;
           ++q)
        found |= col_ind[q] - base == i;
      sym = found;
    }
  *issym = sym;
  return CUSOLVER_STATUS_SUCCESS;
}

/* csrperm: B = P A Q^T in place on the pattern (rows p, columns q), with
 * map the new position of each value's old one, as cuSOLVER's: the
 * program's values follow with map (csrValB[k] = csrValA[map[k]]). */
E cusolverStatus_t cusolverSpXcsrperm_bufferSizeHost(
    cusolverSpHandle_t h, int m, int n, int nnz,
    const struct cusparseMatDescr *d, const int *row_ptr, const int *col_ind,
    const int *p, const int *q, size_t *size) {
  cuemu_sp_csr a;
  cusolverStatus_t st = cuemu__sp_csr(h, m, n, nnz, d, NULL, row_ptr, col_ind,
                                      CUEMU_SOLVER_D, &a);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  if (!size || (m > 0 && !p) || (n > 0 && !q))
    return CUSOLVER_STATUS_INVALID_VALUE;
  *size = ((size_t)m + 1 + (size_t)nnz * 2 + (size_t)n) * sizeof(int) + 1;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverSpXcsrpermHost(cusolverSpHandle_t h, int m, int n,
                                          int nnz,
                                          const struct cusparseMatDescr *d,
                                          int *row_ptr, int *col_ind,
                                          const int *p, const int *q, int *map,
                                          void *buffer) {
  (void)buffer;
  cuemu_sp_csr a;
  cusolverStatus_t st = cuemu__sp_csr(h, m, n, nnz, d, NULL, row_ptr, col_ind,
                                      CUEMU_SOLVER_D, &a);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  if ((m > 0 && !p) || (n > 0 && !q) || (nnz > 0 && !map))
    return CUSOLVER_STATUS_INVALID_VALUE;
  int base = a.base;
  int *rows = malloc(((size_t)m + 1) * sizeof *rows);
  int *cols = malloc(((size_t)nnz + 1) * sizeof *cols);
  int *from = malloc(((size_t)nnz + 1) * sizeof *from);
  int *qinv = malloc(((size_t)n + 1) * sizeof *qinv);
  if (!rows || !cols || !from || !qinv) {
    free(rows), free(cols), free(from), free(qinv);
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  for (int j = 0; j < n; ++j)
    qinv[q[j]] = j;
  /* Row i of B is row p[i] of A, its columns renumbered by q^-1 and
   * sorted; map follows the values (map's entries on entry: the values'
   * positions, usually the identity). */
  int k = 0;
  for (int i = 0; i < m; ++i) {
    rows[i] = k + base;
    int start = k;
    for (int s = row_ptr[p[i]] - base; s < row_ptr[p[i] + 1] - base; ++s) {
      int c = qinv[col_ind[s] - base], at = k++;
      while (at > start && cols[at - 1] > c) {
        cols[at] = cols[at - 1], from[at] = from[at - 1];
        --at;
      }
      cols[at] = c, from[at] = s;
    }
  }
  rows[m] = k + base;
  int *old_map = malloc(((size_t)nnz + 1) * sizeof *old_map);
  if (!old_map) {
    free(rows), free(cols), free(from), free(qinv);
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  memcpy(old_map, map, (size_t)nnz * sizeof *map);
  for (int s = 0; s < k; ++s)
    col_ind[s] = cols[s] + base, map[s] = old_map[from[s]];
  memcpy(row_ptr, rows, ((size_t)m + 1) * sizeof *rows);
  free(rows), free(cols), free(from), free(qinv), free(old_map);
  return CUSOLVER_STATUS_SUCCESS;
}

/* ---- The high-level solvers ------------------------------------------------
 */

/* Whether the arrays of a device call are device memory (a host array
 * faults, as a GPU's kernel would): the matrix's and b's n values and x. */
static int device_arrays(const char *name, const cuemu_sp_csr *a, const void *b,
                         const void *x) {
  size_t es = cuemu__solver_size(a->type);
  return cuemu__libs_device_range(name, "csrRowPtrA", a->row_ptr,
                                  ((size_t)a->m + 1) * sizeof(int)) &&
         cuemu__libs_device_range(name, "csrColIndA", a->col_ind,
                                  (size_t)a->nnz * sizeof(int)) &&
         cuemu__libs_device_range(name, "csrValA", a->values,
                                  (size_t)a->nnz * es) &&
         cuemu__libs_device_range(name, "b", b, (size_t)a->m * es) &&
         cuemu__libs_device_range(name, "x", x, (size_t)a->n * es);
}

/* csrlsvqr, csrlsvchol and csrlsvlu: x = A^-1 b; *singularity -1, or the
 * first index whose pivot is at most tol (Cholesky: not positive). */
static cusolverStatus_t lsv(cusolverSpHandle_t h, const char *name,
                            cuemu_solver_type type, int device, int cholesky,
                            int n, int nnz, const struct cusparseMatDescr *d,
                            const void *values, const int *row_ptr,
                            const int *col_ind, const void *b, double tol,
                            int reorder, void *x, int *singularity) {
  cuemu_sp_csr a;
  cusolverStatus_t st =
      cuemu__sp_csr(h, n, n, nnz, d, values, row_ptr, col_ind, type, &a);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  if (reorder < 0 || reorder > 3 || tol < 0 || !singularity ||
      (n > 0 && (!b || !x || !values)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  if (device) {
    if (cuemu_rt_stream_synchronize(h->stream) != 0)
      return CUSOLVER_STATUS_EXECUTION_FAILED;
    if (!device_arrays(name, &a, b, x))
      return CUSOLVER_STATUS_EXECUTION_FAILED;
  }
  cuemu_sp_factor f;
  st = cuemu__sp_factor(&a, cholesky, 0, &f);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  *singularity = cuemu__sp_zero_pivot(&f, tol);
  if (*singularity < 0)
    cuemu__sp_solve(&f, type, b, x);
  cuemu__sp_factor_free(&f);
  return CUSOLVER_STATUS_SUCCESS;
}

/* P: the letter, T the element type, R the type of tol. */
#define SP_LSV(P, T, R, TYPE)                                                  \
  E cusolverStatus_t cusolverSp##P##csrlsvqr(                                  \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind, const T *b,     \
      R tol, int reorder, T *x, int *singularity) {                            \
    return lsv(h, "cusolverSp" #P "csrlsvqr", TYPE, 1, 0, n, nnz, d, values,   \
               row_ptr, col_ind, b, tol, reorder, x, singularity);             \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrlsvqrHost(                              \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind, const T *b,     \
      R tol, int reorder, T *x, int *singularity) {                            \
    return lsv(h, "cusolverSp" #P "csrlsvqrHost", TYPE, 0, 0, n, nnz, d,       \
               values, row_ptr, col_ind, b, tol, reorder, x, singularity);     \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrlsvchol(                                \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind, const T *b,     \
      R tol, int reorder, T *x, int *singularity) {                            \
    return lsv(h, "cusolverSp" #P "csrlsvchol", TYPE, 1, 1, n, nnz, d, values, \
               row_ptr, col_ind, b, tol, reorder, x, singularity);             \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrlsvcholHost(                            \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind, const T *b,     \
      R tol, int reorder, T *x, int *singularity) {                            \
    return lsv(h, "cusolverSp" #P "csrlsvcholHost", TYPE, 0, 1, n, nnz, d,     \
               values, row_ptr, col_ind, b, tol, reorder, x, singularity);     \
  }                                                                            \
  E cusolverStatus_t cusolverSp##P##csrlsvluHost(                              \
      cusolverSpHandle_t h, int n, int nnz, const struct cusparseMatDescr *d,  \
      const T *values, const int *row_ptr, const int *col_ind, const T *b,     \
      R tol, int reorder, T *x, int *singularity) {                            \
    return lsv(h, "cusolverSp" #P "csrlsvluHost", TYPE, 0, 0, n, nnz, d,       \
               values, row_ptr, col_ind, b, tol, reorder, x, singularity);     \
  }

SP_LSV(S, float, float, CUEMU_SOLVER_S)
SP_LSV(D, double, double, CUEMU_SOLVER_D)
SP_LSV(C, float _Complex, float, CUEMU_SOLVER_C)
SP_LSV(Z, double _Complex, double, CUEMU_SOLVER_Z)
