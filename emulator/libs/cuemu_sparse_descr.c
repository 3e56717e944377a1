/*
 * cuemu_sparse_descr.c: the descriptors of cuSPARSE's generic API (dense
 * and sparse vectors, dense matrices, CSR, CSC and COO matrices): their
 * creation with cuSPARSE's checks, getters, setters and destruction
 * (cuemu_sparse.h). A descriptor holds pointers only; the arrays are the
 * program's.
 */
#include <stdlib.h>
#include <string.h>

#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define OK CUSPARSE_STATUS_SUCCESS
#define BAD CUSPARSE_STATUS_INVALID_VALUE

static int base_ok(int base) {
  return base == CUSPARSE_INDEX_BASE_ZERO || base == CUSPARSE_INDEX_BASE_ONE;
}

/* ---- Dense vectors --------------------------------------------------------
 */

E cusparseStatus_t cusparseCreateDnVec(cuemu_sparse_dnvec **d, int64_t size,
                                       void *values, int type) {
  if (!d || size < 0 || (size > 0 && !values) ||
      !cuemu__sparse_value_size(type))
    return BAD;
  cuemu_sparse_dnvec *v = calloc(1, sizeof *v);
  if (!v)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  v->size = size, v->values = values, v->type = type;
  *d = v;
  return OK;
}
E cusparseStatus_t cusparseCreateConstDnVec(cuemu_sparse_dnvec **d,
                                            int64_t size, const void *values,
                                            int type) {
  return cusparseCreateDnVec(d, size, (void *)values, type);
}
E cusparseStatus_t cusparseDestroyDnVec(const cuemu_sparse_dnvec *d) {
  free((void *)d);
  return OK;
}
E cusparseStatus_t cusparseDnVecGet(cuemu_sparse_dnvec *d, int64_t *size,
                                    void **values, int *type) {
  if (!d || !size || !values || !type)
    return BAD;
  *size = d->size, *values = d->values, *type = d->type;
  return OK;
}
E cusparseStatus_t cusparseConstDnVecGet(const cuemu_sparse_dnvec *d,
                                         int64_t *size, const void **values,
                                         int *type) {
  return cusparseDnVecGet((cuemu_sparse_dnvec *)d, size, (void **)values, type);
}
E cusparseStatus_t cusparseDnVecGetValues(cuemu_sparse_dnvec *d,
                                          void **values) {
  if (!d || !values)
    return BAD;
  *values = d->values;
  return OK;
}
E cusparseStatus_t cusparseConstDnVecGetValues(const cuemu_sparse_dnvec *d,
                                               const void **values) {
  return cusparseDnVecGetValues((cuemu_sparse_dnvec *)d, (void **)values);
}
E cusparseStatus_t cusparseDnVecSetValues(cuemu_sparse_dnvec *d, void *values) {
  if (!d || (d->size > 0 && !values))
    return BAD;
  d->values = values;
  return OK;
}

/* ---- Sparse vectors -------------------------------------------------------
 */

