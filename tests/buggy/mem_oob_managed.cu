// mem_oob_managed.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds write global line 11
#include <cstdio>
#include <cuda_runtime.h>

/* Managed memory, written one element past its end. */
__global__ void count_up(unsigned *c, unsigned n) {
  unsigned i = threadIdx.x;
  if (i < n + 1)
    c[i] = i;
}

int main() {
  unsigned *c;
  cudaMallocManaged(&c, 48 * sizeof(unsigned));
  count_up<<<1, 64>>>(c, 48);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
