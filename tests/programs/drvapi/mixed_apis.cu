// mixed_apis.cu: the runtime API and the driver API in one program, as
// CUDA allows: after the runtime has worked with a device, driver calls
// work in that device's primary context without cuInit or cuCtxCreate;
// memory of either API serves the other's calls and kernels; and driver
// calls never change cudaGetLastError().
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include "../check.cuh"

__global__ void add(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += v;
}

int main() {
  const int n = 512;
  CHECK(cudaSetDevice(0) == cudaSuccess);
  int *rt = nullptr;
  CHECK(cudaMalloc(&rt, n * sizeof(int)) == cudaSuccess);

  // The runtime made the primary context current.
  CUcontext current = nullptr, primary = nullptr;
  CHECK(cuCtxGetCurrent(&current) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRetain(&primary, 0) == CUDA_SUCCESS);
  CHECK(current != nullptr && current == primary);
  CUdevice dev = -1;
  CHECK(cuCtxGetDevice(&dev) == CUDA_SUCCESS && dev == 0);

  // Driver memory in a runtime kernel, runtime memory in driver copies.
  CUdeviceptr drv = 0;
  CHECK(cuMemAlloc(&drv, n * sizeof(int)) == CUDA_SUCCESS);
  CHECK(cuMemsetD32(drv, 5, n) == CUDA_SUCCESS);
  add<<<n / 128, 128>>>(reinterpret_cast<int *>(drv), n, 2);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cuMemcpyDtoD(reinterpret_cast<CUdeviceptr>(rt), drv,
                     n * sizeof(int)) == CUDA_SUCCESS);
  int host[n];
  CHECK(cudaMemcpy(host, rt, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && host[i] == 7;
  CHECK(ok);
  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, reinterpret_cast<void *>(drv)) ==
        cudaSuccess);
  CHECK(attr.type == cudaMemoryTypeDevice && attr.device == 0);

  // A failing driver call leaves the runtime's last error alone.
  CHECK(cuMemFree(drv + 4) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  CHECK(cudaFree(rt + 1) == cudaErrorInvalidValue);
  CHECK(cuMemFree(drv) == CUDA_SUCCESS);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaFree(rt) == cudaSuccess);
  CHECK(cuDevicePrimaryCtxRelease(0) == CUDA_SUCCESS);
  return finish();
}
