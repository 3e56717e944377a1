// mem_leak.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// ENV: CUEMU_CHECK_LEAKS=1
// EXPECT: mem leak line 12
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(int *a) { a[threadIdx.x] = 1; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  touch<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  /* d is never freed. */
  return 0;
}
