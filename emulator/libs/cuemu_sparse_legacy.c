/*
 * cuemu_sparse_legacy.c: legacy calls of cuSPARSE that CUDA 13's cusparse.h
 * still declares and programs written for older toolkits call: the sum of
 * two CSR matrices (cusparseXcsrgeam2Nnz, cusparse?csrgeam2 and its
 * _bufferSizeExt), the count of non-zeros of a dense matrix per row or
 * column (cusparse?nnz), and a dense matrix times a sparse vector
 * (cusparse?gemvi and its _bufferSize), and the dropping of small values
 * (cusparse?nnz_compress, then cusparse?csr2csr_compress), for float,
 * double and their complex forms. CSR with 32-bit indices sorted within each row, as cuSPARSE
 * requires; computed in double in the handle's stream's order
 * (cuemu_sparse.h). A count that goes to a host pointer
 * (CUSPARSE_POINTER_MODE_HOST) is there when the call returns: the call
 * waits for its stream, as cuSPARSE's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_libs.h"
#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define OK CUSPARSE_STATUS_SUCCESS
#define BAD CUSPARSE_STATUS_INVALID_VALUE

/* cusparseDirection_t */
enum { DIRECTION_ROW = 0, DIRECTION_COLUMN = 1 };

/* The buffers of these calls: 128 bytes (unused), so that a program's
 * allocation is not empty. */
#define BUFFER_BYTES 128

/* A buffer size call's answer, after its checks gave s: BUFFER_BYTES in
 * *bytes (size_t) or *count (int), whichever is given; a NULL one is
 * INVALID_VALUE. */
static cusparseStatus_t buffer_size(cusparseStatus_t s, size_t *bytes,
                                    int *count) {
  if (s == CUSPARSE_STATUS_SUCCESS && !bytes && !count)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (s == CUSPARSE_STATUS_SUCCESS && bytes)
    *bytes = BUFFER_BYTES;
  if (s == CUSPARSE_STATUS_SUCCESS && count)
    *count = BUFFER_BYTES;
  return s;
}

/* One CSR matrix of a call (32-bit indices, its descriptor's base). */
typedef struct {
  int nnz, base;
  const void *values;
  const int *offsets, *columns;
} csr;

/* What one call does, kept until it runs on the stream. */
typedef struct {
  int type, m, n, lda;
  csr a, b;            /* geam: the two terms; C's base in c_base */
  int c_base;
  void *c_values;      /* geam: C's values (NULL: the count only) */
  int *c_offsets, *c_columns;
  const void *dense;   /* nnz: A; gemvi: A */
  int direction;       /* nnz: per row or per column */
  int *counts;         /* nnz: per row or column; geam: C's offsets */
  int *total;          /* nnz, geam's count: the total, or NULL */
  int op;              /* gemvi: op(A) */
  const void *x_values; /* gemvi: the sparse vector */
  const int *x_index;
  int x_nnz, x_base;
  void *y;
} legacy;

static int bad_base(int base) {
  return base != CUSPARSE_INDEX_BASE_ZERO && base != CUSPARSE_INDEX_BASE_ONE;
}

static int device(const char *name, const char *arg, const void *p,
                  size_t bytes) {
  return cuemu__libs_device_range(name, arg, p, bytes);
}

static void write_total(const legacy *l, int total) {
  if (!l->total)
    return;
  *l->total = total;
  cuemu_rt_library_wrote(l->total, sizeof(int));
}

static cusparseStatus_t submit(cusparseHandle_t h, const char *name,
                               void (*run)(cuemu_sparse_op *),
                               const legacy *l, const void *alpha,
                               const void *beta) {
  return cuemu__sparse_submit_scalars(h, name, run, l, sizeof *l, alpha, beta,
                                      l->type, l->total);
}

/* ---- csrgeam2: C = alpha A + beta B ---------------------------------------
 */

/* The columns of row i of both terms, merged (each sorted): calls emit for
 * each column of C, with the element of A and of B there (-1: none). */
