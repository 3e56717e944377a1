// mem_double_free.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem double free line 15
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(int *a) { a[threadIdx.x] = 1; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  touch<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  cudaFree(d);
  cudaError_t e = cudaFree(d);
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
