// stream_ctx_thread.cu: a program that uses only the driver API; a thread
// that never made a context current has none (cuCtxGetCurrent gives NULL),
// even after another thread asked a stream for its context
// (cuStreamGetCtx called into the runtime in a way that counted as the
// program's own use of the runtime API, after which every thread without
// a context was given the primary one). A created context that is
// destroyed while current is popped, leaving none.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include <thread>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuCtxCreate(&ctx, nullptr, 0, dev));
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUcontext of_stream = nullptr;
  CU(cuStreamGetCtx(s, &of_stream));
  CHECK(of_stream == ctx);
  CUdeviceptr d;
  CU(cuMemAlloc(&d, 256));
  CU(cuMemsetD32Async(d, 3, 64, s));
  CU(cuStreamSynchronize(s));
  std::thread t([&] {
    CUcontext current = ctx;
    CU(cuCtxGetCurrent(&current));
    CHECK(current == nullptr);
    CUdeviceptr other;
    CHECK(cuMemAlloc(&other, 16) == CUDA_ERROR_INVALID_CONTEXT);
    // Its own context, destroyed while current: none is left.
    CUcontext mine;
    CU(cuCtxCreate(&mine, nullptr, 0, dev));
    CU(cuCtxDestroy(mine));
    current = ctx;
    CU(cuCtxGetCurrent(&current));
    CHECK(current == nullptr);
  });
  t.join();
  CUcontext current = nullptr;
  CU(cuCtxGetCurrent(&current));
  CHECK(current == ctx);
  CU(cuMemFree(d));
  CU(cuStreamDestroy(s));
  CU(cuCtxDestroy(ctx));
  return finish();
}