static int merge_row(const legacy *l, int i,
                     void (*emit)(const legacy *l, int at, int column,
                                  int64_t ka, int64_t kb, void *data),
                     int at, void *data) {
  int64_t ka = l->a.offsets[i] - l->a.base, a_end = l->a.offsets[i + 1] - l->a.base;
  int64_t kb = l->b.offsets[i] - l->b.base, b_end = l->b.offsets[i + 1] - l->b.base;
  while (ka < a_end || kb < b_end) {
    int ca = ka < a_end ? l->a.columns[ka] - l->a.base : l->n;
    int cb = kb < b_end ? l->b.columns[kb] - l->b.base : l->n;
    int column = ca < cb ? ca : cb;
    if (emit)
      emit(l, at, column, ca == column ? ka : -1, cb == column ? kb : -1,
           data);
    ka += ca == column;
    kb += cb == column;
    ++at;
  }
  return at;
}

static void run_geam_nnz(cuemu_sparse_op *op) {
  legacy *l = op->extra;
  int at = 0;
  l->counts[0] = l->c_base;
  for (int i = 0; i < l->m; ++i) {
    at = merge_row(l, i, NULL, at, NULL);
    l->counts[i + 1] = at + l->c_base;
  }
  cuemu_rt_library_wrote(l->counts, (size_t)(l->m + 1) * sizeof(int));
  write_total(l, at);
}

static void geam_element(const legacy *l, int at, int column, int64_t ka,
                         int64_t kb, void *data) {
  const cuemu_sparse_op *op = data;
  cuemu_sparse_value alpha = cuemu__sparse_load(op->scalar[0], l->type, 0);
  cuemu_sparse_value beta = cuemu__sparse_load(op->scalar[1], l->type, 0);
  cuemu_sparse_value sum = {0, 0};
  if (ka >= 0)
    sum = cuemu__sparse_mul(alpha, cuemu__sparse_load(l->a.values, l->type, ka));
  if (kb >= 0)
    sum = cuemu__sparse_add(
        sum, cuemu__sparse_mul(beta, cuemu__sparse_load(l->b.values, l->type, kb)));
  l->c_columns[at] = column + l->c_base;
  cuemu__sparse_store(l->c_values, l->type, at, sum);
}

static void run_geam(cuemu_sparse_op *op) {
  legacy *l = op->extra;
  for (int i = 0; i < l->m; ++i)
    merge_row(l, i, geam_element, l->c_offsets[i] - l->c_base, op);
  size_t count = (size_t)(l->c_offsets[l->m] - l->c_offsets[0]);
  cuemu_rt_library_wrote(l->c_columns, count * sizeof(int));
  cuemu_rt_library_wrote(l->c_values, count * cuemu__sparse_value_size(l->type));
}

/* The checks of the three calls: sizes, descriptors (general matrices
 * only, as cuSPARSE's), and the terms' arrays as device memory (0 when
 * one is not: the fault is recorded, and the call does nothing). */
static cusparseStatus_t geam_check(cusparseHandle_t h, const char *name,
                                   legacy *l,
                                   const struct cusparseMatDescr *da,
                                   const struct cusparseMatDescr *db,
                                   const struct cusparseMatDescr *dc,
                                   int *in_device) {
  *in_device = 0;
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (l->m < 0 || l->n < 0 || l->a.nnz < 0 || l->b.nnz < 0 || !da || !db ||
      !dc || bad_base(da->base) || bad_base(db->base) || bad_base(dc->base) ||
      !l->a.offsets || !l->b.offsets ||
      (l->a.nnz > 0 && !l->a.columns) || (l->b.nnz > 0 && !l->b.columns))
    return BAD;
  if (da->type != CUSPARSE_MATRIX_TYPE_GENERAL ||
      db->type != CUSPARSE_MATRIX_TYPE_GENERAL ||
      dc->type != CUSPARSE_MATRIX_TYPE_GENERAL)
    return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  l->a.base = da->base;
  l->b.base = db->base;
  l->c_base = dc->base;
  if (!name) {
    *in_device = 1;
    return OK;
  }
  size_t rows = (size_t)(l->m + 1) * sizeof(int);
  *in_device =
      device(name, "csrSortedRowPtrA", l->a.offsets, rows) &&
      device(name, "csrSortedColIndA", l->a.columns,
             (size_t)l->a.nnz * sizeof(int)) &&
      device(name, "csrSortedRowPtrB", l->b.offsets, rows) &&
      device(name, "csrSortedColIndB", l->b.columns,
             (size_t)l->b.nnz * sizeof(int)) &&
      device(name, "csrSortedRowPtrC", l->counts ? (void *)l->counts
                                                 : (void *)l->c_offsets,
             rows);
  return OK;
}

