/* version.cu: the smallest cuSPARSE program, for tests/programs_cusparse.sh
 * (NVIDIA's library named by its path) and its CMake project
 * (CUDA::cusparse): a handle, the version, one SpMV of a 1 x 1 matrix. */
#include <cstdio>

#include <cusparse.h>

int main() {
  cusparseHandle_t h;
  int v = 0;
  if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS ||
      cusparseGetVersion(h, &v) != CUSPARSE_STATUS_SUCCESS ||
      v != CUSPARSE_VERSION)
    return 1;
  int *rows, *cols;
  float *vals, *x;
  int hrows[2] = {0, 1}, hcols[1] = {0};
  float hv[2] = {3, 2};
  cudaMalloc(&rows, sizeof hrows);
  cudaMalloc(&cols, sizeof hcols);
  cudaMalloc(&vals, sizeof(float));
  cudaMalloc(&x, 2 * sizeof(float));
  cudaMemcpy(rows, hrows, sizeof hrows, cudaMemcpyHostToDevice);
  cudaMemcpy(cols, hcols, sizeof hcols, cudaMemcpyHostToDevice);
  cudaMemcpy(vals, hv, sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(x, hv, 2 * sizeof(float), cudaMemcpyHostToDevice);
  cusparseSpMatDescr_t a;
  cusparseDnVecDescr_t vx, vy;
  cusparseCreateCsr(&a, 1, 1, 1, rows, cols, vals, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseCreateDnVec(&vx, 1, x, CUDA_R_32F);
  cusparseCreateDnVec(&vy, 1, x + 1, CUDA_R_32F);
  float one = 1, zero = 0, y = 0;
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy,
               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, NULL);
  cudaMemcpy(&y, x + 1, sizeof(float), cudaMemcpyDeviceToHost);
  cusparseDestroy(h);
  if (y == 9)
    std::printf("PASS\n");
  return 0;
}
