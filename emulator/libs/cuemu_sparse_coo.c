/*
 * cuemu_sparse_coo.c: cuSPARSE's index conversions and sorts, which
 * programs use to build a CSR matrix from coordinates: cusparseXcoo2csr,
 * cusparseXcsr2coo, cusparseCreateIdentityPermutation, cusparseXcoosortByRow
 * and ByColumn, cusparseXcsrsort and cusparseXcscsort (with their
 * _bufferSizeExt). 32-bit indices. A sort orders the elements by their
 * first index, then their second, ties in their order (so a row-sorted
 * matrix's columns come out ascending in each row), and permutes P with
 * them: P's element k afterwards is the element of P at the place where
 * the element now at k was. Runs in the handle's stream's order
 * (cuemu_sparse.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cuemu_libs.h"
#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define BAD CUSPARSE_STATUS_INVALID_VALUE

/* What one call does, kept until it runs on the stream. */
typedef struct {
  int m, n, nnz, base;
  const int *ptr;    /* coo2csr: COO rows; csr2coo, csrsort: CSR offsets */
  int *out;          /* coo2csr: CSR offsets; csr2coo: COO rows;
                        identity: the permutation */
  int *first, *second; /* a sort's keys: major, then minor */
  int *perm;         /* a sort's P, or NULL */
} indices;

static void wrote(int *p, size_t count) {
  cuemu_rt_library_wrote(p, count * sizeof(int));
}

static void run_coo2csr(cuemu_sparse_op *op) {
  indices *x = op->extra;
  for (int i = 0; i <= x->m; ++i)
    x->out[i] = 0;
  for (int k = 0; k < x->nnz; ++k) {
    int row = x->ptr[k] - x->base;
    if (row >= 0 && row < x->m)
      ++x->out[row + 1];
  }
  x->out[0] = x->base;
  for (int i = 0; i < x->m; ++i)
    x->out[i + 1] += x->out[i];
  wrote(x->out, (size_t)x->m + 1);
}

static void run_csr2coo(cuemu_sparse_op *op) {
  indices *x = op->extra;
  for (int i = 0; i < x->m; ++i)
    for (int k = x->ptr[i] - x->base; k < x->ptr[i + 1] - x->base; ++k)
      if (k >= 0 && k < x->nnz)
        x->out[k] = i + x->base;
  wrote(x->out, (size_t)x->nnz);
}

static void run_identity(cuemu_sparse_op *op) {
  indices *x = op->extra;
  for (int k = 0; k < x->n; ++k)
    x->out[k] = k;
  wrote(x->out, (size_t)x->n);
}

/* One element of a sort: its keys, its place before the sort and its P. */
typedef struct {
  int first, second, at, perm;
} element;

