// primary_context_held_by_runtime.cu: once the runtime API has worked with
// a device, CUDA's runtime holds a reference to the device's primary
// context, so cuDevicePrimaryCtxGetState reports it active, and a library
// that retains and releases it around its own calls (cuda-api-wrappers
// does so for every primary_context() it takes) leaves it active and its
// allocations usable. cuemu reported the context inactive until a driver
// call had made it current.
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

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

int main() {
  CHECK(cudaSetDevice(0) == cudaSuccess);
  int *p = nullptr;
  CHECK(cudaMalloc(&p, 32 * sizeof(int)) == cudaSuccess);
  unsigned flags = 0;
  int active = -1;
  CHECK(cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS);
  CHECK(active == 1);
  for (int round = 0; round < 2; ++round) {
    CUcontext primary = nullptr;
    CHECK(cuDevicePrimaryCtxRetain(&primary, 0) == CUDA_SUCCESS);
    CHECK(cuCtxPushCurrent(primary) == CUDA_SUCCESS);
    fill<<<1, 32>>>(p, round + 7);
    CHECK(cudaGetLastError() == cudaSuccess);
    CUcontext popped = nullptr;
    CHECK(cuCtxPopCurrent(&popped) == CUDA_SUCCESS && popped == primary);
    CHECK(cuDevicePrimaryCtxRelease(0) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS);
    CHECK(active == 1);
  }
  int h[32];
  CHECK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 32; ++i)
    CHECK(h[i] == 8);
  CHECK(cudaFree(p) == cudaSuccess);
  std::printf("PASS\n");
  return 0;
}
