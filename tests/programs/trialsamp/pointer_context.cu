// pointer_context.cu: CU_POINTER_ATTRIBUTE_CONTEXT names the context an
// allocation was made in, whichever context is current when it is asked,
// reduced from a driver-API program that created a context per device and
// checked where its buffers lived. Memory allocated through the runtime API
// (no driver context current) belongs to its device's primary context.
// cuemu once answered with the calling thread's current context.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include "../check.cuh"

int main() {
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);

  // Runtime memory: the primary context.
  void *rt = nullptr;
  CHECK(cudaMalloc(&rt, 256) == cudaSuccess);
  CUcontext primary = nullptr;
  CHECK(cuDevicePrimaryCtxRetain(&primary, dev) == CUDA_SUCCESS);

  CUcontext a = nullptr, b = nullptr;
  CHECK(cuCtxCreate(&a, nullptr, 0, dev) == CUDA_SUCCESS);
  CUdeviceptr pa = 0, pb = 0;
  CHECK(cuMemAlloc(&pa, 256) == CUDA_SUCCESS);
  CHECK(cuCtxCreate(&b, nullptr, 0, dev) == CUDA_SUCCESS); // now current
  CHECK(cuMemAlloc(&pb, 256) == CUDA_SUCCESS);

  CUcontext got = nullptr;
  CHECK(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_CONTEXT, pa) == CUDA_SUCCESS);
  CHECK(got == a);
  CHECK(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_CONTEXT, pb) == CUDA_SUCCESS);
  CHECK(got == b);
  CHECK(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)rt) == CUDA_SUCCESS);
  CHECK(got == primary);

  // Freed and allocated again at the same address in another context.
  CHECK(cuMemFree(pb) == CUDA_SUCCESS);
  CHECK(cuCtxPushCurrent(a) == CUDA_SUCCESS);
  CHECK(cuMemAlloc(&pb, 256) == CUDA_SUCCESS);
  CHECK(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_CONTEXT, pb) == CUDA_SUCCESS);
  CHECK(got == a);
  CUcontext popped = nullptr;
  CHECK(cuCtxPopCurrent(&popped) == CUDA_SUCCESS && popped == a);

  CHECK(cuMemFree(pa) == CUDA_SUCCESS);
  CHECK(cuMemFree(pb) == CUDA_SUCCESS);
  CHECK(cuCtxDestroy(b) == CUDA_SUCCESS);
  CHECK(cuCtxDestroy(a) == CUDA_SUCCESS);
  CHECK(cudaFree(rt) == cudaSuccess);
  CHECK(cuDevicePrimaryCtxRelease(dev) == CUDA_SUCCESS);
  return finish();
}
