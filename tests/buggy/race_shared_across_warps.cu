// race_shared_across_warps.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAR line 14 line 12
#include <cstdio>
#include <cuda_runtime.h>

/* __syncwarp orders the lanes of one warp only: warp 0 reads what warp 1
 * writes with no block barrier between. */
__global__ void cross_warp(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = (int)t;
  __syncwarp();
  out[t] = s[(t + 32) % 64];
}

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  cross_warp<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
