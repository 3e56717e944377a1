// driver_after_device_query.cu: CUDA's runtime initialises the driver on
// its first call, whatever the call, so a program that asked the runtime
// for the device count or the properties may call the driver API without
// cuInit of its own: cuCtxGetCurrent succeeds and gives NULL (no context
// is current until a runtime call that works with the device), and
// cuCtxGetDevice reports CUDA_ERROR_INVALID_CONTEXT. cuda-api-wrappers asks
// cuCtxGetCurrent before every scoped context override; cuemu answered
// CUDA_ERROR_NOT_INITIALIZED after cudaGetDeviceCount and
// cudaGetDeviceProperties.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess && count > 0);
  CUcontext current = reinterpret_cast<CUcontext>(1);
  CHECK(cuCtxGetCurrent(&current) == CUDA_SUCCESS);
  CHECK(current == nullptr);
  CUdevice device = -1;
  CHECK(cuCtxGetDevice(&device) == CUDA_ERROR_INVALID_CONTEXT);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  int version = 0;
  CHECK(cuDriverGetVersion(&version) == CUDA_SUCCESS && version > 0);
  CUdevice first;
  CHECK(cuDeviceGet(&first, 0) == CUDA_SUCCESS);
  /* A runtime call that works with the device makes its primary context
   * current, which the driver then sees. */
  void *p = nullptr;
  CHECK(cudaMalloc(&p, 64) == cudaSuccess);
  CHECK(cuCtxGetCurrent(&current) == CUDA_SUCCESS && current != nullptr);
  CHECK(cuCtxGetDevice(&device) == CUDA_SUCCESS && device == 0);
  CHECK(cudaFree(p) == cudaSuccess);
  std::printf("PASS\n");
  return 0;
}
