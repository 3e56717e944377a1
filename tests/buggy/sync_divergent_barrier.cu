// sync_divergent_barrier.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: sync
// EXPECT: sync divergent line 12 line 15
#include <cstdio>
#include <cuda_runtime.h>

/* Two halves of the block wait at different barriers. */
__global__ void split(int *out) {
  unsigned t = threadIdx.x;
  if (t < 16) {
    out[t] = 1;
    __syncthreads();
  } else {
    out[t] = 2;
    __syncthreads();
  }
}

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  split<<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