E cusparseStatus_t cusparseCreateSpVec(cuemu_sparse_spvec **d, int64_t size,
                                       int64_t nnz, void *indices, void *values,
                                       int index_type, int base, int type) {
  if (!d || size < 0 || nnz < 0 || nnz > size ||
      (nnz > 0 && (!indices || !values)) ||
      !cuemu__sparse_index_size(index_type) || !base_ok(base) ||
      !cuemu__sparse_value_size(type))
    return BAD;
  cuemu_sparse_spvec *v = calloc(1, sizeof *v);
  if (!v)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  *v = (cuemu_sparse_spvec){size, nnz, indices, values, index_type, base, type};
  *d = v;
  return OK;
}
E cusparseStatus_t cusparseCreateConstSpVec(cuemu_sparse_spvec **d,
                                            int64_t size, int64_t nnz,
                                            const void *indices,
                                            const void *values, int index_type,
                                            int base, int type) {
  return cusparseCreateSpVec(d, size, nnz, (void *)indices, (void *)values,
                             index_type, base, type);
}
E cusparseStatus_t cusparseDestroySpVec(const cuemu_sparse_spvec *d) {
  free((void *)d);
  return OK;
}
E cusparseStatus_t cusparseSpVecGet(cuemu_sparse_spvec *d, int64_t *size,
                                    int64_t *nnz, void **indices, void **values,
                                    int *index_type, int *base, int *type) {
  if (!d || !size || !nnz || !indices || !values || !index_type || !base ||
      !type)
    return BAD;
  *size = d->size, *nnz = d->nnz, *indices = d->indices, *values = d->values;
  *index_type = d->index_type, *base = d->base, *type = d->type;
  return OK;
}
E cusparseStatus_t cusparseConstSpVecGet(const cuemu_sparse_spvec *d,
                                         int64_t *size, int64_t *nnz,
                                         const void **indices,
                                         const void **values, int *index_type,
                                         int *base, int *type) {
  return cusparseSpVecGet((cuemu_sparse_spvec *)d, size, nnz, (void **)indices,
                          (void **)values, index_type, base, type);
}
E cusparseStatus_t cusparseSpVecGetIndexBase(const cuemu_sparse_spvec *d,
                                             int *base) {
  if (!d || !base)
    return BAD;
  *base = d->base;
  return OK;
}
E cusparseStatus_t cusparseSpVecGetValues(cuemu_sparse_spvec *d,
                                          void **values) {
  if (!d || !values)
    return BAD;
  *values = d->values;
  return OK;
}
E cusparseStatus_t cusparseConstSpVecGetValues(const cuemu_sparse_spvec *d,
                                               const void **values) {
  return cusparseSpVecGetValues((cuemu_sparse_spvec *)d, (void **)values);
}
E cusparseStatus_t cusparseSpVecSetValues(cuemu_sparse_spvec *d, void *values) {
  if (!d || (d->nnz > 0 && !values))
    return BAD;
  d->values = values;
  return OK;
}

/* ---- Dense matrices -------------------------------------------------------
 */

E cusparseStatus_t cusparseCreateDnMat(cuemu_sparse_dnmat **d, int64_t rows,
                                       int64_t cols, int64_t ld, void *values,
                                       int type, int order) {
  if (!d || rows < 0 || cols < 0 ||
      (order != CUSPARSE_ORDER_COL && order != CUSPARSE_ORDER_ROW) ||
      ld < (order == CUSPARSE_ORDER_COL ? rows : cols) ||
      (rows > 0 && cols > 0 && !values) || !cuemu__sparse_value_size(type))
    return BAD;
  cuemu_sparse_dnmat *m = calloc(1, sizeof *m);
  if (!m)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  m->rows = rows, m->cols = cols, m->ld = ld, m->values = values;
  m->type = type, m->order = order, m->batch_count = 1;
  *d = m;
  return OK;
}
E cusparseStatus_t cusparseCreateConstDnMat(cuemu_sparse_dnmat **d,
                                            int64_t rows, int64_t cols,
                                            int64_t ld, const void *values,
                                            int type, int order) {
  return cusparseCreateDnMat(d, rows, cols, ld, (void *)values, type, order);
}
E cusparseStatus_t cusparseDestroyDnMat(const cuemu_sparse_dnmat *d) {
  free((void *)d);
  return OK;
}
E cusparseStatus_t cusparseDnMatGet(cuemu_sparse_dnmat *d, int64_t *rows,
                                    int64_t *cols, int64_t *ld, void **values,
                                    int *type, int *order) {
  if (!d || !rows || !cols || !ld || !values || !type || !order)
    return BAD;
  *rows = d->rows, *cols = d->cols, *ld = d->ld, *values = d->values;
  *type = d->type, *order = d->order;
  return OK;
}
E cusparseStatus_t cusparseConstDnMatGet(const cuemu_sparse_dnmat *d,
                                         int64_t *rows, int64_t *cols,
                                         int64_t *ld, const void **values,
                                         int *type, int *order) {
  return cusparseDnMatGet((cuemu_sparse_dnmat *)d, rows, cols, ld,
                          (void **)values, type, order);
}
E cusparseStatus_t cusparseDnMatGetValues(cuemu_sparse_dnmat *d,
                                          void **values) {
  if (!d || !values)
    return BAD;
  *values = d->values;
  return OK;
}
E cusparseStatus_t cusparseConstDnMatGetValues(const cuemu_sparse_dnmat *d,
                                               const void **values) {
  return cusparseDnMatGetValues((cuemu_sparse_dnmat *)d, (void **)values);
}
E cusparseStatus_t cusparseDnMatSetValues(cuemu_sparse_dnmat *d, void *values) {
  if (!d || (d->rows > 0 && d->cols > 0 && !values))
    return BAD;
  d->values = values;
  return OK;
}
/* Strided batches of a dense matrix (cuemu__sparse_dnmat_batch()). */
E cusparseStatus_t cusparseDnMatSetStridedBatch(cuemu_sparse_dnmat *d,
                                                int count, int64_t stride) {
  if (!d || count < 1 || stride < 0)
    return BAD;
  d->batch_count = count, d->batch_stride = stride;
  return OK;
}
E cusparseStatus_t cusparseDnMatGetStridedBatch(const cuemu_sparse_dnmat *d,
                                                int *count, int64_t *stride) {
  if (!d || !count || !stride)
    return BAD;
  *count = d->batch_count, *stride = d->batch_stride;
  return OK;
}

