/* version.cu: the smallest cuSOLVER program, for tests/programs_cusolver.sh
 * (NVIDIA's library named by its path) and its CMake project
 * (CUDA::cusolver): a handle, the version, one Cholesky factorization of
 * the 1 x 1 matrix [4] (the factor is 2).
 * NVCC_OPTIONS: -lcusolver */
#include <cstdio>

#include <cusolverDn.h>

int main() {
  cusolverDnHandle_t h;
  int v = 0;
  if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS ||
      cusolverGetVersion(&v) != CUSOLVER_STATUS_SUCCESS ||
      v != CUSOLVER_VERSION)
    return 1;
  double four = 4, *a, *work, factor = 0;
  int *info, lwork = 0, hinfo = -1;
  cudaMalloc(&a, sizeof(double));
  cudaMalloc(&info, sizeof(int));
  cudaMemcpy(a, &four, sizeof four, cudaMemcpyHostToDevice);
  cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, 1, a, 1, &lwork);
  cudaMalloc(&work, (lwork > 0 ? lwork : 1) * sizeof(double));
  if (cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, 1, a, 1, work, lwork, info) !=
      CUSOLVER_STATUS_SUCCESS)
    return 1;
  cudaMemcpy(&factor, a, sizeof factor, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost);
  cusolverDnDestroy(h);
  if (factor != 2 || hinfo != 0)
    return 1;
  std::printf("PASS\n");
  return 0;
}
