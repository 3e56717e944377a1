/*
 * cuemu_sparse_blocked.c: cuSPARSE's blocked and padded sparse formats, BSR
 * (cusparseCreateBsr), Blocked-ELL (cusparseCreateBlockedEll,
 * cusparseBlockedEllGet) and Sliced-ELL (cusparseCreateSlicedEll), with
 * their Const forms: the descriptors, the walk over their stored elements
 * and the device memory checks of their arrays.
 * Every computation that walks a matrix's elements (SpMV, SpMM, SpSV,
 * SpSM, SDDMM, SparseToDense) takes them through
 * cuemu__sparse_for_each (cuemu_sparse.h).
 */
#include <stdlib.h>

#include "cuemu_libs.h"
#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define OK CUSPARSE_STATUS_SUCCESS
#define BAD CUSPARSE_STATUS_INVALID_VALUE

static int base_ok(int base) {
  return base == CUSPARSE_INDEX_BASE_ZERO || base == CUSPARSE_INDEX_BASE_ONE;
}

/* ---- BSR ---------------------------------------------------------------- */

static cusparseStatus_t create_bsr(cuemu_sparse_spmat **d, int64_t brows,
                                   int64_t bcols, int64_t bnnz, int64_t rb,
                                   int64_t cb, void *offsets, void *columns,
                                   void *values, int offset_type,
                                   int index_type, int base, int type,
                                   int order) {
  if (!d || brows < 0 || bcols < 0 || bnnz < 0 || rb < 1 || cb < 1 ||
      (brows > 0 && !offsets) || (bnnz > 0 && (!columns || !values)) ||
      !cuemu__sparse_index_size(offset_type) ||
      !cuemu__sparse_index_size(index_type) || !base_ok(base) ||
      !cuemu__sparse_value_size(type) ||
      (order != CUSPARSE_ORDER_ROW && order != CUSPARSE_ORDER_COL))
    return BAD;
  if (brows == 0 || bcols == 0 ? bnnz > 0 : bnnz / brows > bcols)
    return BAD;
  cuemu_sparse_spmat *a = calloc(1, sizeof *a);
  if (!a)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  a->format = CUSPARSE_FORMAT_BSR;
  a->rows = brows * rb, a->cols = bcols * cb, a->nnz = bnnz * rb * cb;
  a->blocks = bnnz, a->block_rows = rb, a->block_cols = cb;
  a->block_order = order;
  a->offsets = offsets, a->indices = columns, a->values = values;
  a->offset_type = offset_type, a->index_type = index_type;
  a->base = base, a->type = type, a->batch_count = 1;
  *d = a;
  return OK;
}

E cusparseStatus_t cusparseCreateBsr(cuemu_sparse_spmat **d, int64_t brows,
                                     int64_t bcols, int64_t bnnz, int64_t rb,
                                     int64_t cb, void *offsets, void *columns,
                                     void *values, int offset_type,
                                     int index_type, int base, int type,
                                     int order) {
  return create_bsr(d, brows, bcols, bnnz, rb, cb, offsets, columns, values,
                    offset_type, index_type, base, type, order);
}

E cusparseStatus_t cusparseCreateConstBsr(
    cuemu_sparse_spmat **d, int64_t brows, int64_t bcols, int64_t bnnz,
    int64_t rb, int64_t cb, const void *offsets, const void *columns,
    const void *values, int offset_type, int index_type, int base, int type,
    int order) {
  return create_bsr(d, brows, bcols, bnnz, rb, cb, (void *)offsets,
                    (void *)columns, (void *)values, offset_type, index_type,
                    base, type, order);
}

/* ---- Blocked-ELL -------------------------------------------------------- */

static cusparseStatus_t create_bell(cuemu_sparse_spmat **d, int64_t rows,
                                    int64_t cols, int64_t bs, int64_t ell_cols,
                                    void *columns, void *values,
                                    int index_type, int base, int type) {
  if (!d || rows < 0 || cols < 0 || bs < 1 || ell_cols < 0 ||
      rows % bs != 0 || cols % bs != 0 || ell_cols % bs != 0 ||
      ell_cols > cols || (rows > 0 && ell_cols > 0 && (!columns || !values)) ||
      !cuemu__sparse_index_size(index_type) || !base_ok(base) ||
      !cuemu__sparse_value_size(type))
    return BAD;
  cuemu_sparse_spmat *a = calloc(1, sizeof *a);
  if (!a)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  a->format = CUSPARSE_FORMAT_BLOCKED_ELL;
  a->rows = rows, a->cols = cols, a->nnz = rows * ell_cols;
  a->blocks = (rows / bs) * (ell_cols / bs);
  a->block_rows = a->block_cols = bs, a->ell_cols = ell_cols;
  a->indices = columns, a->values = values;
  a->offset_type = a->index_type = index_type;
  a->base = base, a->type = type, a->batch_count = 1;
  *d = a;
  return OK;
}