E cusparseStatus_t cusparseXcsrgeam2Nnz(
    cusparseHandle_t h, int m, int n, const struct cusparseMatDescr *da,
    int nnz_a, const int *offsets_a, const int *columns_a,
    const struct cusparseMatDescr *db, int nnz_b, const int *offsets_b,
    const int *columns_b, const struct cusparseMatDescr *dc, int *offsets_c,
    int *total, void *workspace) {
  static const char name[] = "cusparseXcsrgeam2Nnz";
  (void)workspace;
  legacy l = {.m = m, .n = n,
              .a = {nnz_a, 0, NULL, offsets_a, columns_a},
              .b = {nnz_b, 0, NULL, offsets_b, columns_b},
              .counts = offsets_c, .total = total};
  int in_device;
  cusparseStatus_t s = geam_check(h, name, &l, da, db, dc, &in_device);
  if (s == OK && !offsets_c)
    return BAD;
  if (s != OK || !in_device)
    return s;
  return submit(h, name, run_geam_nnz, &l, NULL, NULL);
}

/* P the prefix, T the element type (void for the complex ones), TYPE its
 * cudaDataType. */
#define GEAM_API(P, T, TYPE)                                                   \
  E cusparseStatus_t cusparse##P##csrgeam2_bufferSizeExt(                      \
      cusparseHandle_t h, int m, int n, const T *alpha,                        \
      const struct cusparseMatDescr *da, int nnz_a, const T *values_a,         \
      const int *offsets_a, const int *columns_a, const T *beta,               \
      const struct cusparseMatDescr *db, int nnz_b, const T *values_b,         \
      const int *offsets_b, const int *columns_b,                              \
      const struct cusparseMatDescr *dc, const T *values_c,                    \
      const int *offsets_c, const int *columns_c, size_t *size) {              \
    (void)alpha, (void)values_a, (void)beta, (void)values_b, (void)values_c,   \
        (void)offsets_c, (void)columns_c;                                      \
    legacy l = {.type = TYPE, .m = m, .n = n,                                  \
                .a = {nnz_a, 0, NULL, offsets_a, columns_a},                   \
                .b = {nnz_b, 0, NULL, offsets_b, columns_b}};                  \
    int in_device;                                                             \
    return buffer_size(geam_check(h, NULL, &l, da, db, dc, &in_device), size,  \
                       NULL);                                                  \
  }                                                                            \
  E cusparseStatus_t cusparse##P##csrgeam2(                                    \
      cusparseHandle_t h, int m, int n, const T *alpha,                        \
      const struct cusparseMatDescr *da, int nnz_a, const T *values_a,         \
      const int *offsets_a, const int *columns_a, const T *beta,               \
      const struct cusparseMatDescr *db, int nnz_b, const T *values_b,         \
      const int *offsets_b, const int *columns_b,                              \
      const struct cusparseMatDescr *dc, T *values_c, int *offsets_c,          \
      int *columns_c, void *buffer) {                                          \
    (void)buffer;                                                              \
    return geam(h, TYPE, m, n, alpha, da, nnz_a, values_a, offsets_a,          \
                columns_a, beta, db, nnz_b, values_b, offsets_b, columns_b,    \
                dc, values_c, offsets_c, columns_c);                           \
  }

