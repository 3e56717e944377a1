// ctx_threads.cpp: contexts across host threads: the primary context shared by threads that
// each set it current, created contexts pushed and popped, a context
// floating between threads (cuCtxPopCurrent in one, cuCtxPushCurrent in
// another), and per-context modules whose __device__ variables are apart.
#include "drv_helpers.h"
#include <thread>
#include <vector>
#include <mutex>
#include <condition_variable>
#include <atomic>

static std::atomic<int> failures{0};
#define EXPECT(c) do { if (!(c)) { printf("FAILED: %s (line %d)\n", #c, __LINE__); ++failures; } } while (0)

static void run_stamp(CUmodule mod, int tag) {
  CUfunction f;
  checkCudaErrors(cuModuleGetFunction(&f, mod, "stamp"));
  const int n = 4096;
  CUdeviceptr d;
  checkCudaErrors(cuMemAlloc(&d, n * sizeof(int)));
  CUstream s;
  checkCudaErrors(cuStreamCreate(&s, CU_STREAM_DEFAULT));
  int nn = n;
  void *args[] = {&d, &nn, &tag};
  checkCudaErrors(cuLaunchKernel(f, n / 256, 1, 1, 256, 1, 1, 0, s, args, NULL));
  std::vector<int> h(n);
  checkCudaErrors(cuMemcpyDtoHAsync(h.data(), d, n * sizeof(int), s));
  checkCudaErrors(cuStreamSynchronize(s));
  for (int i = 0; i < n; ++i) if (h[i] != tag * 100000 + i) { EXPECT(false); break; }
  CUcontext sctx;
  checkCudaErrors(cuStreamGetCtx(s, &sctx));
  CUcontext cur;
  checkCudaErrors(cuCtxGetCurrent(&cur));
  EXPECT(sctx == cur);
  checkCudaErrors(cuStreamDestroy(s));
  checkCudaErrors(cuMemFree(d));
}

