// NVCC_OPTIONS: -I../common -Xcompiler -fopenmp
// ctx_driver.cu - explicit driver-API context management: one context per
// device created with cuCtxCreate, pushed/popped around work, handed to
// worker threads with cuCtxSetCurrent; stream memory operations signal
// between a producer and a consumer stream; host callbacks with
// cuLaunchHostFunc; pointer attributes queried with cuPointerGetAttributes.
#define MGPU_USE_DRIVER
#include <atomic>
#include <thread>
#include <vector>
#include "mgpu_check.h"

__global__ void produce(int *buf, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[i] = base + i;
}

__global__ void consume(const int *buf, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = buf[i] * 2;
}

struct HostCount {
  std::atomic<int> calls{0};
  int last_seen = -1;
  const int *managed = nullptr;
};

static void CUDA_CB on_host(void *user) {
  HostCount *hc = static_cast<HostCount *>(user);
  hc->last_seen = hc->managed[0];
  hc->calls.fetch_add(1);
}

int main() {
  CU_CHECK(cuInit(0));
  int ndev = 0;
  CU_CHECK(cuDeviceGetCount(&ndev));
  int nctx = ndev < 2 ? 1 : 2;
  std::vector<CUcontext> ctx(nctx);
  for (int d = 0; d < nctx; ++d) {
    CUdevice dev;
    CU_CHECK(cuDeviceGet(&dev, d));
    CU_CHECK(cuCtxCreate(&ctx[d], nullptr, CU_CTX_SCHED_BLOCKING_SYNC, dev));
    // cuCtxCreate makes the new context current; pop it so the stack is empty.
    CUcontext popped;
    CU_CHECK(cuCtxPopCurrent(&popped));
    if (popped != ctx[d]) { std::printf("pop gave the wrong context\n"); return 1; }
  }
  CUcontext cur = (CUcontext)1;
  CU_CHECK(cuCtxGetCurrent(&cur));
  bool ok = cur == nullptr;

  const int n = 2048;
  // Worker threads: each binds one context and runs a producer/consumer pair
  // synchronised by a flag in device memory.
  std::vector<int> thread_ok(nctx, 0);
  std::vector<std::thread> workers;
  for (int d = 0; d < nctx; ++d) {
    workers.emplace_back([&, d] {
      CU_CHECK(cuCtxSetCurrent(ctx[d]));
      CUdevice mine;
      CU_CHECK(cuCtxGetDevice(&mine));
      int streams_ok = 1;
      int v32 = 0;
      CU_CHECK(cuDeviceGetAttribute(&v32, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, mine));
      CUstream prod, cons;
      CU_CHECK(cuStreamCreate(&prod, CU_STREAM_NON_BLOCKING));
      CU_CHECK(cuStreamCreate(&cons, CU_STREAM_NON_BLOCKING));
      CUdeviceptr flag, buf, out;
      CU_CHECK(cuMemAlloc(&flag, sizeof(unsigned)));
      CU_CHECK(cuMemAlloc(&buf, n * sizeof(int)));
      CU_CHECK(cuMemAlloc(&out, n * sizeof(int)));
      CU_CHECK(cuMemsetD32(flag, 0, 1));
      // Consumer first: it waits for flag >= 1 before its kernel.
      CU_CHECK(cuStreamWaitValue32(cons, flag, 1, CU_STREAM_WAIT_VALUE_GEQ));
      CUfunction fcons, fprod;
      CUDA_CHECK(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&fcons), (const void *)consume));
      CUDA_CHECK(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&fprod), (const void *)produce));
      int nn = n, base = 1000 * (d + 1);
      void *cargs[] = {&buf, &out, &nn};
      CU_CHECK(cuLaunchKernel(fcons, n / 256, 1, 1, 256, 1, 1, 0, cons, cargs, nullptr));
      void *pargs[] = {&buf, &nn, &base};
      CU_CHECK(cuLaunchKernel(fprod, n / 256, 1, 1, 256, 1, 1, 0, prod, pargs, nullptr));
      CU_CHECK(cuStreamWriteValue32(prod, flag, 1, CU_STREAM_WRITE_VALUE_DEFAULT));
      CU_CHECK(cuStreamSynchronize(cons));
      std::vector<int> h(n);
      CU_CHECK(cuMemcpyDtoH(h.data(), out, n * sizeof(int)));
      for (int i = 0; i < n; ++i)
        if (h[i] != 2 * (base + i)) streams_ok = 0;
      // Pointer attributes of our allocation.
      CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_CONTEXT, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                     CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                     CU_POINTER_ATTRIBUTE_RANGE_SIZE};
      CUcontext pctx = nullptr;
      CUmemorytype mtype = (CUmemorytype)0;
      int ordinal = -1;
      unsigned managed = 7;
      size_t range = 0;
      void *data[] = {&pctx, &mtype, &ordinal, &managed, &range};
      CU_CHECK(cuPointerGetAttributes(5, attrs, data, buf + 64));
      bool attrs_ok = pctx == ctx[d] && mtype == CU_MEMORYTYPE_DEVICE && ordinal == d && managed == 0 &&
                      range == n * sizeof(int);
      if (!attrs_ok)
        std::printf("ctx %d: attributes ctx %p/%p type %d ordinal %d managed %u range %zu\n", d,
                    (void *)pctx, (void *)ctx[d], (int)mtype, ordinal, managed, range);
      CU_CHECK(cuMemFree(flag));
      CU_CHECK(cuMemFree(buf));
      CU_CHECK(cuMemFree(out));
      CU_CHECK(cuStreamDestroy(prod));
      CU_CHECK(cuStreamDestroy(cons));
      thread_ok[d] = streams_ok && attrs_ok && (int)mine == d && v32 == 1;
      CU_CHECK(cuCtxSetCurrent(nullptr));
    });
  }
  for (auto &t : workers) t.join();
  for (int d = 0; d < nctx; ++d) {
    std::printf("context %d: %s\n", d, thread_ok[d] ? "ok" : "wrong");
    ok = ok && thread_ok[d];
  }

  // Managed memory across contexts, host functions in the stream order.
  CU_CHECK(cuCtxPushCurrent(ctx[0]));
  CUdeviceptr m;
  CU_CHECK(cuMemAllocManaged(&m, n * sizeof(int), CU_MEM_ATTACH_GLOBAL));
  HostCount hc;
  hc.managed = reinterpret_cast<const int *>(m);
  CUstream s0;
  CU_CHECK(cuStreamCreate(&s0, CU_STREAM_DEFAULT));
  CUfunction fprod;
  CUDA_CHECK(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&fprod), (const void *)produce));
  int nn = n, base = 7;
  void *pargs[] = {&m, &nn, &base};
  CU_CHECK(cuLaunchKernel(fprod, n / 256, 1, 1, 256, 1, 1, 0, s0, pargs, nullptr));
  CU_CHECK(cuLaunchHostFunc(s0, on_host, &hc));
  if (nctx > 1) {
    // Second context consumes the managed buffer after the first's work.
    CUevent ev;
    CU_CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    CU_CHECK(cuEventRecord(ev, s0));
    CU_CHECK(cuCtxPushCurrent(ctx[1]));
    CUstream s1;
    CU_CHECK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    CU_CHECK(cuStreamWaitEvent(s1, ev, 0));
    CUdeviceptr out;
    CU_CHECK(cuMemAlloc(&out, n * sizeof(int)));
    CUfunction fcons;
    CUDA_CHECK(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&fcons), (const void *)consume));
    void *cargs[] = {&m, &out, &nn};
    CU_CHECK(cuLaunchKernel(fcons, n / 256, 1, 1, 256, 1, 1, 0, s1, cargs, nullptr));
    CU_CHECK(cuLaunchHostFunc(s1, on_host, &hc));
    CU_CHECK(cuStreamSynchronize(s1));
    std::vector<int> h(n);
    CU_CHECK(cuMemcpyDtoH(h.data(), out, n * sizeof(int)));
    int bad = 0;
    for (int i = 0; i < n; ++i)
      if (h[i] != 2 * (7 + i)) bad++;
    ok = ok && bad == 0;
    CUcontext popped;
    CU_CHECK(cuMemFree(out));
    CU_CHECK(cuStreamDestroy(s1));
    CU_CHECK(cuCtxPopCurrent(&popped));
    ok = ok && popped == ctx[1];
    CU_CHECK(cuEventDestroy(ev));
  }
  CU_CHECK(cuStreamSynchronize(s0));
  int expect_calls = nctx > 1 ? 2 : 1;
  std::printf("host callbacks: %d (want %d), saw %d\n", hc.calls.load(), expect_calls, hc.last_seen);
  ok = ok && hc.calls.load() == expect_calls && hc.last_seen == 7;
  unsigned is_managed = 0;
  CU_CHECK(cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, m));
  ok = ok && is_managed == 1;
  CU_CHECK(cuMemFree(m));
  CU_CHECK(cuStreamDestroy(s0));
  CUcontext popped;
  CU_CHECK(cuCtxPopCurrent(&popped));
  ok = ok && popped == ctx[0];
  for (auto c : ctx) CU_CHECK(cuCtxDestroy(c));
  return mgpu_report(ok, "ctx_driver");
}