static cusparseStatus_t
geam(cusparseHandle_t h, int type, int m, int n, const void *alpha,
     const struct cusparseMatDescr *da, int nnz_a, const void *values_a,
     const int *offsets_a, const int *columns_a, const void *beta,
     const struct cusparseMatDescr *db, int nnz_b, const void *values_b,
     const int *offsets_b, const int *columns_b,
     const struct cusparseMatDescr *dc, void *values_c, int *offsets_c,
     int *columns_c) {
  static const char name[] = "cusparse?csrgeam2";
  legacy l = {.type = type, .m = m, .n = n,
              .a = {nnz_a, 0, values_a, offsets_a, columns_a},
              .b = {nnz_b, 0, values_b, offsets_b, columns_b},
              .c_values = values_c, .c_offsets = offsets_c,
              .c_columns = columns_c};
  int in_device;
  cusparseStatus_t s = geam_check(h, name, &l, da, db, dc, &in_device);
  if (s == OK && (!alpha || !beta || !offsets_c ||
                  (nnz_a > 0 && !values_a) || (nnz_b > 0 && !values_b)))
    return BAD;
  if (s != OK || !in_device)
    return s;
  size_t e = cuemu__sparse_value_size(type);
  if (!device(name, "csrSortedValA", values_a, (size_t)nnz_a * e) ||
      !device(name, "csrSortedValB", values_b, (size_t)nnz_b * e))
    return OK;
  return submit(h, name, run_geam, &l, alpha, beta);
}

GEAM_API(S, float, CUEMU_R_32F)
GEAM_API(D, double, CUEMU_R_64F)
GEAM_API(C, void, CUEMU_C_32F)
GEAM_API(Z, void, CUEMU_C_64F)

/* ---- nnz: the non-zeros of a dense matrix --------------------------------
 */

static void run_nnz(cuemu_sparse_op *op) {
  legacy *l = op->extra;
  int lines = l->direction == DIRECTION_ROW ? l->m : l->n, total = 0;
  for (int k = 0; k < lines; ++k)
    l->counts[k] = 0;
  for (int j = 0; j < l->n; ++j)
    for (int i = 0; i < l->m; ++i) {
      cuemu_sparse_value v =
          cuemu__sparse_load(l->dense, l->type, (int64_t)j * l->lda + i);
      if (v.re != 0 || v.im != 0) {
        ++l->counts[l->direction == DIRECTION_ROW ? i : j];
        ++total;
      }
    }
  cuemu_rt_library_wrote(l->counts, (size_t)lines * sizeof(int));
  write_total(l, total);
}

static cusparseStatus_t nnz(cusparseHandle_t h, int type, int direction, int m,
                            int n, const struct cusparseMatDescr *d,
                            const void *a, int lda, int *counts, int *total) {
  static const char name[] = "cusparse?nnz";
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if ((direction != DIRECTION_ROW && direction != DIRECTION_COLUMN) || m < 0 ||
      n < 0 || lda < (m > 1 ? m : 1) || !d || bad_base(d->base) ||
      (m > 0 && n > 0 && (!a || !counts)))
    return BAD;
  if (d->type != CUSPARSE_MATRIX_TYPE_GENERAL)
    return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  size_t e = cuemu__sparse_value_size(type);
  int lines = direction == DIRECTION_ROW ? m : n;
  if (!device(name, "A", a, m > 0 && n > 0 ? ((size_t)(n - 1) * lda + m) * e : 0) ||
      !device(name, "nnzPerRowColumn", counts, (size_t)lines * sizeof(int)))
    return OK;
  legacy l = {.type = type, .m = m, .n = n, .lda = lda, .dense = a,
              .direction = direction, .counts = counts, .total = total};
  return submit(h, name, run_nnz, &l, NULL, NULL);
}

/* ---- gemvi: y = alpha op(A) x + beta y, x sparse ----------------------------
 */