/* ---- Sparse matrices ------------------------------------------------------
 */

/* The checks and record of CSR, CSC and COO: offsets may be NULL (SpGEMM's
 * result before its sizes are known), the arrays of nonzeros not when
 * there are any. */
static cusparseStatus_t create_spmat(cuemu_sparse_spmat **d, int format,
                                     int64_t rows, int64_t cols, int64_t nnz,
                                     void *offsets, void *indices, void *values,
                                     int offset_type, int index_type, int base,
                                     int type) {
  if (!d || rows < 0 || cols < 0 || nnz < 0 ||
      (format == CUSPARSE_FORMAT_COO && nnz > 0 && !offsets) ||
      (nnz > 0 && (!indices || !values)) ||
      !cuemu__sparse_index_size(offset_type) ||
      !cuemu__sparse_index_size(index_type) || !base_ok(base) ||
      !cuemu__sparse_value_size(type))
    return BAD;
  /* More nonzeros than elements, or indices too narrow for the sizes. */
  if ((rows == 0 || cols == 0 ? nnz > 0 : nnz / rows > cols) ||
      (index_type == CUSPARSE_INDEX_32I &&
       (rows > INT32_MAX || cols > INT32_MAX)) ||
      (offset_type == CUSPARSE_INDEX_32I && nnz > INT32_MAX))
    return BAD;
  cuemu_sparse_spmat *a = calloc(1, sizeof *a);
  if (!a)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  a->format = format, a->rows = rows, a->cols = cols, a->nnz = nnz;
  a->offsets = offsets, a->indices = indices, a->values = values;
  a->offset_type = offset_type, a->index_type = index_type;
  a->base = base, a->type = type, a->batch_count = 1;
  *d = a;
  return OK;
}

