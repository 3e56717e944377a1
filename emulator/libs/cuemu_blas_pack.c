/*
 * cuemu_blas_pack.c: cublas<t>tpttr and cublas<t>trttp, the uplo triangle
 * of an n x n matrix from packed storage into full storage (leading
 * dimension lda; the other triangle untouched) and back
 * (cuemu_blas_shape).
 */
#include <stdlib.h>

#include "cuemu_blas.h"

typedef struct pack_op {
  cuemu_blas_op base;
  int t, to_packed;
  cuemu_blas_shape packed, full;
  void *AP, *A;
} pack_op;

static void run_pack(cuemu_blas_op *base) {
  pack_op *o = (pack_op *)base;
  size_t es = cuemu__blas_type_size(o->t);
  CUEMU_BLAS_FOR_STORED(&o->packed, o->packed.rows, i, j) {
    int64_t p = cuemu__blas_shape_at(&o->packed, i, j),
            f = cuemu__blas_shape_at(&o->full, i, j);
    if (o->to_packed)
      cuemu__blas_store(o->t, o->AP, p, cuemu__blas_load(o->t, o->A, f));
    else
      cuemu__blas_store(o->t, o->A, f, cuemu__blas_load(o->t, o->AP, p));
    /* The element stored, as the kernel's store (initcheck). */
    cuemu__blas_vector_wrote((char *)(o->to_packed ? o->AP : o->A) +
                                 (size_t)(o->to_packed ? p : f) * es,
                             1, 1, es);
  }
}

static cublasStatus_t pack(cublasHandle_t h, const char *name, int t,
                           int to_packed, int uplo, int64_t n, void *AP,
                           void *A, int64_t lda) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if ((uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER) ||
      n < 0 || lda < (n > 1 ? n : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0)
    return CUBLAS_STATUS_SUCCESS;
  pack_op *o = (pack_op *)cuemu__blas_op_new(sizeof *o, name, run_pack);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->t = t, o->to_packed = to_packed, o->AP = AP, o->A = A;
  o->packed = cuemu__blas_triangle(CUEMU_BLAS_PACKED, uplo, n, 0, 0);
  o->full = cuemu__blas_triangle(CUEMU_BLAS_FULL, uplo, n, 0, lda);
  size_t es = cuemu__blas_type_size(t);
  if (!cuemu__libs_device_range(name, "AP", AP,
                                cuemu__blas_shape_bytes(&o->packed, n, es)) ||
      !cuemu__libs_device_range(name, "A", A,
                                cuemu__blas_shape_bytes(&o->full, n, es))) {
    free(o);
    return CUBLAS_STATUS_SUCCESS;
  }
  return cuemu__blas_submit(h, &o->base);
}

#define CUEMU_TPTTR(NAME, T, TYPE, ...)                                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, int uplo, int n,     \
                                        const T *AP, T *A, int lda) {          \
    return pack(h, #NAME, TYPE, 0, uplo, n, (void *)AP, A, lda);               \
  }
#define CUEMU_TRTTP(NAME, T, TYPE, ...)                                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, int uplo, int n,     \
                                        const T *A, int lda, T *AP) {          \
    return pack(h, #NAME, TYPE, 1, uplo, n, AP, (void *)A, lda);               \
  }
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TPTTR, tpttr)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TRTTP, trttp)
