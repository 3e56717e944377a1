// set_device_makes_primary_current.cu: cudaSetDevice makes the device's
// primary context current by cuCtxSetCurrent (CUDA's "Interactions with the
// CUDA Driver API"), so after a program has pushed a context it created,
// cudaSetDevice puts the primary context in its place at the top of the
// stack, and the runtime's allocations and launches that follow work in the
// primary context; the entries below stay. cuda-api-wrappers'
// context_management example relies on it. cuemu left the created context
// current.
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

__global__ void store(int *p, int v) { p[threadIdx.x] = v; }

int main() {
  CUdevice dev;
  CUcontext primary, created, current, popped;
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRetain(&primary, dev) == CUDA_SUCCESS);
  CHECK(cuCtxCreate(&created, nullptr, 0, dev) == CUDA_SUCCESS);
  CHECK(cuCtxPushCurrent(created) == CUDA_SUCCESS);
  CHECK(cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == created);

  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cuCtxGetCurrent(&current) == CUDA_SUCCESS);
  CHECK(current == primary);
  int *p = nullptr;
  CHECK(cudaMalloc(&p, 32 * sizeof(int)) == cudaSuccess);
  CUcontext owner = nullptr;
  CHECK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT,
                              reinterpret_cast<CUdeviceptr>(p)) ==
        CUDA_SUCCESS);
  CHECK(owner == primary);
  store<<<1, 32>>>(p, 7);
  int h[32];
  CHECK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int v : h)
    CHECK(v == 7);
  CHECK(cudaFree(p) == cudaSuccess);

  // The top was replaced, not pushed: below it is the created context that
  // cuCtxCreate made current, then nothing.
  CHECK(cuCtxPopCurrent(&popped) == CUDA_SUCCESS && popped == primary);
  CHECK(cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == created);
  CHECK(cuCtxPopCurrent(&popped) == CUDA_SUCCESS && popped == created);
  CHECK(cuCtxDestroy(created) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRelease(dev) == CUDA_SUCCESS);
  std::printf("PASS\n");
  return 0;
}