E cusparseStatus_t cusparseCreateCsr(cuemu_sparse_spmat **d, int64_t rows,
                                     int64_t cols, int64_t nnz, void *offsets,
                                     void *columns, void *values,
                                     int offset_type, int index_type, int base,
                                     int type) {
  return create_spmat(d, CUSPARSE_FORMAT_CSR, rows, cols, nnz, offsets, columns,
                      values, offset_type, index_type, base, type);
}
E cusparseStatus_t cusparseCreateConstCsr(cuemu_sparse_spmat **d, int64_t rows,
                                          int64_t cols, int64_t nnz,
                                          const void *offsets,
                                          const void *columns,
                                          const void *values, int offset_type,
                                          int index_type, int base, int type) {
  return create_spmat(d, CUSPARSE_FORMAT_CSR, rows, cols, nnz, (void *)offsets,
                      (void *)columns, (void *)values, offset_type, index_type,
                      base, type);
}
E cusparseStatus_t cusparseCreateCsc(cuemu_sparse_spmat **d, int64_t rows,
                                     int64_t cols, int64_t nnz, void *offsets,
                                     void *rows_, void *values, int offset_type,
                                     int index_type, int base, int type) {
  return create_spmat(d, CUSPARSE_FORMAT_CSC, rows, cols, nnz, offsets, rows_,
                      values, offset_type, index_type, base, type);
}
E cusparseStatus_t cusparseCreateConstCsc(cuemu_sparse_spmat **d, int64_t rows,
                                          int64_t cols, int64_t nnz,
                                          const void *offsets,
                                          const void *rows_, const void *values,
                                          int offset_type, int index_type,
                                          int base, int type) {
  return create_spmat(d, CUSPARSE_FORMAT_CSC, rows, cols, nnz, (void *)offsets,
                      (void *)rows_, (void *)values, offset_type, index_type,
                      base, type);
}
E cusparseStatus_t cusparseCreateCoo(cuemu_sparse_spmat **d, int64_t rows,
                                     int64_t cols, int64_t nnz, void *row_ind,
                                     void *col_ind, void *values,
                                     int index_type, int base, int type) {
  return create_spmat(d, CUSPARSE_FORMAT_COO, rows, cols, nnz, row_ind, col_ind,
                      values, index_type, index_type, base, type);
}
E cusparseStatus_t cusparseCreateConstCoo(cuemu_sparse_spmat **d, int64_t rows,
                                          int64_t cols, int64_t nnz,
                                          const void *row_ind,
                                          const void *col_ind,
                                          const void *values, int index_type,
                                          int base, int type) {
  return create_spmat(d, CUSPARSE_FORMAT_COO, rows, cols, nnz, (void *)row_ind,
                      (void *)col_ind, (void *)values, index_type, index_type,
                      base, type);
}
E cusparseStatus_t cusparseDestroySpMat(const cuemu_sparse_spmat *d) {
  free((void *)d);
  return OK;
}

/* The getters of one format: INVALID_VALUE for a matrix of another. */
static cusparseStatus_t get_spmat(const cuemu_sparse_spmat *a, int format,
                                  int64_t *rows, int64_t *cols, int64_t *nnz,
                                  void **offsets, void **indices, void **values,
                                  int *offset_type, int *index_type, int *base,
                                  int *type) {
  if (!a || a->format != format || !rows || !cols || !nnz || !offsets ||
      !indices || !values || !offset_type || !index_type || !base || !type)
    return BAD;
  *rows = a->rows, *cols = a->cols, *nnz = a->nnz;
  *offsets = a->offsets, *indices = a->indices, *values = a->values;
  *offset_type = a->offset_type, *index_type = a->index_type;
  *base = a->base, *type = a->type;
  return OK;
}
E cusparseStatus_t cusparseCsrGet(cuemu_sparse_spmat *a, int64_t *rows,
                                  int64_t *cols, int64_t *nnz, void **offsets,
                                  void **columns, void **values,
                                  int *offset_type, int *index_type, int *base,
                                  int *type) {
  return get_spmat(a, CUSPARSE_FORMAT_CSR, rows, cols, nnz, offsets, columns,
                   values, offset_type, index_type, base, type);
}
E cusparseStatus_t cusparseConstCsrGet(const cuemu_sparse_spmat *a,
                                       int64_t *rows, int64_t *cols,
                                       int64_t *nnz, const void **offsets,
                                       const void **columns,
                                       const void **values, int *offset_type,
                                       int *index_type, int *base, int *type) {
  return get_spmat(a, CUSPARSE_FORMAT_CSR, rows, cols, nnz, (void **)offsets,
                   (void **)columns, (void **)values, offset_type, index_type,
                   base, type);
}
E cusparseStatus_t cusparseCscGet(cuemu_sparse_spmat *a, int64_t *rows,
                                  int64_t *cols, int64_t *nnz, void **offsets,
                                  void **rows_, void **values, int *offset_type,
                                  int *index_type, int *base, int *type) {
  return get_spmat(a, CUSPARSE_FORMAT_CSC, rows, cols, nnz, offsets, rows_,
                   values, offset_type, index_type, base, type);
}
E cusparseStatus_t cusparseConstCscGet(const cuemu_sparse_spmat *a,
                                       int64_t *rows, int64_t *cols,
                                       int64_t *nnz, const void **offsets,
                                       const void **rows_, const void **values,
                                       int *offset_type, int *index_type,
                                       int *base, int *type) {
  return get_spmat(a, CUSPARSE_FORMAT_CSC, rows, cols, nnz, (void **)offsets,
                   (void **)rows_, (void **)values, offset_type, index_type,
                   base, type);
}
E cusparseStatus_t cusparseCooGet(cuemu_sparse_spmat *a, int64_t *rows,
                                  int64_t *cols, int64_t *nnz, void **row_ind,
                                  void **col_ind, void **values,
                                  int *index_type, int *base, int *type) {
  int offset_type;
  return get_spmat(a, CUSPARSE_FORMAT_COO, rows, cols, nnz, row_ind, col_ind,
                   values, &offset_type, index_type, base, type);
}
E cusparseStatus_t cusparseConstCooGet(const cuemu_sparse_spmat *a,
                                       int64_t *rows, int64_t *cols,
                                       int64_t *nnz, const void **row_ind,
                                       const void **col_ind,
                                       const void **values, int *index_type,
                                       int *base, int *type) {
  int offset_type;
  return get_spmat(a, CUSPARSE_FORMAT_COO, rows, cols, nnz, (void **)row_ind,
                   (void **)col_ind, (void **)values, &offset_type, index_type,
                   base, type);
}