E cusparseStatus_t cusparseCreateBlockedEll(cuemu_sparse_spmat **d,
                                            int64_t rows, int64_t cols,
                                            int64_t bs, int64_t ell_cols,
                                            void *columns, void *values,
                                            int index_type, int base,
                                            int type) {
  return create_bell(d, rows, cols, bs, ell_cols, columns, values, index_type,
                     base, type);
}

E cusparseStatus_t cusparseCreateConstBlockedEll(
    cuemu_sparse_spmat **d, int64_t rows, int64_t cols, int64_t bs,
    int64_t ell_cols, const void *columns, const void *values, int index_type,
    int base, int type) {
  return create_bell(d, rows, cols, bs, ell_cols, (void *)columns,
                     (void *)values, index_type, base, type);
}

E cusparseStatus_t cusparseBlockedEllGet(const cuemu_sparse_spmat *a,
                                         int64_t *rows, int64_t *cols,
                                         int64_t *bs, int64_t *ell_cols,
                                         void **columns, void **values,
                                         int *index_type, int *base,
                                         int *type) {
  if (!a || a->format != CUSPARSE_FORMAT_BLOCKED_ELL || !rows || !cols ||
      !bs || !ell_cols || !columns || !values || !index_type || !base || !type)
    return BAD;
  *rows = a->rows, *cols = a->cols, *bs = a->block_rows;
  *ell_cols = a->ell_cols, *columns = a->indices, *values = a->values;
  *index_type = a->index_type, *base = a->base, *type = a->type;
  return OK;
}

E cusparseStatus_t cusparseConstBlockedEllGet(const cuemu_sparse_spmat *a,
                                              int64_t *rows, int64_t *cols,
                                              int64_t *bs, int64_t *ell_cols,
                                              const void **columns,
                                              const void **values,
                                              int *index_type, int *base,
                                              int *type) {
  return cusparseBlockedEllGet(a, rows, cols, bs, ell_cols, (void **)columns,
                               (void **)values, index_type, base, type);
}

/* ---- Sliced-ELL ---------------------------------------------------------- */

static cusparseStatus_t create_sell(cuemu_sparse_spmat **d, int64_t rows,
                                    int64_t cols, int64_t nnz, int64_t stored,
                                    int64_t slice, void *offsets,
                                    void *columns, void *values,
                                    int offset_type, int index_type, int base,
                                    int type) {
  if (!d || rows < 0 || cols < 0 || nnz < 0 || stored < nnz || slice < 1 ||
      (rows > 0 && !offsets) || (stored > 0 && (!columns || !values)) ||
      !cuemu__sparse_index_size(offset_type) ||
      !cuemu__sparse_index_size(index_type) || !base_ok(base) ||
      !cuemu__sparse_value_size(type))
    return BAD;
  cuemu_sparse_spmat *a = calloc(1, sizeof *a);
  if (!a)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  a->format = CUSPARSE_FORMAT_SLICED_ELLPACK;
  a->rows = rows, a->cols = cols, a->nnz = nnz;
  a->blocks = stored, a->block_rows = slice, a->block_cols = 1;
  a->offsets = offsets, a->indices = columns, a->values = values;
  a->offset_type = offset_type, a->index_type = index_type;
  a->base = base, a->type = type, a->batch_count = 1;
  *d = a;
  return OK;
}

E cusparseStatus_t cusparseCreateSlicedEll(
    cuemu_sparse_spmat **d, int64_t rows, int64_t cols, int64_t nnz,
    int64_t stored, int64_t slice, void *offsets, void *columns, void *values,
    int offset_type, int index_type, int base, int type) {
  return create_sell(d, rows, cols, nnz, stored, slice, offsets, columns,
                     values, offset_type, index_type, base, type);
}

E cusparseStatus_t cusparseCreateConstSlicedEll(
    cuemu_sparse_spmat **d, int64_t rows, int64_t cols, int64_t nnz,
    int64_t stored, int64_t slice, const void *offsets, const void *columns,
    const void *values, int offset_type, int index_type, int base, int type) {
  return create_sell(d, rows, cols, nnz, stored, slice, (void *)offsets,
                     (void *)columns, (void *)values, offset_type, index_type,
                     base, type);
}

