// race_shared_device_function.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAR line 12 line 9
#include <cstdio>
#include <cuda_runtime.h>

/* The race is inside __device__ helpers called by the kernel. */
__device__ void publish(float *slot, float v) {
  *slot = v;
}
__device__ float neighbour(const float *row, unsigned t) {
  return row[t ^ 1u];
}
__global__ void pairs(float *out) {
  __shared__ float row[64];
  unsigned t = threadIdx.x;
  publish(&row[t], (float)t);
  out[t] = neighbour(row, t);
}

int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  pairs<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
