/*
 * context_ties.cu: the driver calls that tie streams, events, memory and
 * pools to contexts, as a multi-context driver program uses them:
 * cuStreamGetCtx (and _v2) for a stream made in a created context, one
 * made in the primary context and the special streams; cuCtxRecordEvent
 * after a kernel in a non-blocking stream and cuCtxWaitEvent; cuCtxSetFlags
 * read back by cuCtxGetFlags; cuPointerSetAttribute with
 * CU_POINTER_ATTRIBUTE_SYNC_MEMOPS; the 1-D array copies cuMemcpyAtoA
 * (across rows of 2-D arrays) and cuMemcpyHtoAAsync/AtoHAsync in a stream;
 * CUDA 13's cuMemGetDefaultMemPool/cuMemGetMemPool/cuMemSetMemPool by
 * location; and the errors of each. Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include <cstdio>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

/* Fills out[i] = i * k after a little work, so that it is still running
 * when the host records. */
__global__ void fill(int *out, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = 0;
    for (int j = 0; j < 200; ++j) v += (j == 199) ? i * k : 0;
    out[i] = v;
  }
}

static void stream_contexts(CUdevice dev, CUcontext primary) {
  CUcontext created;
  CU(cuCtxCreate(&created, nullptr, 0, dev));
  CUstream in_created;
  CU(cuStreamCreate(&in_created, CU_STREAM_NON_BLOCKING));
  CUcontext got = nullptr;
  CU(cuStreamGetCtx(in_created, &got));
  CHECK(got == created);
  /* The special streams give the current context. */
  CU(cuStreamGetCtx(CU_STREAM_LEGACY, &got));
  CHECK(got == created);
  CU(cuStreamGetCtx(nullptr, &got));
  CHECK(got == created);
  CUgreenCtx green = reinterpret_cast<CUgreenCtx>(1);
  CU(cuStreamGetCtx_v2(in_created, &got, &green));
  CHECK(got == created && green == nullptr);
  CHECK(cuStreamGetCtx(in_created, nullptr) == CUDA_ERROR_INVALID_VALUE);

  /* A stream made while the primary context is current is the primary's,
   * also when asked from the created context. */
  CU(cuCtxPushCurrent(primary));
  CUstream in_primary;
  CU(cuStreamCreateWithPriority(&in_primary, CU_STREAM_DEFAULT, 0));
  CUcontext popped;
  CU(cuCtxPopCurrent(&popped));
  CHECK(popped == primary);
  CU(cuStreamGetCtx(in_primary, &got));
  CHECK(got == primary);
  CU(cuStreamGetCtx(CU_STREAM_PER_THREAD, &got));
  CHECK(got == created);

  /* Flags of the current context. */
  unsigned flags = 0;
  CU(cuCtxSetFlags(CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_SYNC_MEMOPS));
  CU(cuCtxGetFlags(&flags));
  CHECK(flags == (CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_SYNC_MEMOPS));
  CHECK(cuCtxSetFlags(0x100) == CUDA_ERROR_INVALID_VALUE);
  CU(cuCtxGetFlags(&flags));
  CHECK(flags == (CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_SYNC_MEMOPS));
  CU(cuCtxSetFlags(0));
  CU(cuCtxGetFlags(&flags));
  CHECK(flags == 0);

  CU(cuStreamDestroy(in_primary));
  CU(cuStreamDestroy(in_created));
  CU(cuCtxDestroy(created));
  CU(cuCtxSetCurrent(primary));
}

static void context_events(CUcontext primary) {
  const int n = 4096;
  CUdeviceptr out;
  CU(cuMemAlloc(&out, n * sizeof(int)));
  CU(cuMemsetD32(out, 0, n));
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  int *p = reinterpret_cast<int *>(out);
  fill<<<n / 256, 256, 0, s>>>(p, n, 3);
  CUevent e;
  CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
  /* The event captures the kernel in the non-blocking stream too. */
  CU(cuCtxRecordEvent(primary, e));
  CU(cuEventSynchronize(e));
  std::vector<int> host(n);
  CU(cuMemcpyDtoH(host.data(), out, n * sizeof(int)));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += host[i] != 3 * i;
  CHECK(bad == 0);
  CU(cuEventQuery(e));

  /* Work after cuCtxWaitEvent follows the event's work. */
  fill<<<n / 256, 256, 0, s>>>(p, n, 5);
  CU(cuEventRecord(e, s));
  CU(cuCtxWaitEvent(primary, e));
  CU(cuMemcpyDtoH(host.data(), out, n * sizeof(int)));
  bad = 0;
  for (int i = 0; i < n; ++i) bad += host[i] != 5 * i;
  CHECK(bad == 0);

  CHECK(cuCtxRecordEvent(nullptr, e) == CUDA_ERROR_INVALID_CONTEXT);
  CHECK(cuCtxWaitEvent(nullptr, e) == CUDA_ERROR_INVALID_CONTEXT);

  /* CU_POINTER_ATTRIBUTE_SYNC_MEMOPS is the one attribute that is set. */
  unsigned one = 1, zero = 0;
  int value = -1;
  CU(cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, out));
  CU(cuPointerGetAttribute(&value, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, out + 64));
  CHECK(value == 1);
  CU(cuPointerSetAttribute(&zero, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, out));
  CU(cuPointerGetAttribute(&value, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, out));
  CHECK(value == 0);
  CHECK(cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, out) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuPointerSetAttribute(nullptr, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, out) ==
        CUDA_ERROR_INVALID_VALUE);
  int on_stack = 0;
  CHECK(cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
                              reinterpret_cast<CUdeviceptr>(&on_stack)) ==
        CUDA_ERROR_INVALID_VALUE);

  CU(cuEventDestroy(e));
  CU(cuStreamDestroy(s));
  CU(cuMemFree(out));
}

