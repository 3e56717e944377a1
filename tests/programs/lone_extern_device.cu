/*
 * lone_extern_device.cu: without relocatable device code, an `extern`
 * declaration of a `__device__` or `__constant__` variable that nothing in
 * the unit defines is a definition of the unit's own variable, as nvcc
 * treats it (its warning #20044-D): the program links, kernels and the
 * symbol copies reach the same zero-initialised object. cuemu's build
 * failed with an undefined reference.
 */
#include "check.cuh"

extern __device__ int arrivals;
extern __constant__ float weights[4];

__global__ void weigh(float *out) {
  atomicAdd(&arrivals, 1);
  out[threadIdx.x] = weights[threadIdx.x % 4] * threadIdx.x;
}

int main() {
  const float w[4] = {0.5f, 1.0f, 2.0f, 4.0f};
  int before = -1, after = -1;
  float *out = nullptr;
  CHECK(cudaMallocManaged(&out, 32 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&before, arrivals, sizeof before) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(weights, w, sizeof w) == cudaSuccess);
  weigh<<<2, 32>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&after, arrivals, sizeof after) == cudaSuccess);
  CHECK(before == 0 && after == 64);
  for (int i = 0; i < 32; i++) CHECK(out[i] == w[i % 4] * i);
  return finish();
}
