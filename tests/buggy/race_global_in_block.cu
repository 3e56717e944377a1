// race_global_in_block.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW line 12 line 11
#include <cstdio>
#include <cuda_runtime.h>

/* Global memory is ordered within a block only by barriers, too. */
__global__ void smooth(float *data) {
  unsigned t = threadIdx.x;
  data[t] = (float)t;
  float left = t ? data[t - 1] : 0.0f;
  data[t] += left;
}

int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  smooth<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
