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
                           const void *src, int64_t lds, void *dst,
                           int64_t ldd, int async, void *stream) {
  size_t width = (size_t)(rows * es), sp = (size_t)(lds * es),
         dp = (size_t)(ldd * es);
  int e = async ? cuemu_rt_memcpy_2d_async(dst, dp, src, sp, width,
                                           (size_t)cols, COPY_DEFAULT, stream)
                : cuemu_rt_memcpy_2d(dst, dp, src, sp, width, (size_t)cols,
                                     COPY_DEFAULT);
  return e == 0 ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}

static cublasStatus_t vector(int n, int es, const void *x, int incx, void *y,
                             int incy, int async, void *stream) {
  if (n < 0 || es <= 0 || incx <= 0 || incy <= 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0)
    return CUBLAS_STATUS_SUCCESS;
  /* A vector is a matrix of one-element rows, inc elements apart. */
  return copy(1, n, es, x, incx, y, incy, async, stream);
}

static cublasStatus_t matrix(int rows, int cols, int es, const void *A,
                             int lda, void *B, int ldb, int async,
                             void *stream) {
  if (rows < 0 || cols < 0 || es <= 0 || lda < (rows > 1 ? rows : 1) ||
      ldb < (rows > 1 ? rows : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (rows == 0 || cols == 0)
    return CUBLAS_STATUS_SUCCESS;
  return copy(rows, cols, es, A, lda, B, ldb, async, stream);
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasSetVector(int n, int es, const void *x,
                                                 int incx, void *y, int incy) {
  return vector(n, es, x, incx, y, incy, 0, NULL);
}
CUEMU_BLAS_EXPORT cublasStatus_t cublasGetVector(int n, int es, const void *x,
                                                 int incx, void *y, int incy) {
  return vector(n, es, x, incx, y, incy, 0, NULL);
}
CUEMU_BLAS_EXPORT cublasStatus_t cublasSetVectorAsync(int n, int es,
                                                      const void *x, int incx,
                                                      void *y, int incy,
                                                      void *stream) {
  return vector(n, es, x, incx, y, incy, 1, stream);
}
CUEMU_BLAS_EXPORT cublasStatus_t cublasGetVectorAsync(int n, int es,
                                                      const void *x, int incx,
                                                      void *y, int incy,
                                                      void *stream) {
  return vector(n, es, x, incx, y, incy, 1, stream);
}
CUEMU_BLAS_EXPORT cublasStatus_t cublasSetMatrix(int rows, int cols, int es,
                                                 const void *A, int lda,
                                                 void *B, int ldb) {
  return matrix(rows, cols, es, A, lda, B, ldb, 0, NULL);
}
CUEMU_BLAS_EXPORT cublasStatus_t cublasGetMatrix(int rows, int cols, int es,
                                                 const void *A, int lda,
                                                 void *B, int ldb) {
  return matrix(rows, cols, es, A, lda, B, ldb, 0, NULL);
}
CUEMU_BLAS_EXPORT cublasStatus_t cublasSetMatrixAsync(int rows, int cols,
                                                      int es, const void *A,
                                                      int lda, void *B,
                                                      int ldb, void *stream) {
  return matrix(rows, cols, es, A, lda, B, ldb, 1, stream);
}
CUEMU_BLAS_EXPORT cublasStatus_t cublasGetMatrixAsync(int rows, int cols,
                                                      int es, const void *A,
                                                      int lda, void *B,
                                                      int ldb, void *stream) {
  return matrix(rows, cols, es, A, lda, B, ldb, 1, stream);
}
