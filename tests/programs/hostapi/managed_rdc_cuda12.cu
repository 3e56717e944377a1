/*
 * managed_rdc_cuda12.cu: __managed__ variables in a separately compiled
 * (-rdc=true) program, used by a kernel, a device function and the host;
 * and, where cuemu builds it, the CUDA 12 forms of cudaMemPrefetchAsync and
 * cudaMemAdvise (a device ordinal), which the CUDA 13 headers no longer
 * have: cuemu keeps them, deprecated, so that a CUDA 12 program builds.
 * Prints PASS when all is well.
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

#if defined(__CUEMU__) && CUDART_VERSION >= 13000
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  /* The CUDA 12 forms, as a CUDA 12 program calls them. */
  CHECK(cudaMemPrefetchAsync(values, n * sizeof *values, 0) == cudaSuccess);
  int where = -5;
  CHECK(cudaMemRangeGetAttribute(&where, sizeof where,
                                 cudaMemRangeAttributeLastPrefetchLocation,
                                 values, n * sizeof *values) == cudaSuccess);
  CHECK(where == 0);
  CHECK(cudaMemPrefetchAsync(values, n * sizeof *values, cudaCpuDeviceId,
                             0) == cudaSuccess);
  CHECK(cudaMemAdvise(values, n * sizeof *values,
                      cudaMemAdviseSetPreferredLocation,
                      cudaCpuDeviceId) == cudaSuccess);
  CHECK(cudaMemRangeGetAttribute(&where, sizeof where,
                                 cudaMemRangeAttributePreferredLocation,
                                 values, n * sizeof *values) == cudaSuccess);
  CHECK(where == cudaCpuDeviceId);
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemAdvise_v2(values, 64, cudaMemAdviseSetAccessedBy, gpu) ==
        cudaSuccess);
  CHECK(cudaMemPrefetchAsync_v2(values, 64, gpu, 0, 0) == cudaSuccess);
#pragma GCC diagnostic pop
#endif
  CHECK(cudaFree(values) == cudaSuccess);
  return finish();
}
