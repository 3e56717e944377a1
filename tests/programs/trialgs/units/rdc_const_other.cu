// rdc_const_other.cu: the second unit of rdc_const_globals.cu.
// NVCC_OPTIONS: -rdc=true -isystem sys
#include "rdc_const_tables.cuh"

// Both units define a kUnitTag of their own, with different values.
__device__ const int kUnitTag = 20;
// The definition of the header's extern declaration.
__device__ const int kOffset = 100;

__global__ void other_sum(float *out) {
  out[0] = kFilterTaps[0] * kGain + kUnitTag + kOffset + kSysPrimes[2];
}

float other_unit_sum(int *tag) {
  float *d = nullptr, h = -1.0f;
  cudaMalloc(&d, sizeof(float));
  other_sum<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  cudaMemcpyFromSymbol(tag, kUnitTag, sizeof *tag);
  return h;
}