static void run_gemvi(cuemu_sparse_op *op) {
  legacy *l = op->extra;
  cuemu_sparse_value alpha = cuemu__sparse_load(op->scalar[0], l->type, 0);
  cuemu_sparse_value beta = cuemu__sparse_load(op->scalar[1], l->type, 0);
  int rows = l->op == CUSPARSE_OPERATION_NON_TRANSPOSE ? l->m : l->n;
  int inner = l->op == CUSPARSE_OPERATION_NON_TRANSPOSE ? l->n : l->m;
  for (int r = 0; r < rows; ++r) {
    cuemu_sparse_value sum = {0, 0};
    for (int k = 0; k < l->x_nnz; ++k) {
      int c = l->x_index[k] - l->x_base;
      if (c < 0 || c >= inner)
        continue;
      int64_t at = l->op == CUSPARSE_OPERATION_NON_TRANSPOSE
                       ? (int64_t)c * l->lda + r
                       : (int64_t)r * l->lda + c;
      sum = cuemu__sparse_add(
          sum, cuemu__sparse_mul(cuemu__sparse_load(l->dense, l->type, at),
                                 cuemu__sparse_load(l->x_values, l->type, k)));
    }
    cuemu_sparse_value y = cuemu__sparse_mul(alpha, sum);
    /* beta 0: y is not read (it may hold NaN), as BLAS. */
    if (beta.re != 0 || beta.im != 0)
      y = cuemu__sparse_add(
          y, cuemu__sparse_mul(beta, cuemu__sparse_load(l->y, l->type, r)));
    cuemu__sparse_store(l->y, l->type, r, y);
  }
  cuemu_rt_library_wrote(l->y, (size_t)rows * cuemu__sparse_value_size(l->type));
}

/* The checks of gemvi and its buffer size: op(A) is A or A^T, as cuSPARSE
 * documents (A^H: NOT_SUPPORTED). */
static cusparseStatus_t gemvi_check(cusparseHandle_t h, int op, int m, int n,
                                    int nnz) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if ((op != CUSPARSE_OPERATION_NON_TRANSPOSE &&
       op != CUSPARSE_OPERATION_TRANSPOSE) ||
      m < 0 || n < 0 || nnz < 0)
    return BAD;
  return OK;
}

static cusparseStatus_t gemvi(cusparseHandle_t h, int type, int op, int m,
                              int n, const void *alpha, const void *a, int lda,
                              int x_nnz, const void *x_values,
                              const int *x_index, const void *beta, void *y,
                              int base) {
  static const char name[] = "cusparse?gemvi";
  cusparseStatus_t s = gemvi_check(h, op, m, n, x_nnz);
  if (s != OK)
    return s;
  int rows = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? m : n;
  if (lda < (m > 1 ? m : 1) || bad_base(base) || !alpha || !beta ||
      (rows > 0 && !y) || (x_nnz > 0 && (!x_values || !x_index || !a)))
    return BAD;
  size_t e = cuemu__sparse_value_size(type);
  if (!device(name, "A", a, m > 0 && n > 0 ? ((size_t)(n - 1) * lda + m) * e : 0) ||
      !device(name, "xVal", x_values, (size_t)x_nnz * e) ||
      !device(name, "xInd", x_index, (size_t)x_nnz * sizeof(int)) ||
      !device(name, "y", y, (size_t)rows * e))
    return OK;
  legacy l = {.type = type, .m = m, .n = n, .lda = lda, .dense = a,
              .op = op, .x_values = x_values, .x_index = x_index,
              .x_nnz = x_nnz, .x_base = base, .y = y};
  return submit(h, name, run_gemvi, &l, alpha, beta);
}

