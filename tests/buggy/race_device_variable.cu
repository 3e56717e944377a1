// race_device_variable.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAW scratch line 15 line 15
#include <cstdio>
#include <cuda_runtime.h>

/* Every thread stages its three inputs in one namespace-scope __device__
 * array that host code never names (no cudaMemcpyToSymbol), then reads them
 * back: the threads of different blocks overwrite each other's values. A
 * particle swarm's pBest update did this (public code, trial pub11). */
__device__ float scratch[3];

__global__ void stage(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 3; j++) scratch[j] = in[i + j];
  out[i] = scratch[0] + scratch[1] + scratch[2];
}

int main() {
  float h[66], *in, *out;
  for (int i = 0; i < 66; i++) h[i] = (float)i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  stage<<<2, 32>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
