/*
 * cuemu_sparse_bsr_legacy.c: the legacy API of the BSR format, which older
 * programs and solvers call: the conversions cusparseXcsr2bsrNnz,
 * cusparse?csr2bsr and cusparse?bsr2csr, and the products cusparse?bsrmv
 * (y = alpha A x + beta y) and cusparse?bsrmm (C = alpha A op(B) + beta C),
 * for float, double and their complex forms. Square blocks of blockDim,
 * stored row by row (CUSPARSE_DIRECTION_ROW) or column by column; 32-bit
 * indices sorted within each row; each matrix in its descriptor's base.
 * The products are the generic API's cusparseSpMV and cusparseSpMM on a BSR
 * descriptor of the same arrays; the conversions run in the handle's
 * stream's order (cuemu_sparse.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cuemu_libs.h"
#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define OK CUSPARSE_STATUS_SUCCESS
#define BAD CUSPARSE_STATUS_INVALID_VALUE

/* cusparseDirection_t */
enum { DIRECTION_ROW = 0, DIRECTION_COLUMN = 1 };

/* One conversion, kept until it runs on the stream. */
typedef struct {
  int type, direction, block;
  int m, n;               /* the CSR matrix's rows and columns */
  int mb, nb;             /* the BSR matrix's block rows and columns */
  int csr_base, bsr_base;
  const void *csr_values; /* csr2bsr's input, bsr2csr's output */
  const int *csr_offsets, *csr_columns;
  void *bsr_values;
  int *bsr_offsets, *bsr_columns;
  int *total;             /* Xcsr2bsrNnz: the count of blocks, or NULL */
  void *out_values;       /* bsr2csr: the CSR output */
  int *out_offsets, *out_columns;
} conversion;

static int bad_base(int base) {
  return base != CUSPARSE_INDEX_BASE_ZERO && base != CUSPARSE_INDEX_BASE_ONE;
}

static int bad_descriptor(const struct cusparseMatDescr *d) {
  return !d || bad_base(d->base);
}

/* Element (r, c) of block k in the direction's storage. */
static int64_t in_block(const conversion *x, int64_t k, int r, int c) {
  int64_t b = x->block;
  return k * b * b + (x->direction == DIRECTION_ROW ? r * b + c : c * b + r);
}

/* The distinct block columns of CSR block row I, ascending, in cols (at
 * most nb); their count. `seen` (nb ints, all -1) is left as it was. */
static int block_columns(const conversion *x, int I, int *cols, int *seen) {
  int count = 0;
  for (int r = I * x->block; r < (I + 1) * x->block && r < x->m; ++r)
    for (int k = x->csr_offsets[r] - x->csr_base;
         k < x->csr_offsets[r + 1] - x->csr_base; ++k) {
      int J = (x->csr_columns[k] - x->csr_base) / x->block;
      if (J >= 0 && J < x->nb && seen[J] != I) {
        seen[J] = I;
        cols[count++] = J;
      }
    }
  /* Ascending (insertion sort: rows of blocks are short). */
  for (int a = 1; a < count; ++a)
    for (int b = a; b > 0 && cols[b - 1] > cols[b]; --b) {
      int t = cols[b];
      cols[b] = cols[b - 1], cols[b - 1] = t;
    }
  return count;
}

static void run_csr2bsr_nnz(cuemu_sparse_op *op) {
  conversion *x = op->extra;
  int *cols = malloc(((size_t)x->nb + 1) * sizeof *cols);
  int *seen = malloc(((size_t)x->nb + 1) * sizeof *seen);
  if (!cols || !seen) {
    free(cols), free(seen);
    return;
  }
  for (int J = 0; J < x->nb; ++J)
    seen[J] = -1;
  int total = 0;
  x->bsr_offsets[0] = x->bsr_base;
  for (int I = 0; I < x->mb; ++I) {
    total += block_columns(x, I, cols, seen);
    x->bsr_offsets[I + 1] = total + x->bsr_base;
  }
  cuemu_rt_library_wrote(x->bsr_offsets, ((size_t)x->mb + 1) * sizeof(int));
  if (x->total) {
    *x->total = total;
    cuemu_rt_library_wrote(x->total, sizeof(int));
  }
  free(cols), free(seen);
}

