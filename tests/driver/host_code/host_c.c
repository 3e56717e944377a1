/* host_c.c: a C program that the host compiler compiles itself, as
 * NVIDIA's cuSPARSE samples are compiled (CMake's C language), including
 * the libraries' headers from the toolkit's include folder: cuComplex's
 * functions (C's static inline functions), a CSR SpMV with cuSPARSE's
 * generic API in single-precision complex, checked against the same
 * product on the host, and a cuBLAS dot product. */
#include <math.h>
#include <stdio.h>

#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <cusparse.h>

static int failures = 0;

static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

int main(void) {
  /* cuComplex: CUDA's algorithms, without overflow for large parts. */
  cuDoubleComplex big = make_cuDoubleComplex(3e200, 4e200);
  expect(fabs(cuCabs(big) / 5e200 - 1.0) < 1e-15, "cuCabs of a large value");
  cuFloatComplex q = cuCdivf(make_cuFloatComplex(1.0f, 2.0f), make_cuFloatComplex(3.0f, -4.0f));
  expect(fabsf(cuCrealf(q) + 0.2f) < 1e-6f && fabsf(cuCimagf(q) - 0.4f) < 1e-6f, "cuCdivf");
  cuFloatComplex f = cuCfmaf(make_cuComplex(1.0f, 1.0f), make_cuComplex(2.0f, -1.0f),
                             make_cuComplex(0.5f, 0.5f));
  expect(cuCrealf(f) == 3.5f && cuCimagf(f) == 1.5f, "cuCfmaf");

  /* y = A x, A 3 x 3 in CSR with complex values. */
  int offsets[] = {0, 2, 3, 5};
  int columns[] = {0, 2, 1, 0, 2};
  cuFloatComplex values[] = {{1, 1}, {2, 0}, {0, 3}, {-1, 2}, {4, -1}};
  cuFloatComplex x[] = {{1, 0}, {0, 1}, {2, 2}};
  cuFloatComplex y[3], want[3];
  for (int r = 0; r < 3; ++r) {
    want[r] = make_cuFloatComplex(0, 0);
    for (int k = offsets[r]; k < offsets[r + 1]; ++k)
      want[r] = cuCaddf(want[r], cuCmulf(values[k], x[columns[k]]));
  }
  int *d_offsets, *d_columns;
  cuFloatComplex *d_values, *d_x, *d_y;
  cudaMalloc((void **)&d_offsets, sizeof offsets);
  cudaMalloc((void **)&d_columns, sizeof columns);
  cudaMalloc((void **)&d_values, sizeof values);
  cudaMalloc((void **)&d_x, sizeof x);
  cudaMalloc((void **)&d_y, sizeof y);
  cudaMemcpy(d_offsets, offsets, sizeof offsets, cudaMemcpyHostToDevice);
  cudaMemcpy(d_columns, columns, sizeof columns, cudaMemcpyHostToDevice);
  cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice);
  cusparseHandle_t sparse;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  expect(cusparseCreate(&sparse) == CUSPARSE_STATUS_SUCCESS, "cusparseCreate");
  cusparseCreateCsr(&A, 3, 3, 5, d_offsets, d_columns, d_values, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_C_32F);
  cusparseCreateDnVec(&vx, 3, d_x, CUDA_C_32F);
  cusparseCreateDnVec(&vy, 3, d_y, CUDA_C_32F);
  cuFloatComplex alpha = {1, 0}, beta = {0, 0};
  size_t bytes = 0;
  void *buffer = NULL;
  cusparseSpMV_bufferSize(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy,
                          CUDA_C_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
  cudaMalloc(&buffer, bytes ? bytes : 1);
  expect(cusparseSpMV(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy,
                      CUDA_C_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer) == CUSPARSE_STATUS_SUCCESS,
         "cusparseSpMV");
  cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost);
  for (int r = 0; r < 3; ++r)
    expect(cuCabsf(cuCsubf(y[r], want[r])) < 1e-6f, "the SpMV's result");
  cusparseDestroySpMat(A);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroy(sparse);

  /* A cuBLAS call from C: x . x over the real parts. */
  cublasHandle_t blas;
  float dot = 0;
  expect(cublasCreate(&blas) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
  expect(cublasSdot(blas, 3, (const float *)d_x, 2, (const float *)d_x, 2, &dot) ==
             CUBLAS_STATUS_SUCCESS && dot == 5.0f, "cublasSdot");
  cublasDestroy(blas);
  cudaFree(buffer);
  cudaFree(d_offsets);
  cudaFree(d_columns);
  cudaFree(d_values);
  cudaFree(d_x);
  cudaFree(d_y);
  if (failures == 0)
    printf("PASS\n");
  return failures != 0;
}
