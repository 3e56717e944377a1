/*
 * context_events_async.cu: cuCtxRecordEvent and cuCtxWaitEvent are
 * stream-ordered, as CUDA's reference says ("the synchronization will be
 * performed on the device and will not block the calling CPU thread"):
 * with a kernel that waits for the host (a flag in mapped pinned memory)
 * still running in a non-blocking stream, cuCtxRecordEvent returns at once
 * with the event not complete; cuCtxWaitEvent returns at once, and work
 * issued afterwards to another stream of the context (even one created
 * after the call) waits on the device for the event's work. cuemu once
 * waited on the host in both, which here would never end. Prints PASS
 * when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

/* Waits until the host sets *flag, then writes *out = value. */
__global__ void wait_then_write(volatile int *flag, int *out, int value) {
  while (*flag == 0) {
  }
  *out = value;
}

/* *out = *in + 1: a reader that must run after the writer. */
__global__ void follow(const int *in, int *out) { *out = *in + 1; }

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  int *flag_host = nullptr;
  CU(cuMemHostAlloc(reinterpret_cast<void **>(&flag_host), sizeof(int),
                    CU_MEMHOSTALLOC_DEVICEMAP));
  CUdeviceptr flag_dev, cells;
  CU(cuMemHostGetDevicePointer(&flag_dev, flag_host, 0));
  CU(cuMemAlloc(&cells, 4 * sizeof(int)));
  CU(cuMemsetD32(cells, 0, 4));
  int *c = reinterpret_cast<int *>(cells);
  volatile int *flag = reinterpret_cast<volatile int *>(flag_dev);
  CUstream a, b;
  CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
  CU(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
  CUevent e;
  CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));

  // The record captures the waiting kernel and completes after it.
  *flag_host = 0;
  wait_then_write<<<1, 1, 0, reinterpret_cast<cudaStream_t>(a)>>>(flag, c, 7);
  CU(cuCtxRecordEvent(ctx, e));
  CHECK(cuEventQuery(e) == CUDA_ERROR_NOT_READY);
  *flag_host = 1;
  CU(cuEventSynchronize(e));
  int host[4] = {0, 0, 0, 0};
  CU(cuMemcpyDtoH(host, cells, sizeof host));
  CHECK(host[0] == 7);

  // Work issued after cuCtxWaitEvent, in another stream, waits for it.
  *flag_host = 0;
  wait_then_write<<<1, 1, 0, reinterpret_cast<cudaStream_t>(a)>>>(flag, c + 1,
                                                                  8);
  CU(cuEventRecord(e, a));
  CU(cuCtxWaitEvent(ctx, e));
  follow<<<1, 1, 0, reinterpret_cast<cudaStream_t>(b)>>>(c + 1, c + 2);
  CUstream later;
  CU(cuStreamCreate(&later, CU_STREAM_NON_BLOCKING));
  follow<<<1, 1, 0, reinterpret_cast<cudaStream_t>(later)>>>(c + 1, c + 3);
  CHECK(cuStreamQuery(b) == CUDA_ERROR_NOT_READY);
  CHECK(cuStreamQuery(later) == CUDA_ERROR_NOT_READY);
  *flag_host = 1;
  CU(cuStreamSynchronize(b));
  CU(cuStreamSynchronize(later));
  CU(cuMemcpyDtoH(host, cells, sizeof host));
  CHECK(host[1] == 8);
  CHECK(host[2] == 9);
  CHECK(host[3] == 9);

  CU(cuEventDestroy(e));
  CU(cuStreamDestroy(a));
  CU(cuStreamDestroy(b));
  CU(cuStreamDestroy(later));
  CU(cuMemFree(cells));
  CU(cuMemFreeHost(flag_host));
  CU(cuCtxSetCurrent(nullptr));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
