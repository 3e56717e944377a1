/*
 * managed_hints.cu: unified memory as CUDA 13 programs use it:
 * cudaMallocManaged and its flags, cudaMemPrefetchAsync with a
 * cudaMemLocation, cudaMemAdvise (read mostly, preferred location,
 * accessed by) read back with cudaMemRangeGetAttribute(s),
 * cudaStreamAttachMemAsync, and __managed__ variables used by kernels and
 * the host. Prints PASS when all is well.
 */
#include <cstdio>

#include <cuda_runtime.h>

#include "../check.cuh"

__managed__ int hits = 0;
__managed__ float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};

__global__ void scale_count(float *v, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = v[i] * k + table[i % 4];
    atomicAdd(&hits, 1);
  }
}

static int range_int(cudaMemRangeAttribute a, const void *p, size_t n) {
  int v = -99;
  CHECK(cudaMemRangeGetAttribute(&v, sizeof v, a, p, n) == cudaSuccess);
  return v;
}

int main() {
  const int n = 1000;
  int device = 0;
  CHECK(cudaGetDevice(&device) == cudaSuccess);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);

  float *v = nullptr;
  CHECK(cudaMallocManaged(&v, n * sizeof *v) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    v[i] = static_cast<float>(i);
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, device};
  cudaMemLocation cpu = {cudaMemLocationTypeHost, 0};

  /* Nothing prefetched or advised yet. */
  CHECK(range_int(cudaMemRangeAttributeLastPrefetchLocation, v,
                  n * sizeof *v) == cudaInvalidDeviceId);
  CHECK(range_int(cudaMemRangeAttributeReadMostly, v, n * sizeof *v) == 0);

  CHECK(cudaMemPrefetchAsync(v, n * sizeof *v, gpu, 0, s) == cudaSuccess);
  CHECK(range_int(cudaMemRangeAttributeLastPrefetchLocation, v,
                  n * sizeof *v) == device);
  CHECK(range_int(cudaMemRangeAttributeLastPrefetchLocationType, v,
                  n * sizeof *v) == cudaMemLocationTypeDevice);
  scale_count<<<(n + 127) / 128, 128, 0, s>>>(v, n, 2.0f);
  CHECK(cudaMemPrefetchAsync(v, n * sizeof *v, cpu, 0, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && v[i] == 2.0f * i + (i % 4 + 1);
  CHECK(ok);
  CHECK(hits == n);
  CHECK(range_int(cudaMemRangeAttributeLastPrefetchLocation, v,
                  n * sizeof *v) == cudaCpuDeviceId);
  /* Half prefetched back to the device: the whole range has no single
   * last location, each half has its own. */
  CHECK(cudaMemPrefetchAsync(v, n / 2 * sizeof *v, gpu, 0, s) ==
        cudaSuccess);
  CHECK(range_int(cudaMemRangeAttributeLastPrefetchLocation, v,
                  n * sizeof *v) == cudaInvalidDeviceId);
  CHECK(range_int(cudaMemRangeAttributeLastPrefetchLocation, v + n / 2,
                  n / 2 * sizeof *v) == cudaCpuDeviceId);

  /* Advice. */
  CHECK(cudaMemAdvise(v, n * sizeof *v, cudaMemAdviseSetReadMostly, gpu) ==
        cudaSuccess);
  CHECK(range_int(cudaMemRangeAttributeReadMostly, v, n * sizeof *v) == 1);
  CHECK(cudaMemAdvise(v, 16, cudaMemAdviseUnsetReadMostly, gpu) ==
        cudaSuccess);
  CHECK(range_int(cudaMemRangeAttributeReadMostly, v, n * sizeof *v) == 0);
  CHECK(range_int(cudaMemRangeAttributeReadMostly, v + 4, 64) == 1);
  CHECK(cudaMemAdvise(v, n * sizeof *v, cudaMemAdviseSetPreferredLocation,
                      gpu) == cudaSuccess);
  CHECK(range_int(cudaMemRangeAttributePreferredLocation, v, n * sizeof *v) ==
        device);
  CHECK(range_int(cudaMemRangeAttributePreferredLocationId, v,
                  n * sizeof *v) == device);
  CHECK(cudaMemAdvise(v, n * sizeof *v, cudaMemAdviseUnsetPreferredLocation,
                      gpu) == cudaSuccess);
  CHECK(range_int(cudaMemRangeAttributePreferredLocation, v, n * sizeof *v) ==
        cudaInvalidDeviceId);
  CHECK(cudaMemAdvise(v, n * sizeof *v, cudaMemAdviseSetAccessedBy, gpu) ==
        cudaSuccess);
  int accessed[3] = {7, 7, 7};
  CHECK(cudaMemRangeGetAttribute(accessed, sizeof accessed,
                                 cudaMemRangeAttributeAccessedBy, v,
                                 n * sizeof *v) == cudaSuccess);
  CHECK(accessed[0] == device && accessed[1] == cudaInvalidDeviceId &&
        accessed[2] == cudaInvalidDeviceId);

  /* Several attributes at once. */
  int read_mostly = -1, preferred = -1;
  void *data[] = {&read_mostly, &preferred};
  size_t sizes[] = {sizeof read_mostly, sizeof preferred};
  cudaMemRangeAttribute which[] = {cudaMemRangeAttributeReadMostly,
                                   cudaMemRangeAttributePreferredLocation};
  CHECK(cudaMemRangeGetAttributes(data, sizes, which, 2, v + 8, 64) ==
        cudaSuccess);
  CHECK(read_mostly == 1 && preferred == cudaInvalidDeviceId);

  /* A batch: the first two ranges to the device, the third to the host;
   * the legacy default stream is refused. */
  void *ranges[3] = {v, v + 100, v + 200};
  size_t lengths[3] = {100 * sizeof *v, 100 * sizeof *v, 100 * sizeof *v};
  cudaMemLocation places[2] = {gpu, cpu};
  size_t starts[2] = {0, 2};
  CHECK(cudaMemPrefetchBatchAsync(ranges, lengths, 3, places, starts, 2, 0,
                                  s) == cudaSuccess);
  CHECK(range_int(cudaMemRangeAttributeLastPrefetchLocation, v,
                  200 * sizeof *v) == device);
  CHECK(range_int(cudaMemRangeAttributeLastPrefetchLocation, v + 200,
                  100 * sizeof *v) == cudaCpuDeviceId);
  CHECK(cudaMemPrefetchBatchAsync(ranges, lengths, 3, places, starts, 2, 0,
                                  0) == cudaErrorInvalidValue);
  size_t bad_starts[2] = {1, 2};
  CHECK(cudaMemPrefetchBatchAsync(ranges, lengths, 3, places, bad_starts, 2,
                                  0, s) == cudaErrorInvalidValue);
  CHECK(cudaMemDiscardBatchAsync(ranges, lengths, 3, 0, s) == cudaSuccess);
  CHECK(cudaMemDiscardAndPrefetchBatchAsync(ranges, lengths, 3, places,
                                            starts, 2, 0, s) == cudaSuccess);

  /* Attaching to a stream, and the errors CUDA gives. */
  CHECK(cudaStreamAttachMemAsync(s, v) == cudaSuccess);
  CHECK(cudaStreamAttachMemAsync(s, v, 0, cudaMemAttachGlobal) ==
        cudaSuccess);
  CHECK(cudaStreamAttachMemAsync(s, v + 1, 0, cudaMemAttachHost) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemPrefetchAsync(v, n * sizeof *v, gpu, 1, s) ==
        cudaErrorInvalidValue);
  cudaMemLocation nowhere = {cudaMemLocationTypeDevice, 64};
  CHECK(cudaMemPrefetchAsync(v, n * sizeof *v, nowhere, 0, s) ==
        cudaErrorInvalidDevice);
  CHECK(cudaMemPrefetchAsync(v, (n + 4096) * sizeof *v, gpu, 0, s) ==
        cudaErrorInvalidValue);
  float *d = nullptr;
  CHECK(cudaMalloc(&d, 64) == cudaSuccess);
  CHECK(cudaMemAdvise(d, 64, cudaMemAdviseSetReadMostly, gpu) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemAdvise(v, 64, static_cast<cudaMemoryAdvise>(42), gpu) ==
        cudaErrorInvalidValue);

  /* cudaMallocManaged's flags and size. */
  float *h = nullptr;
  CHECK(cudaMallocManaged(&h, 64, cudaMemAttachHost) == cudaSuccess);
  CHECK(cudaMallocManaged(&h, 64, cudaMemAttachSingle) ==
        cudaErrorInvalidValue);
  CHECK(cudaMallocManaged(&h, 0) == cudaErrorInvalidValue);
  cudaPointerAttributes pa;
  CHECK(cudaPointerGetAttributes(&pa, v) == cudaSuccess &&
        pa.type == cudaMemoryTypeManaged);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  /* A __managed__ variable is seen by both sides without copies. */
  hits = 0;
  table[0] = 10.0f;
  scale_count<<<1, 4>>>(v, 4, 0.0f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(hits == 4 && v[0] == 10.0f && v[3] == 4.0f);

  CHECK(cudaFree(v) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  return finish();
}
