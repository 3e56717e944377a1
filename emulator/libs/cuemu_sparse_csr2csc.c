/*
 * cuemu_sparse_csr2csc.c: cuSPARSE's transposition of a CSR matrix into CSC
 * (the same as CSR of its transpose), cusparseCsr2cscEx2 and its
 * bufferSize: 32-bit indices, the values copied byte for byte (any value
 * type of a known size) or not at all (CUSPARSE_ACTION_SYMBOLIC); the row
 * indices of each column come out ascending. Runs in the handle's stream's
 * order (cuemu_sparse.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cuemu_libs.h"
#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define BAD CUSPARSE_STATUS_INVALID_VALUE

enum { ACTION_SYMBOLIC = 0, ACTION_NUMERIC = 1, CSR2CSC_ALG1 = 1 };

/* The bytes of one value of a cudaDataType cusparseCsr2cscEx2 copies: the
 * 8-, 16-, 32- and 64-bit real and complex types; 0 for the others. */
static size_t copy_size(int type) {
  switch (type) {
  case 3:  /* CUDA_R_8I */
    return 1;
  case 2:  /* CUDA_R_16F */
  case 14: /* CUDA_R_16BF */
  case 7:  /* CUDA_C_8I */
    return 2;
  case 0:  /* CUDA_R_32F */
  case 6:  /* CUDA_C_16F */
  case 15: /* CUDA_C_16BF */
  case 10: /* CUDA_R_32I */
    return 4;
  case 1:  /* CUDA_R_64F */
  case 4:  /* CUDA_C_32F */
    return 8;
  case 5: /* CUDA_C_64F */
    return 16;
  }
  return 0;
}

typedef struct {
  int m, n, nnz, base;
  size_t value_size; /* 0: symbolic */
  const int *row_ptr, *col_ind;
  const void *csr_val;
  int *col_ptr, *row_ind;
  void *csc_val;
} transpose;

static void run_csr2csc(cuemu_sparse_op *op) {
  transpose *t = op->extra;
  int *next = calloc((size_t)t->n + 1, sizeof *next);
  if (!next)
    return;
  /* Counts per column, their prefix sums the offsets; then each element in
   * row order to the next place of its column. */
  for (int k = 0; k < t->nnz; ++k)
    ++next[t->col_ind[k] - t->base + 1];
  for (int j = 0; j < t->n; ++j)
    next[j + 1] += next[j];
  for (int j = 0; j <= t->n; ++j)
    t->col_ptr[j] = next[j] + t->base;
  for (int i = 0; i < t->m; ++i)
    for (int k = t->row_ptr[i] - t->base; k < t->row_ptr[i + 1] - t->base; ++k) {
      int at = next[t->col_ind[k] - t->base]++;
      t->row_ind[at] = i + t->base;
      if (t->value_size)
        memcpy((char *)t->csc_val + (size_t)at * t->value_size,
               (const char *)t->csr_val + (size_t)k * t->value_size,
               t->value_size);
    }
  /* The CSC arrays are written, as the kernels' stores (initcheck). */
  cuemu_rt_library_wrote(t->col_ptr, ((size_t)t->n + 1) * sizeof *t->col_ptr);
  cuemu_rt_library_wrote(t->row_ind, (size_t)t->nnz * sizeof *t->row_ind);
  if (t->value_size)
    cuemu_rt_library_wrote(t->csc_val, (size_t)t->nnz * t->value_size);
  free(next);
}

static cusparseStatus_t csr2csc_check(cusparseHandle_t h, int m, int n, int nnz,
                                      const void *csr_val, const int *row_ptr,
                                      const int *col_ind, const void *csc_val,
                                      const int *col_ptr, const int *row_ind,
                                      int type, int action, int base, int alg) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || nnz < 0 || (action != ACTION_SYMBOLIC &&
                                    action != ACTION_NUMERIC) ||
      (base != CUSPARSE_INDEX_BASE_ZERO && base != CUSPARSE_INDEX_BASE_ONE) ||
      alg != CSR2CSC_ALG1 || !row_ptr || !col_ptr ||
      (nnz > 0 && (!col_ind || !row_ind)) ||
      (nnz > 0 && action == ACTION_NUMERIC && (!csr_val || !csc_val)))
    return BAD;
  if (action == ACTION_NUMERIC && !copy_size(type))
    return cuemu__sparse_unsupported("cusparseCsr2cscEx2",
                                     "this value type");
  return CUSPARSE_STATUS_SUCCESS;
}

E cusparseStatus_t cusparseCsr2cscEx2_bufferSize(
    cusparseHandle_t h, int m, int n, int nnz, const void *csr_val,
    const int *row_ptr, const int *col_ind, void *csc_val, int *col_ptr,
    int *row_ind, int type, int action, int base, int alg, size_t *size) {
  cusparseStatus_t s = csr2csc_check(h, m, n, nnz, csr_val, row_ptr, col_ind,
                                     csc_val, col_ptr, row_ind, type, action,
                                     base, alg);
  if (s == CUSPARSE_STATUS_SUCCESS && !size)
    return BAD;
  if (s == CUSPARSE_STATUS_SUCCESS)
    *size = 0; /* cuemu computes in host memory of its own */
  return s;
}

E cusparseStatus_t cusparseCsr2cscEx2(cusparseHandle_t h, int m, int n, int nnz,
                                      const void *csr_val, const int *row_ptr,
                                      const int *col_ind, void *csc_val,
                                      int *col_ptr, int *row_ind, int type,
                                      int action, int base, int alg,
                                      void *buffer) {
  (void)buffer;
  cusparseStatus_t s = csr2csc_check(h, m, n, nnz, csr_val, row_ptr, col_ind,
                                     csc_val, col_ptr, row_ind, type, action,
                                     base, alg);
  if (s != CUSPARSE_STATUS_SUCCESS)
    return s;
  const char *name = "cusparseCsr2cscEx2";
  size_t vs = action == ACTION_NUMERIC ? copy_size(type) : 0;
  if (!cuemu__libs_device_range(name, "csrRowPtr", row_ptr,
                                (size_t)(m + 1) * sizeof(int)) ||
      !cuemu__libs_device_range(name, "csrColInd", col_ind,
                                (size_t)nnz * sizeof(int)) ||
      !cuemu__libs_device_range(name, "cscColPtr", col_ptr,
                                (size_t)(n + 1) * sizeof(int)) ||
      !cuemu__libs_device_range(name, "cscRowInd", row_ind,
                                (size_t)nnz * sizeof(int)) ||
      !cuemu__libs_device_range(name, "csrVal", csr_val, (size_t)nnz * vs) ||
      !cuemu__libs_device_range(name, "cscVal", csc_val, (size_t)nnz * vs))
    return CUSPARSE_STATUS_SUCCESS;
  transpose t = {m,       n,       nnz,     base,   vs,
                 row_ptr, col_ind, csr_val, col_ptr, row_ind, csc_val};
  return cuemu__sparse_submit_copy(h, name, run_csr2csc, &t, sizeof t);
}