static cusparseStatus_t set_pointers(cuemu_sparse_spmat *a, int format,
                                     void *offsets, void *indices,
                                     void *values) {
  if (!a || a->format != format || !offsets ||
      (a->nnz > 0 && (!indices || !values)))
    return BAD;
  a->offsets = offsets, a->indices = indices, a->values = values;
  return OK;
}
E cusparseStatus_t cusparseCsrSetPointers(cuemu_sparse_spmat *a, void *offsets,
                                          void *columns, void *values) {
  return set_pointers(a, CUSPARSE_FORMAT_CSR, offsets, columns, values);
}
E cusparseStatus_t cusparseCscSetPointers(cuemu_sparse_spmat *a, void *offsets,
                                          void *rows_, void *values) {
  return set_pointers(a, CUSPARSE_FORMAT_CSC, offsets, rows_, values);
}
E cusparseStatus_t cusparseCooSetPointers(cuemu_sparse_spmat *a, void *row_ind,
                                          void *col_ind, void *values) {
  return set_pointers(a, CUSPARSE_FORMAT_COO, row_ind, col_ind, values);
}

E cusparseStatus_t cusparseSpMatGetFormat(const cuemu_sparse_spmat *a,
                                          int *format) {
  if (!a || !format)
    return BAD;
  *format = a->format;
  return OK;
}
E cusparseStatus_t cusparseSpMatGetIndexBase(const cuemu_sparse_spmat *a,
                                             int *base) {
  if (!a || !base)
    return BAD;
  *base = a->base;
  return OK;
}
E cusparseStatus_t cusparseSpMatGetValues(cuemu_sparse_spmat *a,
                                          void **values) {
  if (!a || !values)
    return BAD;
  *values = a->values;
  return OK;
}
E cusparseStatus_t cusparseConstSpMatGetValues(const cuemu_sparse_spmat *a,
                                               const void **values) {
  return cusparseSpMatGetValues((cuemu_sparse_spmat *)a, (void **)values);
}
E cusparseStatus_t cusparseSpMatSetValues(cuemu_sparse_spmat *a, void *values) {
  if (!a || (a->nnz > 0 && !values))
    return BAD;
  a->values = values;
  return OK;
}
E cusparseStatus_t cusparseSpMatGetSize(const cuemu_sparse_spmat *a,
                                        int64_t *rows, int64_t *cols,
                                        int64_t *nnz) {
  if (!a || !rows || !cols || !nnz)
    return BAD;
  *rows = a->rows, *cols = a->cols, *nnz = a->nnz;
  return OK;
}
E cusparseStatus_t cusparseSpMatGetStridedBatch(const cuemu_sparse_spmat *a,
                                                int *count) {
  if (!a || !count)
    return BAD;
  *count = a->batch_count;
  return OK;
}