static void run_csr2bsr(cuemu_sparse_op *op) {
  conversion *x = op->extra;
  int *cols = malloc(((size_t)x->nb + 1) * sizeof *cols);
  int *seen = malloc(((size_t)x->nb + 1) * sizeof *seen);
  int *slot = malloc(((size_t)x->nb + 1) * sizeof *slot);
  if (!cols || !seen || !slot) {
    free(cols), free(seen), free(slot);
    return;
  }
  int64_t bb = (int64_t)x->block * x->block;
  cuemu_sparse_value zero = {0, 0};
  for (int J = 0; J < x->nb; ++J)
    seen[J] = -1;
  for (int I = 0; I < x->mb; ++I) {
    int64_t first = x->bsr_offsets[I] - x->bsr_base;
    int count = block_columns(x, I, cols, seen);
    for (int c = 0; c < count; ++c) {
      x->bsr_columns[first + c] = cols[c] + x->bsr_base;
      slot[cols[c]] = c;
      for (int64_t e = 0; e < bb; ++e)
        cuemu__sparse_store(x->bsr_values, x->type, (first + c) * bb + e, zero);
    }
    for (int r = I * x->block; r < (I + 1) * x->block && r < x->m; ++r)
      for (int k = x->csr_offsets[r] - x->csr_base;
           k < x->csr_offsets[r + 1] - x->csr_base; ++k) {
        int col = x->csr_columns[k] - x->csr_base;
        if (col < 0 || col >= x->n)
          continue;
        int64_t at = in_block(x, first + slot[col / x->block], r % x->block,
                              col % x->block);
        cuemu__sparse_store(
            x->bsr_values, x->type, at,
            cuemu__sparse_add(cuemu__sparse_load(x->bsr_values, x->type, at),
                              cuemu__sparse_load(x->csr_values, x->type, k)));
      }
  }
  int64_t blocks = x->bsr_offsets[x->mb] - x->bsr_offsets[0];
  cuemu_rt_library_wrote(x->bsr_columns, (size_t)blocks * sizeof(int));
  cuemu_rt_library_wrote(x->bsr_values,
                         (size_t)(blocks * bb) * cuemu__sparse_value_size(x->type));
  free(cols), free(seen), free(slot);
}

/* Every element of every block, zeros included: row r of block row I
 * holds the blocks' r-th rows, one after another. */
static void run_bsr2csr(cuemu_sparse_op *op) {
  conversion *x = op->extra;
  int b = x->block;
  for (int I = 0; I < x->mb; ++I) {
    int64_t first = x->bsr_offsets[I] - x->bsr_base;
    int64_t count = x->bsr_offsets[I + 1] - x->bsr_base - first;
    for (int r = 0; r < b; ++r) {
      int64_t at = first * b * b + r * count * b;
      x->out_offsets[I * b + r] = (int)at + x->csr_base;
      for (int64_t c = 0; c < count; ++c)
        for (int j = 0; j < b; ++j, ++at) {
          int J = x->bsr_columns[first + c] - x->bsr_base;
          x->out_columns[at] = J * b + j + x->csr_base;
          cuemu__sparse_store(
              x->out_values, x->type, at,
              cuemu__sparse_load(x->bsr_values, x->type,
                                 in_block(x, first + c, r, j)));
        }
    }
  }
  int64_t nnz = (int64_t)(x->bsr_offsets[x->mb] - x->bsr_offsets[0]) * b * b;
  x->out_offsets[x->mb * b] = (int)nnz + x->csr_base;
  cuemu_rt_library_wrote(x->out_offsets,
                         ((size_t)x->mb * b + 1) * sizeof(int));
  cuemu_rt_library_wrote(x->out_columns, (size_t)nnz * sizeof(int));
  cuemu_rt_library_wrote(x->out_values,
                         (size_t)nnz * cuemu__sparse_value_size(x->type));
}