int main(int argc, char **argv) {
  CUdevice dev = findCudaDeviceDRV(argc, argv);
  // 1. The primary context, retained by each thread.
  CUcontext primary;
  checkCudaErrors(cuDevicePrimaryCtxRetain(&primary, dev));
  unsigned flags = 0; int active = 0;
  checkCudaErrors(cuDevicePrimaryCtxGetState(dev, &flags, &active));
  EXPECT(active == 1);
  CUmodule pmod;
  checkCudaErrors(cuCtxSetCurrent(primary));
  checkCudaErrors(cuModuleLoad(&pmod, "worker_kernels.cubin"));
  {
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; ++t)
      ts.emplace_back([&, t] {
        CUcontext c = nullptr;
        checkCudaErrors(cuCtxGetCurrent(&c));
        EXPECT(c == nullptr);  // a new thread has no current context
        CUcontext mine;
        checkCudaErrors(cuDevicePrimaryCtxRetain(&mine, dev));
        EXPECT(mine == primary);
        checkCudaErrors(cuCtxSetCurrent(mine));
        run_stamp(pmod, t + 1);
        CUfunction bump;
        checkCudaErrors(cuModuleGetFunction(&bump, pmod, "bump"));
        int times = 10;
        void *a[] = {&times};
        checkCudaErrors(cuLaunchKernel(bump, 2, 1, 1, 64, 1, 1, 0, 0, a, 0));
        checkCudaErrors(cuCtxSynchronize());
        checkCudaErrors(cuDevicePrimaryCtxRelease(dev));
      });
    for (auto &th : ts) th.join();
  }
  CUdeviceptr gc; size_t gsz;
  checkCudaErrors(cuModuleGetGlobal(&gc, &gsz, pmod, "g_counter"));
  int counter = 0;
  checkCudaErrors(cuMemcpyDtoH(&counter, gc, sizeof counter));
  EXPECT(counter == 4 * 2 * 64 * 10);

  // 2. A created context per thread, each with its own module: the
  //    __device__ counter of one is not the other's.
  {
    std::vector<std::thread> ts;
    std::vector<int> seen(3, -1);
    for (int t = 0; t < 3; ++t)
      ts.emplace_back([&, t] {
        CUcontext ctx;
        checkCudaErrors(cuCtxCreate(&ctx, NULL, CU_CTX_SCHED_YIELD, dev));
        unsigned cf = 0;
        checkCudaErrors(cuCtxGetFlags(&cf));
        EXPECT((cf & CU_CTX_SCHED_MASK) == CU_CTX_SCHED_YIELD);
        CUmodule m;
        checkCudaErrors(cuModuleLoad(&m, "worker_kernels.cubin"));
        CUfunction bump;
        checkCudaErrors(cuModuleGetFunction(&bump, m, "bump"));
        int times = t + 1;
        void *a[] = {&times};
        checkCudaErrors(cuLaunchKernel(bump, 1, 1, 1, 32, 1, 1, 0, 0, a, 0));
        CUdeviceptr g; size_t s;
        checkCudaErrors(cuModuleGetGlobal(&g, &s, m, "g_counter"));
        int v = 0;
        checkCudaErrors(cuMemcpyDtoH(&v, g, sizeof v));
        seen[t] = v;
        // Push the primary on top, then pop back to our own.
        checkCudaErrors(cuCtxPushCurrent(primary));
        CUcontext top;
        checkCudaErrors(cuCtxGetCurrent(&top));
        EXPECT(top == primary);
        CUcontext popped;
        checkCudaErrors(cuCtxPopCurrent(&popped));
        EXPECT(popped == primary);
        checkCudaErrors(cuCtxGetCurrent(&top));
        EXPECT(top == ctx);
        unsigned apiVersion = 0;
        checkCudaErrors(cuCtxGetApiVersion(ctx, &apiVersion));
        EXPECT(apiVersion >= 3020);
        checkCudaErrors(cuModuleUnload(m));
        checkCudaErrors(cuCtxDestroy(ctx));
        CUcontext after;
        checkCudaErrors(cuCtxGetCurrent(&after));
        EXPECT(after == nullptr);
      });
    for (auto &th : ts) th.join();
    for (int t = 0; t < 3; ++t) EXPECT(seen[t] == 32 * (t + 1));
  }

  // 3. A context handed from one thread to another: popped floating in
  //    thread A, pushed in thread B.
  {
    CUcontext floating = nullptr;
    std::mutex mu; std::condition_variable cv; bool ready = false;
    std::thread a([&] {
      CUcontext ctx;
      checkCudaErrors(cuCtxCreate(&ctx, NULL, 0, dev));
      CUdeviceptr d;
      checkCudaErrors(cuMemAlloc(&d, 64));
      checkCudaErrors(cuMemsetD32(d, 7, 16));
      // The allocation's context is the created one.
      CUcontext owner = nullptr;
      checkCudaErrors(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, d));
      EXPECT(owner == ctx);
      CUcontext p;
      checkCudaErrors(cuCtxPopCurrent(&p));
      EXPECT(p == ctx);
      { std::lock_guard<std::mutex> l(mu); floating = ctx; ready = true; }
      cv.notify_one();
    });
    std::thread b([&] {
      std::unique_lock<std::mutex> l(mu);
      cv.wait(l, [&] { return ready; });
      checkCudaErrors(cuCtxPushCurrent(floating));
      CUdevice d2;
      checkCudaErrors(cuCtxGetDevice(&d2));
      EXPECT(d2 == dev);
      CUmodule m;
      checkCudaErrors(cuModuleLoad(&m, "worker_kernels.cubin"));
      run_stamp(m, 9);
      checkCudaErrors(cuModuleUnload(m));
      CUcontext p;
      checkCudaErrors(cuCtxPopCurrent(&p));
      EXPECT(p == floating);
      checkCudaErrors(cuCtxDestroy(floating));
    });
    a.join(); b.join();
  }
  // Popping with nothing current is an error.
  checkCudaErrors(cuCtxSetCurrent(NULL));
  CUcontext none;
  CUresult r = cuCtxPopCurrent(&none);
  EXPECT(r == CUDA_ERROR_INVALID_CONTEXT);
  checkCudaErrors(cuDevicePrimaryCtxRelease(dev));
  checkCudaErrors(cuDevicePrimaryCtxGetState(dev, &flags, &active));
  printf("primary context active after the last release: %d\n", active);
  printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
