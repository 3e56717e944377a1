// race_shared_raw.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared RAW line 12 line 14
#include <cstdio>
#include <cuda_runtime.h>

/* Each thread reads its left neighbour's element without a barrier after
 * the writes. */
__global__ void shift_left(float *out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x;
  tile[t] = (float)t * 2.0f;
  /* missing __syncthreads() */
  out[t] = t ? tile[t - 1] : 0.0f;
}

int main() {
  float *d;
  cudaMalloc(&d, 128 * sizeof(float));
  shift_left<<<1, 128>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