#define DENSE_API(P, T, TYPE)                                                  \
  E cusparseStatus_t cusparse##P##nnz(                                         \
      cusparseHandle_t h, int direction, int m, int n,                         \
      const struct cusparseMatDescr *d, const T *a, int lda, int *counts,      \
      int *total) {                                                            \
    return nnz(h, TYPE, direction, m, n, d, a, lda, counts, total);            \
  }                                                                            \
  E cusparseStatus_t cusparse##P##gemvi_bufferSize(                            \
      cusparseHandle_t h, int op, int m, int n, int nnz, int *size) {          \
    return buffer_size(gemvi_check(h, op, m, n, nnz), NULL, size);             \
  }                                                                            \
  E cusparseStatus_t cusparse##P##gemvi(                                       \
      cusparseHandle_t h, int op, int m, int n, const T *alpha, const T *a,    \
      int lda, int nnz, const T *x_values, const int *x_index, const T *beta,  \
      T *y, int base, void *buffer) {                                          \
    (void)buffer;                                                              \
    return gemvi(h, TYPE, op, m, n, alpha, a, lda, nnz, x_values, x_index,     \
                 beta, y, base);                                               \
  }

DENSE_API(S, float, CUEMU_R_32F)
DENSE_API(D, double, CUEMU_R_64F)
DENSE_API(C, void, CUEMU_C_32F)
DENSE_API(Z, void, CUEMU_C_64F)

/* ---- nnz_compress and csr2csr_compress: dropping small values -------------
 */

/* One call: A (m rows, its descriptor's base), the tolerance (of a complex
 * type, its real part, as cuSPARSE's documentation says), the counts per
 * row, and C (csr2csr_compress) in A's base. */
typedef struct {
  int type, m, base;
  double tol;
  const void *values;
  const int *offsets, *columns;
  int *per_row, *total;
  void *c_values;
  int *c_offsets, *c_columns;
} compress;

/* Whether A's element k is kept: its modulus above the tolerance. */
static int kept(const compress *x, int64_t k) {
  cuemu_sparse_value v = cuemu__sparse_load(x->values, x->type, k);
  return hypot(v.re, v.im) > x->tol;
}

static void run_nnz_compress(cuemu_sparse_op *op) {
  compress *x = op->extra;
  int total = 0;
  for (int i = 0; i < x->m; ++i) {
    int count = 0;
    for (int64_t k = x->offsets[i] - x->base; k < x->offsets[i + 1] - x->base;
         ++k)
      count += kept(x, k);
    x->per_row[i] = count;
    total += count;
  }
  cuemu_rt_library_wrote(x->per_row, (size_t)x->m * sizeof(int));
  *x->total = total;
  cuemu_rt_library_wrote(x->total, sizeof(int));
}

static void run_csr2csr_compress(cuemu_sparse_op *op) {
  compress *x = op->extra;
  int64_t at = 0;
  x->c_offsets[0] = x->base;
  for (int i = 0; i < x->m; ++i) {
    for (int64_t k = x->offsets[i] - x->base; k < x->offsets[i + 1] - x->base;
         ++k)
      if (kept(x, k)) {
        x->c_columns[at] = x->columns[k];
        cuemu__sparse_store(x->c_values, x->type, at,
                            cuemu__sparse_load(x->values, x->type, k));
        ++at;
      }
    x->c_offsets[i + 1] = (int)at + x->base;
  }
  cuemu_rt_library_wrote(x->c_offsets, ((size_t)x->m + 1) * sizeof(int));
  cuemu_rt_library_wrote(x->c_columns, (size_t)at * sizeof(int));
  cuemu_rt_library_wrote(x->c_values,
                         (size_t)at * cuemu__sparse_value_size(x->type));
}

/* The checks both calls make, and A's row offsets and the counts as
 * device memory (*in_device 0 when not: the fault is recorded, and the
 * call does nothing). */
static cusparseStatus_t compress_check(cusparseHandle_t h, const char *name,
                                       const compress *x, int n, int nnz,
                                       const struct cusparseMatDescr *d,
                                       int *in_device) {
  *in_device = 0;
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (x->m < 0 || n < 0 || nnz < 0 || !d || bad_base(d->base) ||
      !x->offsets || !x->per_row || !(x->tol >= 0))
    return BAD;
  if (d->type != CUSPARSE_MATRIX_TYPE_GENERAL)
    return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  *in_device = device(name, "csrSortedRowPtrA", x->offsets,
                      ((size_t)x->m + 1) * sizeof(int)) &&
               device(name, "nnzPerRow", x->per_row, (size_t)x->m * sizeof(int));
  return OK;
}