/* ---- Walks and checks ----------------------------------------------------- */

/* Sliced-ELL: slice s holds rows s * S to s * S + S - 1 (S = block_rows),
 * column by column; a column index of -1 is padding, as is a slot past
 * the last row. */
static void for_each_sliced(const cuemu_sparse_spmat *a,
                            void (*f)(int64_t row, int64_t col, int64_t k,
                                      void *data),
                            void *data) {
  int64_t slice = a->block_rows, base = a->base;
  for (int64_t s = 0; s * slice < a->rows; ++s) {
    int64_t from = cuemu__sparse_index(a->offsets, a->offset_type, s) - base;
    int64_t to = cuemu__sparse_index(a->offsets, a->offset_type, s + 1) - base;
    for (int64_t k = from; k < to && k < a->blocks; ++k) {
      int64_t row = s * slice + (k - from) % slice;
      int64_t col = cuemu__sparse_index(a->indices, a->index_type, k);
      if (col != -1 && col >= base && row < a->rows)
        f(row, col - base, k, data);
    }
  }
}



void cuemu__sparse_for_each_blocked(const cuemu_sparse_spmat *a,
                                    void (*f)(int64_t row, int64_t col,
                                              int64_t k, void *data),
                                    void *data) {
  int64_t rb = a->block_rows, cb = a->block_cols, base = a->base;
  if (a->format == CUSPARSE_FORMAT_SLICED_ELLPACK) {
    for_each_sliced(a, f, data);
    return;
  }
  if (a->format == CUSPARSE_FORMAT_BSR) {
    int row_major = a->block_order == CUSPARSE_ORDER_ROW;
    for (int64_t bi = 0; bi < a->rows / rb; ++bi) {
      int64_t from = cuemu__sparse_index(a->offsets, a->offset_type, bi) - base;
      int64_t to =
          cuemu__sparse_index(a->offsets, a->offset_type, bi + 1) - base;
      for (int64_t b = from; b < to; ++b) {
        int64_t bj = cuemu__sparse_index(a->indices, a->index_type, b) - base;
        for (int64_t r = 0; r < rb; ++r)
          for (int64_t c = 0; c < cb; ++c)
            f(bi * rb + r, bj * cb + c,
              b * rb * cb + (row_major ? r * cb + c : c * rb + r), data);
      }
    }
    return;
  }
  /* Blocked-ELL: a block column of -1 is an empty block. */
  int64_t per_row = a->ell_cols / rb;
  for (int64_t r = 0; r < a->rows; ++r)
    for (int64_t c = 0; c < a->ell_cols; ++c) {
      int64_t bj =
          cuemu__sparse_index(a->indices, a->index_type, r / rb * per_row + c / rb);
      if (bj == -1)
        continue;
      f(r, (bj - base) * rb + c % rb, r * a->ell_cols + c, data);
    }
}

int cuemu__sparse_check_blocked(const char *name, const cuemu_sparse_spmat *a) {
  if (a->format == CUSPARSE_FORMAT_SLICED_ELLPACK)
    return cuemu__libs_device_range(
               name, "a Sliced-ELL matrix's slice offsets", a->offsets,
               (size_t)((a->rows + a->block_rows - 1) / a->block_rows + 1) *
                   cuemu__sparse_index_size(a->offset_type)) &&
           cuemu__libs_device_range(
               name, "a Sliced-ELL matrix's column indices", a->indices,
               (size_t)a->blocks * cuemu__sparse_index_size(a->index_type)) &&
           cuemu__libs_device_range(name, "a Sliced-ELL matrix's values",
                                    a->values,
                                    (size_t)a->blocks *
                                        cuemu__sparse_value_size(a->type));
  int bsr = a->format == CUSPARSE_FORMAT_BSR;
  return (!bsr || cuemu__libs_device_range(
                      name, "a BSR matrix's block row offsets", a->offsets,
                      (size_t)(a->rows / a->block_rows + 1) *
                          cuemu__sparse_index_size(a->offset_type))) &&
         cuemu__libs_device_range(
             name, "a blocked matrix's block column indices", a->indices,
             (size_t)a->blocks * cuemu__sparse_index_size(a->index_type)) &&
         cuemu__libs_device_range(name, "a blocked matrix's values", a->values,
                                  (size_t)a->nnz *
                                      cuemu__sparse_value_size(a->type));
}
