/*
 * device_streams.cu: streams and events belong to the device current at
 * their creation, as the CUDA programming guide's multi-device section
 * says: a kernel launched into a stream of another device fails
 * (cudaErrorInvalidResourceHandle), a copy into it works, cudaEventRecord
 * of an event and a stream of two devices fails, cudaEventElapsedTime of
 * events of two devices fails, cudaStreamWaitEvent across devices works,
 * cudaStreamGetDevice names the device, cudaPointerGetAttributes names
 * the device that allocated memory (cudaMalloc and cudaMallocAsync), and
 * each device has its own memory pool; cudaDeviceReset destroys only the
 * current device's streams and events. Needs two devices: under cuemu it
 * asks for them (CUEMU_DEVICE=count=2); with fewer it checks nothing.
 * Prints PASS when all is well.
 */
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "../check.cuh"
#include "pool_kernels.cuh"

struct per_device {
  cudaStream_t stream;
  cudaEvent_t start, stop;
  int *data;
};

int main() {
#ifdef __CUEMU__
  setenv("CUEMU_DEVICE", "count=2", 1); /* before the first CUDA call */
#endif
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  if (count < 2)
    return finish();
  const int n = 4096;
  per_device dev[2];
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaStreamCreate(&dev[d].stream) == cudaSuccess);
    CHECK(cudaEventCreate(&dev[d].start) == cudaSuccess);
    CHECK(cudaEventCreate(&dev[d].stop) == cudaSuccess);
    CHECK(cudaMallocAsync(&dev[d].data, n * sizeof(int), dev[d].stream) ==
          cudaSuccess);
    CHECK(cudaEventRecord(dev[d].start, dev[d].stream) == cudaSuccess);
    fill<int><<<n / 256, 256, 0, dev[d].stream>>>(dev[d].data, n, d);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(cudaEventRecord(dev[d].stop, dev[d].stream) == cudaSuccess);
  }

  /* Device 1 is current. */
  int device = -1;
  CHECK(cudaStreamGetDevice(dev[0].stream, &device) == cudaSuccess &&
        device == 0);
  CHECK(cudaStreamGetDevice(dev[1].stream, &device) == cudaSuccess &&
        device == 1);
  CHECK(cudaStreamGetDevice(0, &device) == cudaSuccess && device == 1);

  /* A kernel into device 0's stream fails; the error is not sticky. */
  fill<int><<<n / 256, 256, 0, dev[0].stream>>>(dev[0].data, n, 0);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaSuccess);
  /* A copy into it works. */
  int host[4] = {};
  CHECK(cudaMemcpyAsync(host, dev[0].data, sizeof host, cudaMemcpyDefault,
                        dev[0].stream) == cudaSuccess);
  CHECK(cudaStreamSynchronize(dev[0].stream) == cudaSuccess);
  CHECK(host[0] == 0 && host[3] == 3);

  /* Events: recording one of device 0 into device 1's stream fails, and
   * so does timing across devices; waiting across devices works. */
  CHECK(cudaEventRecord(dev[0].stop, dev[1].stream) ==
        cudaErrorInvalidResourceHandle);
  CHECK(cudaEventRecord(dev[0].stop, 0) == cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  CHECK(cudaEventSynchronize(dev[0].stop) == cudaSuccess);
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, dev[1].start, dev[1].stop) == cudaSuccess &&
        ms >= 0);
  CHECK(cudaEventElapsedTime(&ms, dev[0].start, dev[1].stop) ==
        cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  CHECK(cudaStreamWaitEvent(dev[1].stream, dev[0].stop, 0) == cudaSuccess);
  CHECK(cudaEventQuery(dev[0].stop) == cudaSuccess);

  /* Pointers name the device that allocated them. */
  int *plain = nullptr;
  CHECK(cudaMalloc(&plain, 64) == cudaSuccess);
  for (int d = 0; d < 2; ++d) {
    cudaPointerAttributes a = {};
    CHECK(cudaPointerGetAttributes(&a, dev[d].data) == cudaSuccess);
    CHECK(a.type == cudaMemoryTypeDevice && a.device == d);
  }
  cudaPointerAttributes a = {};
  CHECK(cudaPointerGetAttributes(&a, plain) == cudaSuccess && a.device == 1);

  /* Each device has its own default pool, which holds its allocations. */
  cudaMemPool_t pool0 = nullptr, pool1 = nullptr;
  CHECK(cudaDeviceGetDefaultMemPool(&pool0, 0) == cudaSuccess);
  CHECK(cudaDeviceGetDefaultMemPool(&pool1, 1) == cudaSuccess);
  CHECK(pool0 != pool1);
  size_t used = 0;
  CHECK(cudaMemPoolGetAttribute(pool0, cudaMemPoolAttrUsedMemCurrent,
                                &used) == cudaSuccess &&
        used >= n * sizeof(int));

  /* Cleaning up, each device's objects while it is current. */
  CHECK(cudaFree(plain) == cudaSuccess);
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaFreeAsync(dev[d].data, dev[d].stream) == cudaSuccess);
    CHECK(cudaStreamSynchronize(dev[d].stream) == cudaSuccess);
    CHECK(cudaStreamDestroy(dev[d].stream) == cudaSuccess);
    CHECK(cudaEventDestroy(dev[d].start) == cudaSuccess);
    CHECK(cudaEventDestroy(dev[d].stop) == cudaSuccess);
  }

#ifdef __CUEMU__
  /* cudaDeviceReset destroys the current device's streams and events, and
   * only those (using a destroyed handle is undefined in CUDA; cuemu says
   * cudaErrorInvalidResourceHandle). */
  cudaStream_t kept, gone;
  cudaEvent_t gone_event;
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaStreamCreate(&kept) == cudaSuccess);
  CHECK(cudaSetDevice(1) == cudaSuccess);
  CHECK(cudaStreamCreate(&gone) == cudaSuccess);
  CHECK(cudaEventCreate(&gone_event) == cudaSuccess);
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaStreamQuery(gone) == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventQuery(gone_event) == cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamQuery(kept) == cudaSuccess);
  cudaGetLastError();
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaStreamDestroy(kept) == cudaSuccess);
#endif
  return finish();
}