static int by_keys(const void *a, const void *b) {
  const element *x = a, *y = b;
  if (x->first != y->first)
    return x->first < y->first ? -1 : 1;
  if (x->second != y->second)
    return x->second < y->second ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* Sorts elements [from, to) by (first, second); first is NULL in a
 * segment of a CSR or CSC matrix (one row or column: its key is the
 * same). */
static void sort_range(indices *x, int from, int to) {
  if (to - from < 1)
    return;
  element *e = malloc((size_t)(to - from) * sizeof *e);
  if (!e)
    return;
  for (int k = from; k < to; ++k)
    e[k - from] = (element){x->first ? x->first[k] : 0, x->second[k], k,
                            x->perm ? x->perm[k] : 0};
  qsort(e, (size_t)(to - from), sizeof *e, by_keys);
  for (int k = from; k < to; ++k) {
    if (x->first)
      x->first[k] = e[k - from].first;
    x->second[k] = e[k - from].second;
    if (x->perm)
      x->perm[k] = e[k - from].perm;
  }
  free(e);
}

static void run_coosort(cuemu_sparse_op *op) {
  indices *x = op->extra;
  sort_range(x, 0, x->nnz);
  wrote(x->first, (size_t)x->nnz);
  wrote(x->second, (size_t)x->nnz);
  if (x->perm)
    wrote(x->perm, (size_t)x->nnz);
}

/* csrsort and cscsort: each row's (column's) indices, between the offsets
 * of x->ptr. */
static void run_segment_sort(cuemu_sparse_op *op) {
  indices *x = op->extra;
  for (int i = 0; i < x->m; ++i) {
    int from = x->ptr[i] - x->base, to = x->ptr[i + 1] - x->base;
    if (from >= 0 && to <= x->nnz)
      sort_range(x, from, to);
  }
  wrote(x->second, (size_t)x->nnz);
  if (x->perm)
    wrote(x->perm, (size_t)x->nnz);
}

/* Queues run with a copy of *x on the handle's stream. */
static cusparseStatus_t submit(cusparseHandle_t h, const char *name,
                               void (*run)(cuemu_sparse_op *),
                               const indices *x) {
  return cuemu__sparse_submit_copy(h, name, run, x, sizeof *x);
}

static int bad_base(int base) {
  return base != CUSPARSE_INDEX_BASE_ZERO && base != CUSPARSE_INDEX_BASE_ONE;
}

/* Whether the `count` ints at p are device memory (else the context has
 * the sticky error of a kernel's fault: cuemu__libs_device_range). */
static int device_ints(const char *name, const char *arg, const void *p,
                       int count) {
  return cuemu__libs_device_range(name, arg, p, (size_t)count * sizeof(int));
}

E cusparseStatus_t cusparseXcoo2csr(cusparseHandle_t h, const int *coo_rows,
                                    int nnz, int m, int *csr_offsets,
                                    int base) {
  static const char name[] = "cusparseXcoo2csr";
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || nnz < 0 || bad_base(base) || !csr_offsets ||
      (nnz > 0 && !coo_rows))
    return BAD;
  if (!device_ints(name, "cooRowInd", coo_rows, nnz) ||
      !device_ints(name, "csrSortedRowPtr", csr_offsets, m + 1))
    return CUSPARSE_STATUS_SUCCESS;
  indices x = {.m = m, .nnz = nnz, .base = base, .ptr = coo_rows,
               .out = csr_offsets};
  return submit(h, name, run_coo2csr, &x);
}

E cusparseStatus_t cusparseXcsr2coo(cusparseHandle_t h, const int *csr_offsets,
                                    int nnz, int m, int *coo_rows, int base) {
  static const char name[] = "cusparseXcsr2coo";
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || nnz < 0 || bad_base(base) || !csr_offsets ||
      (nnz > 0 && !coo_rows))
    return BAD;
  if (!device_ints(name, "csrSortedRowPtr", csr_offsets, m + 1) ||
      !device_ints(name, "cooRowInd", coo_rows, nnz))
    return CUSPARSE_STATUS_SUCCESS;
  indices x = {.m = m, .nnz = nnz, .base = base, .ptr = csr_offsets,
               .out = coo_rows};
  return submit(h, name, run_csr2coo, &x);
}

E cusparseStatus_t cusparseCreateIdentityPermutation(cusparseHandle_t h, int n,
                                                     int *p) {
  static const char name[] = "cusparseCreateIdentityPermutation";
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (n < 0 || (n > 0 && !p))
    return BAD;
  if (!device_ints(name, "p", p, n))
    return CUSPARSE_STATUS_SUCCESS;
  indices x = {.n = n, .out = p};
  return submit(h, name, run_identity, &x);
}

/* The checks of every sort and its buffer size: sizes, and the two index
 * arrays (present where there are elements). */
static cusparseStatus_t sort_check(cusparseHandle_t h, int m, int n, int nnz,
                                   const void *a, const void *b) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || nnz < 0 || !a || (nnz > 0 && !b))
    return BAD;
  return CUSPARSE_STATUS_SUCCESS;
}

static cusparseStatus_t buffer_size(cusparseHandle_t h, int m, int n, int nnz,
                                    const int *a, const int *b, size_t *size) {
  cusparseStatus_t s = sort_check(h, m, n, nnz, a, b);
  if (s == CUSPARSE_STATUS_SUCCESS && !size)
    return BAD;
  if (s == CUSPARSE_STATUS_SUCCESS)
    *size = 0; /* cuemu sorts in host memory of its own */
  return s;
}

E cusparseStatus_t cusparseXcoosort_bufferSizeExt(cusparseHandle_t h, int m,
                                                  int n, int nnz,
                                                  const int *rows,
                                                  const int *cols,
                                                  size_t *size) {
  return buffer_size(h, m, n, nnz, rows, cols, size);
}

