/*
 * managed_rdc_cuda12.cu: __managed__ variables in a separately compiled
 * (-rdc=true) program, used by a kernel, a device function and the host.
 * (The CUDA 12 forms of cudaMemPrefetchAsync and cudaMemAdvise, with a
 * device ordinal, are refused as CUDA 13's headers refuse them:
 * tests/driver_host_refusals.sh.) Prints PASS when all is well.
 * CUEMU_OPTIONS: -rdc=true
 * NVCC_OPTIONS: -rdc=true
 */
#include <cstdio>

#include <cuda_runtime.h>

#include "../check.cuh"

__managed__ unsigned long long histogram[8];
__managed__ int samples = 0;

__device__ void count(int value) {
  atomicAdd(&histogram[value & 7], 1ull);
  atomicAdd(&samples, 1);
}

__global__ void classify(const int *values, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    count(values[i]);
}

int main() {
  const int n = 10000;
  int *values = nullptr;
  CHECK(cudaMallocManaged(&values, n * sizeof *values) == cudaSuccess);
  unsigned long long expected[8] = {};
  for (int i = 0; i < n; ++i) {
    values[i] = i * 7 + 3;
    expected[values[i] & 7]++;
  }
  for (int b = 0; b < 8; ++b)
    histogram[b] = 0;
  classify<<<4, 128>>>(values, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(samples == n);
  for (int b = 0; b < 8; ++b)
    CHECK(histogram[b] == expected[b]);
  cudaPointerAttributes pa;
  CHECK(cudaPointerGetAttributes(&pa, values) == cudaSuccess &&
        pa.type == cudaMemoryTypeManaged);
  /* A __managed__ variable can be attached to a stream and prefetched. */
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaStreamAttachMemAsync(s, histogram) == cudaSuccess);
  cudaMemLocation host = {cudaMemLocationTypeHost, 0};
  CHECK(cudaMemPrefetchAsync(histogram, sizeof histogram, host, 0, s) ==
        cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);

  CHECK(cudaFree(values) == cudaSuccess);
  return finish();
}