/* The checks every conversion makes. */
static cusparseStatus_t conversion_check(cusparseHandle_t h, int direction,
                                         int rows, int cols, int block,
                                         const struct cusparseMatDescr *da,
                                         const struct cusparseMatDescr *dc) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if ((direction != DIRECTION_ROW && direction != DIRECTION_COLUMN) ||
      rows < 0 || cols < 0 || block < 1 || bad_descriptor(da) ||
      bad_descriptor(dc))
    return BAD;
  if (da->type != CUSPARSE_MATRIX_TYPE_GENERAL ||
      dc->type != CUSPARSE_MATRIX_TYPE_GENERAL)
    return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  return OK;
}

static int device(const char *name, const char *arg, const void *p,
                  int64_t count, size_t e) {
  return cuemu__libs_device_range(name, arg, p,
                                  count > 0 ? (size_t)count * e : 0);
}

E cusparseStatus_t cusparseXcsr2bsrNnz(
    cusparseHandle_t h, int direction, int m, int n,
    const struct cusparseMatDescr *da, const int *offsets, const int *columns,
    int block, const struct cusparseMatDescr *dc, int *bsr_offsets,
    int *total) {
  static const char name[] = "cusparseXcsr2bsrNnz";
  cusparseStatus_t s = conversion_check(h, direction, m, n, block, da, dc);
  if (s != OK)
    return s;
  int mb = (m + block - 1) / block;
  if (!offsets || !bsr_offsets)
    return BAD;
  if (!device(name, "csrSortedRowPtrA", offsets, m + 1, sizeof(int)) ||
      !device(name, "bsrSortedRowPtrC", bsr_offsets, mb + 1, sizeof(int)))
    return OK;
  conversion x = {.direction = direction, .block = block, .m = m, .n = n,
                  .mb = mb, .nb = (n + block - 1) / block,
                  .csr_base = da->base, .bsr_base = dc->base,
                  .csr_offsets = offsets, .csr_columns = columns,
                  .bsr_offsets = bsr_offsets, .total = total};
  return cuemu__sparse_submit_scalars(h, name, run_csr2bsr_nnz, &x, sizeof x,
                                      NULL, NULL, 0, total);
}

static cusparseStatus_t csr2bsr(cusparseHandle_t h, int type, int direction,
                                int m, int n, const struct cusparseMatDescr *da,
                                const void *values, const int *offsets,
                                const int *columns, int block,
                                const struct cusparseMatDescr *dc,
                                void *bsr_values, int *bsr_offsets,
                                int *bsr_columns) {
  static const char name[] = "cusparse?csr2bsr";
  cusparseStatus_t s = conversion_check(h, direction, m, n, block, da, dc);
  if (s != OK)
    return s;
  if (!offsets || !bsr_offsets)
    return BAD;
  conversion x = {.type = type, .direction = direction, .block = block,
                  .m = m, .n = n, .mb = (m + block - 1) / block,
                  .nb = (n + block - 1) / block, .csr_base = da->base,
                  .bsr_base = dc->base, .csr_values = values,
                  .csr_offsets = offsets, .csr_columns = columns,
                  .bsr_values = bsr_values, .bsr_offsets = bsr_offsets,
                  .bsr_columns = bsr_columns};
  if (!device(name, "csrSortedRowPtrA", offsets, m + 1, sizeof(int)) ||
      !device(name, "bsrSortedRowPtrC", bsr_offsets, x.mb + 1, sizeof(int)))
    return OK;
  return cuemu__sparse_submit_scalars(h, name, run_csr2bsr, &x, sizeof x, NULL,
                                      NULL, type, NULL);
}

