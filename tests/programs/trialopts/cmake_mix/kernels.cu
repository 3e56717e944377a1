// NVCC_OPTIONS: -rdc=true
#include "devmath.cuh"
#include "kernels.h"

__global__ void poly_kernel(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = poly(in[i]);
}

cudaError_t run_poly(const float *in, float *out, int n) {
  poly_kernel<<<(n + 255) / 256, 256>>>(in, out, n);
  return cudaDeviceSynchronize();
}

int poly_calls() {
  int h = -1;
  cudaMemcpyFromSymbol(&h, calls, sizeof h);
  return h;
}