/* The fill mode and diagonal type (SpSV, SpSM): their sizes must be the
 * enums' (cuSPARSE checks dataSize). */
E cusparseStatus_t cusparseSpMatSetAttribute(cuemu_sparse_spmat *a,
                                             int attribute, void *data,
                                             size_t size) {
  if (!a || !data || size != sizeof(int))
    return BAD;
  int v;
  memcpy(&v, data, sizeof v);
  if (attribute == CUSPARSE_SPMAT_FILL_MODE &&
      (v == CUSPARSE_FILL_MODE_LOWER || v == CUSPARSE_FILL_MODE_UPPER))
    a->fill_mode = v;
  else if (attribute == CUSPARSE_SPMAT_DIAG_TYPE &&
           (v == CUSPARSE_DIAG_TYPE_NON_UNIT || v == CUSPARSE_DIAG_TYPE_UNIT))
    a->diag_type = v;
  else
    return BAD;
  return OK;
}
E cusparseStatus_t cusparseSpMatGetAttribute(const cuemu_sparse_spmat *a,
                                             int attribute, void *data,
                                             size_t size) {
  if (!a || !data || size != sizeof(int) ||
      (attribute != CUSPARSE_SPMAT_FILL_MODE &&
       attribute != CUSPARSE_SPMAT_DIAG_TYPE))
    return BAD;
  int v = attribute == CUSPARSE_SPMAT_FILL_MODE ? a->fill_mode : a->diag_type;
  memcpy(data, &v, sizeof v);
  return OK;
}

/* Strided batches of a sparse matrix, which SpMM and SDDMM compute
 * (cuemu__sparse_spmat_batch()); other computations refuse more than one
 * (CUSPARSE_STATUS_NOT_SUPPORTED). */
E cusparseStatus_t cusparseCooSetStridedBatch(cuemu_sparse_spmat *a, int count,
                                              int64_t stride) {
  if (!a || a->format != CUSPARSE_FORMAT_COO || count < 1 || stride < 0)
    return BAD;
  a->batch_count = count;
  a->offsets_stride = a->values_stride = stride;
  return OK;
}
E cusparseStatus_t cusparseCsrSetStridedBatch(cuemu_sparse_spmat *a, int count,
                                              int64_t offsets_stride,
                                              int64_t values_stride) {
  if (!a || a->format != CUSPARSE_FORMAT_CSR || count < 1 ||
      offsets_stride < 0 || values_stride < 0)
    return BAD;
  a->batch_count = count;
  a->offsets_stride = offsets_stride, a->values_stride = values_stride;
  return OK;
}

cuemu_sparse_spmat cuemu__sparse_spmat_batch(const cuemu_sparse_spmat *a,
                                             int i) {
  cuemu_sparse_spmat one = *a;
  if (a->batch_count > 1 && i > 0) {
    int64_t at = (int64_t)i * a->values_stride;
    if (one.offsets)
      one.offsets = (char *)one.offsets +
                    (size_t)((int64_t)i * a->offsets_stride) *
                        cuemu__sparse_index_size(a->offset_type);
    one.indices = (char *)one.indices +
                  (size_t)at * cuemu__sparse_index_size(a->index_type);
    one.values =
        (char *)one.values + (size_t)at * cuemu__sparse_value_size(a->type);
  }
  one.batch_count = 1;
  return one;
}

cuemu_sparse_dnmat cuemu__sparse_dnmat_batch(const cuemu_sparse_dnmat *m,
                                             int i) {
  cuemu_sparse_dnmat one = *m;
  if (m->batch_count > 1 && i > 0)
    one.values = (char *)one.values +
                 (size_t)((int64_t)i * m->batch_stride) *
                     cuemu__sparse_value_size(m->type);
  one.batch_count = 1;
  return one;
}