static cusparseStatus_t bsr2csr(cusparseHandle_t h, int type, int direction,
                                int mb, int nb,
                                const struct cusparseMatDescr *da,
                                const void *values, const int *offsets,
                                const int *columns, int block,
                                const struct cusparseMatDescr *dc,
                                void *csr_values, int *csr_offsets,
                                int *csr_columns) {
  static const char name[] = "cusparse?bsr2csr";
  cusparseStatus_t s = conversion_check(h, direction, mb, nb, block, da, dc);
  if (s != OK)
    return s;
  if (!offsets || !csr_offsets)
    return BAD;
  if (!device(name, "bsrSortedRowPtrA", offsets, mb + 1, sizeof(int)) ||
      !device(name, "csrSortedRowPtrC", csr_offsets, (int64_t)mb * block + 1,
              sizeof(int)))
    return OK;
  conversion x = {.type = type, .direction = direction, .block = block,
                  .mb = mb, .nb = nb, .csr_base = dc->base,
                  .bsr_base = da->base, .bsr_values = (void *)values,
                  .bsr_offsets = (int *)offsets, .bsr_columns = (int *)columns,
                  .out_values = csr_values, .out_offsets = csr_offsets,
                  .out_columns = csr_columns};
  return cuemu__sparse_submit_scalars(h, name, run_bsr2csr, &x, sizeof x, NULL,
                                      NULL, type, NULL);
}

/* ---- The products, through the generic API --------------------------------
 */

/* The generic descriptor of a legacy BSR matrix's arrays (mb x nb blocks
 * of block x block), or an error status. */
static cusparseStatus_t bsr_matrix(int type, int direction, int mb, int nb,
                                   int nnzb, const struct cusparseMatDescr *d,
                                   const void *values, const int *offsets,
                                   const int *columns, int block,
                                   cuemu_sparse_spmat *a) {
  if ((direction != DIRECTION_ROW && direction != DIRECTION_COLUMN) || mb < 0 ||
      nb < 0 || nnzb < 0 || block < 1 || bad_descriptor(d) || !offsets ||
      (nnzb > 0 && (!values || !columns)))
    return BAD;
  if (d->type != CUSPARSE_MATRIX_TYPE_GENERAL)
    return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  memset(a, 0, sizeof *a);
  a->format = CUSPARSE_FORMAT_BSR;
  a->rows = (int64_t)mb * block, a->cols = (int64_t)nb * block;
  a->nnz = (int64_t)nnzb * block * block;
  a->blocks = nnzb, a->block_rows = a->block_cols = block;
  a->block_order =
      direction == DIRECTION_ROW ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
  a->offsets = (void *)offsets, a->indices = (void *)columns;
  a->values = (void *)values;
  a->offset_type = a->index_type = CUSPARSE_INDEX_32I;
  a->base = d->base, a->type = type, a->batch_count = 1;
  return OK;
}

static cusparseStatus_t bsrmv(cusparseHandle_t h, int type, int direction,
                              int op, int mb, int nb, int nnzb,
                              const void *alpha,
                              const struct cusparseMatDescr *d,
                              const void *values, const int *offsets,
                              const int *columns, int block, const void *x,
                              const void *beta, void *y) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  /* As cuSPARSE documents it: A only, not transposed. */
  if (op != CUSPARSE_OPERATION_NON_TRANSPOSE)
    return cuemu__sparse_unsupported("cusparse?bsrmv", "op(A) other than A");
  cuemu_sparse_spmat a;
  cusparseStatus_t s = bsr_matrix(type, direction, mb, nb, nnzb, d, values,
                                  offsets, columns, block, &a);
  if (s != OK)
    return s;
  cuemu_sparse_dnvec vx = {a.cols, (void *)x, type}, vy = {a.rows, y, type};
  return cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, &a, &vx,
                      beta, &vy, type, 0, NULL);
}

