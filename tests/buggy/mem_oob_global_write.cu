// mem_oob_global_write.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds write global line 11
#include <cstdio>
#include <cuda_runtime.h>

/* The bounds test is off by one. */
__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    a[i] = i;
}

int main() {
  int *d;
  cudaMalloc(&d, 100 * sizeof(int));
  fill<<<1, 128>>>(d, 100);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
