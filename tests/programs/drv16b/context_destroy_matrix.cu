/*
 * context_destroy_matrix.cu: which context is current after each of
 * cuCtxCreate, cuCtxPushCurrent, cuCtxPopCurrent, cuCtxSetCurrent and
 * cuCtxDestroy, and what a call that needs a context (cuMemAlloc) then
 * returns. As CUDA's reference says: cuCtxDestroy of the calling thread's
 * current context pops it (as cuCtxPopCurrent), so that the context below
 * it, or none, is current; with none, cuMemAlloc is
 * CUDA_ERROR_INVALID_CONTEXT (cuemu once made the primary context current
 * again); a context destroyed while current to another thread stays
 * current there, and calls there get CUDA_ERROR_CONTEXT_IS_DESTROYED.
 * A driver-only program: the runtime API never binds its primary context
 * to these threads. Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include <thread>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static CUcontext current() {
  CUcontext c = reinterpret_cast<CUcontext>(1);
  CU(cuCtxGetCurrent(&c));
  return c;
}

/* cuMemAlloc's answer in the current context (the memory is freed). */
static CUresult alloc_result() {
  CUdeviceptr p = 0;
  CUresult r = cuMemAlloc(&p, 256);
  if (r == CUDA_SUCCESS)
    CU(cuMemFree(p));
  return r;
}

static CUcontext create(CUdevice dev) {
  CUcontext c = nullptr;
  CU(cuCtxCreate(&c, nullptr, 0, dev));
  return c;
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CHECK(current() == nullptr);
  CHECK(alloc_result() == CUDA_ERROR_INVALID_CONTEXT);

  // Create makes the context current; destroying it leaves none.
  CUcontext a = create(dev);
  CHECK(current() == a);
  CHECK(alloc_result() == CUDA_SUCCESS);
  CU(cuCtxDestroy(a));
  CHECK(current() == nullptr);
  CHECK(alloc_result() == CUDA_ERROR_INVALID_CONTEXT);
  CHECK(cuCtxSynchronize() == CUDA_ERROR_INVALID_CONTEXT);
  CUcontext popped = nullptr;
  CHECK(cuCtxPopCurrent(&popped) == CUDA_ERROR_INVALID_CONTEXT);

  // Two on the stack: destroying the top one makes the one below current.
  a = create(dev);
  CUcontext b = create(dev);
  CHECK(current() == b);
  CU(cuCtxDestroy(b));
  CHECK(current() == a);
  CHECK(alloc_result() == CUDA_SUCCESS);
  CU(cuCtxDestroy(a));
  CHECK(current() == nullptr);
  CHECK(alloc_result() == CUDA_ERROR_INVALID_CONTEXT);

  // Popped, then destroyed while not current: nothing is current.
  a = create(dev);
  CU(cuCtxPopCurrent(&popped));
  CHECK(popped == a);
  CHECK(current() == nullptr);
  CHECK(alloc_result() == CUDA_ERROR_INVALID_CONTEXT);
  CU(cuCtxPushCurrent(a));
  CHECK(current() == a);
  CHECK(alloc_result() == CUDA_SUCCESS);
  CU(cuCtxPopCurrent(&popped));
  CU(cuCtxDestroy(a));
  CHECK(current() == nullptr);
  CHECK(alloc_result() == CUDA_ERROR_INVALID_CONTEXT);

  // cuCtxSetCurrent replaces the top; with NULL it pops it.
  a = create(dev);
  b = create(dev);
  CU(cuCtxSetCurrent(a));  // the stack: a, a
  CHECK(current() == a);
  CU(cuCtxSetCurrent(nullptr));  // the stack: a
  CHECK(current() == a);
  CU(cuCtxSetCurrent(nullptr));  // empty
  CHECK(current() == nullptr);
  CHECK(alloc_result() == CUDA_ERROR_INVALID_CONTEXT);
  CU(cuCtxSetCurrent(nullptr));  // a no-op on an empty stack
  CU(cuCtxSetCurrent(b));
  CHECK(current() == b);
  CU(cuCtxDestroy(b));
  CHECK(current() == nullptr);
  CHECK(alloc_result() == CUDA_ERROR_INVALID_CONTEXT);
  CU(cuCtxDestroy(a));
  CHECK(cuCtxDestroy(a) != CUDA_SUCCESS);  // destroyed already

  // The primary context, made current by cuCtxSetCurrent and popped.
  CUcontext primary = nullptr;
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuCtxSetCurrent(primary));
  CHECK(alloc_result() == CUDA_SUCCESS);
  CU(cuCtxSetCurrent(nullptr));
  CHECK(current() == nullptr);
  CHECK(alloc_result() == CUDA_ERROR_INVALID_CONTEXT);
  CHECK(cuCtxDestroy(primary) != CUDA_SUCCESS);  // not a created context
  CU(cuDevicePrimaryCtxRelease(dev));

  // Destroyed while current to another thread: it stays current there,
  // and calls there get CUDA_ERROR_CONTEXT_IS_DESTROYED.
  CUcontext shared = create(dev);
  CU(cuCtxPopCurrent(&popped));
  CUresult seen = CUDA_SUCCESS, after_pop = CUDA_SUCCESS;
  CUcontext seen_current = nullptr;
  int allocated = 0; /* the worker's first allocation in it succeeded */
  {
    std::thread worker([&] {
      cuCtxSetCurrent(shared);
      while (__atomic_load_n(&seen, __ATOMIC_ACQUIRE) == CUDA_SUCCESS) {
        /* The destruction may come between the allocation and its free:
         * either call then reports it. */
        CUdeviceptr p = 0;
        CUresult r = cuMemAlloc(&p, 256);
        if (r == CUDA_SUCCESS)
          r = cuMemFree(p);
        if (r == CUDA_SUCCESS)
          __atomic_store_n(&allocated, 1, __ATOMIC_RELEASE);
        if (r != CUDA_SUCCESS) {
          cuCtxGetCurrent(&seen_current);
          __atomic_store_n(&seen, r, __ATOMIC_RELEASE);
        }
        std::this_thread::yield();
      }
      CUcontext p = nullptr;
      cuCtxPopCurrent(&p);
      after_pop = alloc_result();
    });
    // The worker allocates in the context until it is destroyed; the
    // destruction waits for its first allocation there (on a loaded
    // machine the worker may not have started after a fixed wait, and its
    // cuCtxSetCurrent would then find the context already destroyed).
    while (!__atomic_load_n(&allocated, __ATOMIC_ACQUIRE))
      std::this_thread::yield();
    CU(cuCtxDestroy(shared));
    worker.join();
  }
  CHECK(seen == CUDA_ERROR_CONTEXT_IS_DESTROYED);
  CHECK(seen_current == shared);
  CHECK(after_pop == CUDA_ERROR_INVALID_CONTEXT);
  return finish();
}