static cusparseStatus_t bsrmm(cusparseHandle_t h, int type, int direction,
                              int op_a, int op_b, int mb, int n, int kb,
                              int nnzb, const void *alpha,
                              const struct cusparseMatDescr *d,
                              const void *values, const int *offsets,
                              const int *columns, int block, const void *b,
                              int ldb, const void *beta, void *c, int ldc) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (op_a != CUSPARSE_OPERATION_NON_TRANSPOSE ||
      op_b == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    return cuemu__sparse_unsupported("cusparse?bsrmm",
                                     "op(A) other than A, or op(B) = B^H");
  cuemu_sparse_spmat a;
  cusparseStatus_t s = bsr_matrix(type, direction, mb, kb, nnzb, d, values,
                                  offsets, columns, block, &a);
  if (s != OK)
    return s;
  if (n < 0)
    return BAD;
  /* op(B) is k x n; B itself n x k when transposed; column-major. */
  int transposed = op_b == CUSPARSE_OPERATION_TRANSPOSE;
  cuemu_sparse_dnmat mb_ = {transposed ? n : a.cols, transposed ? a.cols : n,
                            ldb, (void *)b, type, CUSPARSE_ORDER_COL, 1, 0};
  cuemu_sparse_dnmat mc = {a.rows, n, ldc, c, type, CUSPARSE_ORDER_COL, 1, 0};
  return cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, op_b, alpha, &a,
                      &mb_, beta, &mc, type, 0, NULL);
}

/* P the prefix, T the element type (void for the complex ones), TYPE its
 * cudaDataType. */
#define BSR_API(P, T, TYPE)                                                    \
  E cusparseStatus_t cusparse##P##csr2bsr(                                     \
      cusparseHandle_t h, int direction, int m, int n,                         \
      const struct cusparseMatDescr *da, const T *values, const int *offsets,  \
      const int *columns, int block, const struct cusparseMatDescr *dc,        \
      T *bsr_values, int *bsr_offsets, int *bsr_columns) {                     \
    return csr2bsr(h, TYPE, direction, m, n, da, values, offsets, columns,     \
                   block, dc, bsr_values, bsr_offsets, bsr_columns);           \
  }                                                                            \
  E cusparseStatus_t cusparse##P##bsr2csr(                                     \
      cusparseHandle_t h, int direction, int mb, int nb,                       \
      const struct cusparseMatDescr *da, const T *values, const int *offsets,  \
      const int *columns, int block, const struct cusparseMatDescr *dc,        \
      T *csr_values, int *csr_offsets, int *csr_columns) {                     \
    return bsr2csr(h, TYPE, direction, mb, nb, da, values, offsets, columns,   \
                   block, dc, csr_values, csr_offsets, csr_columns);           \
  }                                                                            \
  E cusparseStatus_t cusparse##P##bsrmv(                                       \
      cusparseHandle_t h, int direction, int op, int mb, int nb, int nnzb,     \
      const T *alpha, const struct cusparseMatDescr *d, const T *values,       \
      const int *offsets, const int *columns, int block, const T *x,           \
      const T *beta, T *y) {                                                   \
    return bsrmv(h, TYPE, direction, op, mb, nb, nnzb, alpha, d, values,       \
                 offsets, columns, block, x, beta, y);                         \
  }                                                                            \
  E cusparseStatus_t cusparse##P##bsrmm(                                       \
      cusparseHandle_t h, int direction, int op_a, int op_b, int mb, int n,    \
      int kb, int nnzb, const T *alpha, const struct cusparseMatDescr *d,      \
      const T *values, const int *offsets, const int *columns, int block,      \
      const T *b, int ldb, const T *beta, T *c, int ldc) {                     \
    return bsrmm(h, TYPE, direction, op_a, op_b, mb, n, kb, nnzb, alpha, d,    \
                 values, offsets, columns, block, b, ldb, beta, c, ldc);       \
  }

BSR_API(S, float, CUEMU_R_32F)
BSR_API(D, double, CUEMU_R_64F)
BSR_API(C, void, CUEMU_C_32F)
BSR_API(Z, void, CUEMU_C_64F)