static void array_copies() {
  const int w = 16, h = 4;
  CUDA_ARRAY_DESCRIPTOR ad = {};
  ad.Width = w;
  ad.Height = h;
  ad.Format = CU_AD_FORMAT_SIGNED_INT32;
  ad.NumChannels = 1;
  CUarray a, b;
  CU(cuArrayCreate(&a, &ad));
  ad.Width = 8; /* rows of another length */
  ad.Height = 8;
  CU(cuArrayCreate(&b, &ad));
  std::vector<int> src(w * h), back(w * h, -1);
  for (int i = 0; i < w * h; ++i) src[i] = 100 + i;
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CU(cuMemcpyHtoAAsync(a, 0, src.data(), src.size() * sizeof(int), s));
  CU(cuStreamSynchronize(s));
  /* 20 elements from element 10 of a (crossing its rows of 16) to element
   * 3 of b (crossing its rows of 8). */
  std::vector<int> zeros(64, 0);
  CU(cuMemcpyHtoA(b, 0, zeros.data(), zeros.size() * sizeof(int)));
  CU(cuMemcpyAtoA(b, 3 * sizeof(int), a, 10 * sizeof(int), 20 * sizeof(int)));
  std::vector<int> got(64, -1);
  CU(cuMemcpyAtoHAsync(got.data(), b, 0, got.size() * sizeof(int), s));
  CU(cuStreamSynchronize(s));
  int bad = 0;
  for (int i = 0; i < 64; ++i)
    bad += got[i] != (i >= 3 && i < 23 ? 100 + 10 + (i - 3) : 0);
  CHECK(bad == 0);
  CU(cuMemcpyAtoHAsync(back.data(), a, 0, back.size() * sizeof(int), s));
  CU(cuStreamSynchronize(s));
  CHECK(back == src);

  /* Elements of another size, and a count that is no multiple of 4. */
  CUDA_ARRAY_DESCRIPTOR hd = {};
  hd.Width = 32;
  hd.Format = CU_AD_FORMAT_UNSIGNED_INT16;
  hd.NumChannels = 1;
  CUarray c;
  CU(cuArrayCreate(&c, &hd));
  CHECK(cuMemcpyAtoA(c, 0, a, 0, 16) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemcpyAtoA(b, 0, a, 0, 6) == CUDA_ERROR_INVALID_VALUE);
  CU(cuArrayDestroy(c));
  CU(cuStreamDestroy(s));
  CU(cuArrayDestroy(a));
  CU(cuArrayDestroy(b));
}

static void pools(CUdevice dev) {
  CUmemLocation loc = {};
  loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
  loc.id = dev;
  CUmemoryPool def = nullptr, cur = nullptr, old = nullptr;
  CU(cuMemGetDefaultMemPool(&def, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
  CUmemoryPool by_device = nullptr;
  CU(cuDeviceGetDefaultMemPool(&by_device, dev));
  CHECK(def != nullptr && def == by_device);
  CU(cuMemGetMemPool(&old, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));

  CUmemPoolProps props = {};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location = loc;
  CUmemoryPool mine;
  CU(cuMemPoolCreate(&mine, &props));
  CU(cuMemSetMemPool(&loc, CU_MEM_ALLOCATION_TYPE_PINNED, mine));
  CU(cuMemGetMemPool(&cur, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
  CHECK(cur == mine);
  CUmemoryPool by_device_now = nullptr;
  CU(cuDeviceGetMemPool(&by_device_now, dev));
  CHECK(by_device_now == mine);
  CU(cuMemSetMemPool(&loc, CU_MEM_ALLOCATION_TYPE_PINNED, old));
  CU(cuMemGetMemPool(&cur, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
  CHECK(cur == old);
  CU(cuMemPoolDestroy(mine));

  CHECK(cuMemGetMemPool(&cur, nullptr, CU_MEM_ALLOCATION_TYPE_PINNED) ==
        CUDA_ERROR_INVALID_VALUE);
  loc.id = 9999;
  CHECK(cuMemGetDefaultMemPool(&cur, &loc, CU_MEM_ALLOCATION_TYPE_PINNED) !=
        CUDA_SUCCESS);
}

int main() {
  CUcontext none;
  CHECK(cuStreamGetCtx(nullptr, &none) == CUDA_ERROR_NOT_INITIALIZED);
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext primary;
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuCtxSetCurrent(primary));
  stream_contexts(dev, primary);
  context_events(primary);
  array_copies();
  pools(dev);
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
