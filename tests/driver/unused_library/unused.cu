// A program whose link line names libraries it does not use, as the
// CMake helpers of library sample collections do (every cuSOLVER example
// linked with cusolverMg and cublasLt): cuSOLVER's dense API is used,
// cuSOLVERMg and NVBLAS are only named. nvcc links it and it runs.
#include <cstdio>
#include <cuda_runtime.h>
#include <cusolverDn.h>

__global__ void twice(int *v) { v[threadIdx.x] *= 2; }

int main() {
  cusolverDnHandle_t handle;
  if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS) {
    printf("FAIL: cusolverDnCreate\n");
    return 1;
  }
  int *v;
  cudaMallocManaged(&v, 4 * sizeof(int));
  for (int i = 0; i < 4; ++i)
    v[i] = i;
  twice<<<1, 4>>>(v);
  cudaDeviceSynchronize();
  int ok = v[3] == 6;
  cudaFree(v);
  cusolverDnDestroy(handle);
  printf("%s\n", ok ? "PASS" : "FAIL: twice");
  return ok ? 0 : 1;
}
