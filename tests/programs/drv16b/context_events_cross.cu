/*
 * context_events_cross.cu: a stream may wait on an event of another
 * context or another device, as CUDA's reference says of
 * cuStreamWaitEvent ("hEvent may be from a different context or device
 * than hStream"), cudaStreamWaitEvent and cuCtxWaitEvent: the wait is
 * accepted and orders the waiting stream's later work after the event's
 * work, on the device (the host goes on). Recording an event in a stream
 * of another context is CUDA_ERROR_INVALID_HANDLE ("hEvent and hStream
 * must be from the same context"). Two created contexts of device 0, then
 * two devices (CUEMU_DEVICE=count=2, set before the first CUDA call; a
 * GPU ignores it, and the device part needs two devices). The kernels
 * share mapped, portable pinned memory, which every context may use. A
 * kernel waits for the host (a flag) so that the order is certain.
 * Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdlib>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

/* Waits until the host sets *flag, then writes *out = value. */
__global__ void wait_then_write(volatile int *flag, int *out, int value) {
  while (*flag == 0) {
  }
  *out = value;
}

/* *out = *in + 1: a reader that must run after the writer. */
__global__ void follow(const volatile int *in, int *out) { *out = *in + 1; }

/* Two contexts of one device: a stream of the second waits on an event
 * recorded in a stream of the first. */
static void two_contexts(volatile int *flag_host, int *flag_dev,
                         volatile int *cells_host, int *cells) {
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext a, b;
  CU(cuCtxCreate(&a, nullptr, 0, dev));
  CUstream sa;
  CU(cuStreamCreate(&sa, CU_STREAM_NON_BLOCKING));
  CUevent ea;
  CU(cuEventCreate(&ea, CU_EVENT_DISABLE_TIMING));
  *flag_host = 0;
  wait_then_write<<<1, 1, 0, reinterpret_cast<cudaStream_t>(sa)>>>(flag_dev,
                                                                   cells, 7);
  CU(cuEventRecord(ea, sa));
  CU(cuCtxCreate(&b, nullptr, 0, dev)); // current now
  CUstream sb;
  CU(cuStreamCreate(&sb, CU_STREAM_NON_BLOCKING));
  CU(cuStreamWaitEvent(sb, ea, 0));
  follow<<<1, 1, 0, reinterpret_cast<cudaStream_t>(sb)>>>(cells, cells + 1);
  CHECK(cudaGetLastError() == cudaSuccess);
  // The context-wide wait takes the other context's event too.
  CU(cuCtxWaitEvent(b, ea));
  // An event is recorded only in a stream of its own context.
  CHECK(cuEventRecord(ea, sb) == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuStreamQuery(sb) == CUDA_ERROR_NOT_READY);
  CHECK(cuEventQuery(ea) == CUDA_ERROR_NOT_READY);
  *flag_host = 1;
  CU(cuStreamSynchronize(sb));
  CHECK(cells_host[0] == 7 && cells_host[1] == 8);
  CU(cuStreamDestroy(sb));
  CU(cuCtxDestroy(b));
  CU(cuCtxSetCurrent(a));
  CU(cuEventDestroy(ea));
  CU(cuStreamDestroy(sa));
  CU(cuCtxDestroy(a));
}

/* Two devices: a stream of device 1 waits on an event of device 0. */
static void two_devices(volatile int *flag_host, int *flag_dev,
                        volatile int *cells_host, int *cells) {
  CHECK(cudaSetDevice(0) == cudaSuccess);
  cudaStream_t s0, s1;
  cudaEvent_t e0;
  CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking) == cudaSuccess);
  CHECK(cudaEventCreateWithFlags(&e0, cudaEventDisableTiming) == cudaSuccess);
  *flag_host = 0;
  wait_then_write<<<1, 1, 0, s0>>>(flag_dev, cells + 2, 9);
  CHECK(cudaEventRecord(e0, s0) == cudaSuccess);
  CHECK(cudaSetDevice(1) == cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(s1, e0, 0) == cudaSuccess);
  follow<<<1, 1, 0, s1>>>(cells + 2, cells + 3);
  CHECK(cudaGetLastError() == cudaSuccess);
  // The driver's stream and context waits take it too.
  CUstream ds1 = reinterpret_cast<CUstream>(s1);
  CU(cuStreamWaitEvent(ds1, reinterpret_cast<CUevent>(e0), 0));
  CUcontext ctx1;
  CU(cuCtxGetCurrent(&ctx1));
  CU(cuCtxWaitEvent(ctx1, reinterpret_cast<CUevent>(e0)));
  // Recording it in a stream of device 1 is not.
  CHECK(cudaEventRecord(e0, s1) == cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamQuery(s1) == cudaErrorNotReady);
  CHECK(cudaEventQuery(e0) == cudaErrorNotReady);
  *flag_host = 1;
  CHECK(cudaStreamSynchronize(s1) == cudaSuccess);
  CHECK(cells_host[2] == 9 && cells_host[3] == 10);
  CHECK(cudaStreamDestroy(s1) == cudaSuccess);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaEventDestroy(e0) == cudaSuccess);
  CHECK(cudaStreamDestroy(s0) == cudaSuccess);
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1);
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext primary;
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuCtxSetCurrent(primary));
  int *host = nullptr;
  CU(cuMemHostAlloc(reinterpret_cast<void **>(&host), 8 * sizeof(int),
                    CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
  for (int i = 0; i < 8; ++i)
    host[i] = 0;
  CUdeviceptr dptr;
  CU(cuMemHostGetDevicePointer(&dptr, host, 0));
  int *d = reinterpret_cast<int *>(dptr);
  two_contexts(host, d, host + 1, d + 1);
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  if (count >= 2)
    two_devices(host, d, host + 1, d + 1);
  CU(cuCtxSetCurrent(primary));
  CU(cuMemFreeHost(host));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
