/*
 * cuemu_blas_data.c: cublasSetVector, cublasGetVector, cublasSetMatrix,
 * cublasGetMatrix and their Async forms: strided copies between host and
 * device memory through the runtime's 2D copies (cudaMemcpy2D, and
 * cudaMemcpy2DAsync on the given stream, captured as such).
 */
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>

#include "cuemu_blas.h"

/* cudaMemcpyDefault: the direction from the pointers. */
enum { COPY_DEFAULT = 4 };

/* rows x cols elements of `es` bytes, ld elements apart in the source and
 * the destination. */
static cublasStatus_t copy(int64_t rows, int64_t cols, int64_t es,
                           const void *src, int64_t lds, void *dst, int64_t ldd,
                           int async, void *stream) {
  size_t width = (size_t)(rows * es), sp = (size_t)(lds * es),
         dp = (size_t)(ldd * es);
  int e = async ? cuemu_rt_memcpy_2d_async(dst, dp, src, sp, width,
                                           (size_t)cols, COPY_DEFAULT, stream)
                : cuemu_rt_memcpy_2d(dst, dp, src, sp, width, (size_t)cols,
                                     COPY_DEFAULT);
  return e == 0 ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}

static cublasStatus_t vector(int64_t n, int64_t es, const void *x, int64_t incx,
                             void *y, int64_t incy, int async, void *stream) {
  if (n < 0 || es <= 0 || incx <= 0 || incy <= 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0)
    return CUBLAS_STATUS_SUCCESS;
  /* A vector is a matrix of one-element rows, inc elements apart. */
  return copy(1, n, es, x, incx, y, incy, async, stream);
}

static cublasStatus_t matrix(int64_t rows, int64_t cols, int64_t es,
                             const void *A, int64_t lda, void *B, int64_t ldb,
                             int async, void *stream) {
  if (rows < 0 || cols < 0 || es <= 0 || lda < (rows > 1 ? rows : 1) ||
      ldb < (rows > 1 ? rows : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (rows == 0 || cols == 0)
    return CUBLAS_STATUS_SUCCESS;
  return copy(rows, cols, es, A, lda, B, ldb, async, stream);
}

/* Each entry point with int sizes and its _64 form with int64_t sizes;
 * PARAM(stream) is the Async forms' stream parameter (nothing for the
 * others). */
#define CUEMU_BLAS_STREAM_PARAM(name) , void *name
#define CUEMU_BLAS_NO_PARAM(name)
#define CUEMU_BLAS_VECTOR_DEF(NAME, I, PARAM, STREAM, ASYNC)                   \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(I n, I es, const void *x, I incx,      \
                                        void *y, I incy PARAM(stream)) {       \
    return vector(n, es, x, incx, y, incy, ASYNC, STREAM);                     \
  }
#define CUEMU_BLAS_MATRIX_DEF(NAME, I, PARAM, STREAM, ASYNC)                   \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(I rows, I cols, I es, const void *A,   \
                                        I lda, void *B, I ldb PARAM(stream)) { \
    return matrix(rows, cols, es, A, lda, B, ldb, ASYNC, STREAM);              \
  }
CUEMU_BLAS_ILP64(CUEMU_BLAS_VECTOR_DEF, cublasSetVector, CUEMU_BLAS_NO_PARAM,
                 NULL, 0)
CUEMU_BLAS_ILP64(CUEMU_BLAS_VECTOR_DEF, cublasGetVector, CUEMU_BLAS_NO_PARAM,
                 NULL, 0)
CUEMU_BLAS_ILP64(CUEMU_BLAS_VECTOR_DEF, cublasSetVectorAsync,
                 CUEMU_BLAS_STREAM_PARAM, stream, 1)
CUEMU_BLAS_ILP64(CUEMU_BLAS_VECTOR_DEF, cublasGetVectorAsync,
                 CUEMU_BLAS_STREAM_PARAM, stream, 1)
CUEMU_BLAS_ILP64(CUEMU_BLAS_MATRIX_DEF, cublasSetMatrix, CUEMU_BLAS_NO_PARAM,
                 NULL, 0)
CUEMU_BLAS_ILP64(CUEMU_BLAS_MATRIX_DEF, cublasGetMatrix, CUEMU_BLAS_NO_PARAM,
                 NULL, 0)
CUEMU_BLAS_ILP64(CUEMU_BLAS_MATRIX_DEF, cublasSetMatrixAsync,
                 CUEMU_BLAS_STREAM_PARAM, stream, 1)
CUEMU_BLAS_ILP64(CUEMU_BLAS_MATRIX_DEF, cublasGetMatrixAsync,
                 CUEMU_BLAS_STREAM_PARAM, stream, 1)