static cusparseStatus_t nnz_compress(cusparseHandle_t h, int type, int m,
                                     const struct cusparseMatDescr *d,
                                     const void *values, const int *offsets,
                                     int *per_row, int *total, double tol) {
  static const char name[] = "cusparse?nnz_compress";
  compress x = {.type = type, .m = m, .base = d ? d->base : 0, .tol = tol,
                .values = values, .offsets = offsets, .per_row = per_row,
                .total = total};
  int in_device;
  cusparseStatus_t s = compress_check(h, name, &x, 0, 0, d, &in_device);
  if (s == OK && !total)
    return BAD;
  if (s != OK || !in_device)
    return s;
  return cuemu__sparse_submit_scalars(h, name, run_nnz_compress, &x, sizeof x,
                                      NULL, NULL, type, total);
}

static cusparseStatus_t csr2csr_compress(
    cusparseHandle_t h, int type, int m, int n,
    const struct cusparseMatDescr *d, const void *values, const int *columns,
    const int *offsets, int nnz, const int *per_row, void *c_values,
    int *c_columns, int *c_offsets, double tol) {
  static const char name[] = "cusparse?csr2csr_compress";
  compress x = {.type = type, .m = m, .base = d ? d->base : 0, .tol = tol,
                .values = values, .offsets = offsets, .columns = columns,
                .per_row = (int *)per_row, .c_values = c_values,
                .c_offsets = c_offsets, .c_columns = c_columns};
  int in_device;
  cusparseStatus_t s = compress_check(h, name, &x, n, nnz, d, &in_device);
  if (s == OK && (!c_offsets || (nnz > 0 && (!values || !columns))))
    return BAD;
  if (s != OK || !in_device)
    return s;
  size_t e = cuemu__sparse_value_size(type);
  if (!device(name, "csrSortedValA", values, (size_t)nnz * e) ||
      !device(name, "csrSortedColIndA", columns, (size_t)nnz * sizeof(int)) ||
      !device(name, "csrSortedRowPtrC", c_offsets,
              ((size_t)m + 1) * sizeof(int)))
    return OK;
  return cuemu__sparse_submit_scalars(h, name, run_csr2csr_compress, &x,
                                      sizeof x, NULL, NULL, type, NULL);
}

/* P the prefix, T the element type, TOL how the tolerance is read (a
 * complex one's real part). */
#define COMPRESS_API(P, T, TYPE, TOL)                                          \
  E cusparseStatus_t cusparse##P##nnz_compress(                                \
      cusparseHandle_t h, int m, const struct cusparseMatDescr *d,             \
      const T *values, const int *offsets, int *per_row, int *total, T tol) {  \
    return nnz_compress(h, TYPE, m, d, values, offsets, per_row, total,        \
                        TOL);                                                  \
  }                                                                            \
  E cusparseStatus_t cusparse##P##csr2csr_compress(                            \
      cusparseHandle_t h, int m, int n, const struct cusparseMatDescr *d,      \
      const T *values, const int *columns, const int *offsets, int nnz,        \
      const int *per_row, T *c_values, int *c_columns, int *c_offsets,         \
      T tol) {                                                                 \
    return csr2csr_compress(h, TYPE, m, n, d, values, columns, offsets, nnz,   \
                            per_row, c_values, c_columns, c_offsets, TOL);     \
  }

/* cuComplex and cuDoubleComplex, as the header passes them by value. */
typedef struct {
  float x, y;
} complex_float;
typedef struct {
  double x, y;
} complex_double;

COMPRESS_API(S, float, CUEMU_R_32F, (double)tol)
COMPRESS_API(D, double, CUEMU_R_64F, tol)
COMPRESS_API(C, complex_float, CUEMU_C_32F, (double)tol.x)
COMPRESS_API(Z, complex_double, CUEMU_C_64F, tol.x)
