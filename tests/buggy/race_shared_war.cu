// race_shared_war.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAR line 16 line 17
#include <cstdio>
#include <cuda_runtime.h>

/* Each thread reads its right neighbour's element, which that thread then
 * overwrites without a barrier in between. */
__global__ void shift_right(float *out) {
  __shared__ float tile[129];
  unsigned t = threadIdx.x;
  tile[t] = 1.0f;
  if (t == 0)
    tile[128] = 1.0f;
  __syncthreads();
  float v = tile[t + 1];
  tile[t] = v + 1.0f;
  out[t] = v;
}

int main() {
  float *d;
  cudaMalloc(&d, 128 * sizeof(float));
  shift_right<<<1, 128>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