E cusparseStatus_t cusparseXcsrsort_bufferSizeExt(cusparseHandle_t h, int m,
                                                  int n, int nnz,
                                                  const int *offsets,
                                                  const int *cols,
                                                  size_t *size) {
  return buffer_size(h, m, n, nnz, offsets, cols, size);
}

E cusparseStatus_t cusparseXcscsort_bufferSizeExt(cusparseHandle_t h, int m,
                                                  int n, int nnz,
                                                  const int *offsets,
                                                  const int *rows,
                                                  size_t *size) {
  return buffer_size(h, m, n, nnz, offsets, rows, size);
}

/* coosort: by (major, minor) over all the elements. */
static cusparseStatus_t coosort(cusparseHandle_t h, const char *name, int m,
                                int n, int nnz, int *major, int *minor,
                                int *perm, const char *major_name,
                                const char *minor_name) {
  cusparseStatus_t s = sort_check(h, m, n, nnz, major, minor);
  if (s != CUSPARSE_STATUS_SUCCESS)
    return s;
  if (!device_ints(name, major_name, major, nnz) ||
      !device_ints(name, minor_name, minor, nnz) ||
      (perm && !device_ints(name, "P", perm, nnz)))
    return CUSPARSE_STATUS_SUCCESS;
  indices x = {.m = m, .n = n, .nnz = nnz, .first = major, .second = minor,
               .perm = perm};
  return submit(h, name, run_coosort, &x);
}

E cusparseStatus_t cusparseXcoosortByRow(cusparseHandle_t h, int m, int n,
                                         int nnz, int *rows, int *cols, int *p,
                                         void *buffer) {
  (void)buffer;
  return coosort(h, "cusparseXcoosortByRow", m, n, nnz, rows, cols, p,
                 "cooRowsA", "cooColsA");
}

E cusparseStatus_t cusparseXcoosortByColumn(cusparseHandle_t h, int m, int n,
                                            int nnz, int *rows, int *cols,
                                            int *p, void *buffer) {
  (void)buffer;
  return coosort(h, "cusparseXcoosortByColumn", m, n, nnz, cols, rows, p,
                 "cooColsA", "cooRowsA");
}

/* csrsort and cscsort: the `segments` rows (columns) between `offsets`,
 * each sorted by its minor indices. */
static cusparseStatus_t segment_sort(cusparseHandle_t h, const char *name,
                                     int m, int n, int nnz, int segments,
                                     const struct cusparseMatDescr *descr,
                                     const int *offsets, int *minor, int *perm,
                                     const char *offsets_name,
                                     const char *minor_name) {
  cusparseStatus_t s = sort_check(h, m, n, nnz, offsets, minor);
  if (s != CUSPARSE_STATUS_SUCCESS)
    return s;
  if (!descr || bad_base(descr->base))
    return BAD;
  if (!device_ints(name, offsets_name, offsets, segments + 1) ||
      !device_ints(name, minor_name, minor, nnz) ||
      (perm && !device_ints(name, "P", perm, nnz)))
    return CUSPARSE_STATUS_SUCCESS;
  indices x = {.m = segments, .nnz = nnz, .base = descr->base,
               .ptr = offsets, .second = minor, .perm = perm};
  return submit(h, name, run_segment_sort, &x);
}

E cusparseStatus_t cusparseXcsrsort(cusparseHandle_t h, int m, int n, int nnz,
                                    const struct cusparseMatDescr *descr,
                                    const int *offsets, int *cols, int *p,
                                    void *buffer) {
  (void)buffer;
  return segment_sort(h, "cusparseXcsrsort", m, n, nnz, m, descr, offsets,
                      cols, p, "csrRowPtrA", "csrColIndA");
}

E cusparseStatus_t cusparseXcscsort(cusparseHandle_t h, int m, int n, int nnz,
                                    const struct cusparseMatDescr *descr,
                                    const int *offsets, int *rows, int *p,
                                    void *buffer) {
  (void)buffer;
  return segment_sort(h, "cusparseXcscsort", m, n, nnz, n, descr, offsets,
                      rows, p, "cscColPtrA", "cscRowIndA");
}
