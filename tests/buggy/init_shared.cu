// init_shared.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// ENV: CUEMU_CHECK_SHARED_INIT=1
// EXPECT: init uninitialised shared line 15
#include <cstdio>
#include <cuda_runtime.h>

/* Only the first half of the tile is written before everyone reads. */
__global__ void half_filled(float *out) {
  __shared__ float tile[64];
  unsigned t = threadIdx.x;
  if (t < 32)
    tile[t] = (float)t;
  __syncthreads();
  out[t] = tile[t] * 2.0f;
}

int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  half_filled<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
