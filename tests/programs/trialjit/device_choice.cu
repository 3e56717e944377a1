// device_choice.cu: how multi-GPU tutorials pick and prepare devices:
// cudaChooseDevice with the wanted compute capability (CUDA by Example's
// way), cudaInitDevice of a device that does not become current (with its
// flags), and the flags of pinned memory read back with cudaHostGetFlags
// and cuMemHostGetFlags. The three runtime calls and the driver's were
// missing from cuemu's headers, and such programs did not compile.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>

#include "../check.cuh"

__global__ void twice(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= 2;
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(count == 2);

  // The device of the requested compute capability.
  cudaDeviceProp want;
  std::memset(&want, 0, sizeof want);
  cudaDeviceProp p0;
  CHECK(cudaGetDeviceProperties(&p0, 0) == cudaSuccess);
  want.major = p0.major;
  want.minor = p0.minor;
  int dev = -1;
  CHECK(cudaChooseDevice(&dev, &want) == cudaSuccess);
  CHECK(dev >= 0 && dev < count);
  cudaDeviceProp got;
  CHECK(cudaGetDeviceProperties(&got, dev) == cudaSuccess);
  CHECK(got.major == want.major && got.minor == want.minor);
  CHECK(cudaChooseDevice(nullptr, &want) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaSetDevice(dev) == cudaSuccess);

  // Device 1 initialised with its flags, device 0 still current.
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaInitDevice(1, cudaDeviceScheduleBlockingSync,
                       cudaInitDeviceFlagsAreValid) == cudaSuccess);
  int current = -1;
  CHECK(cudaGetDevice(&current) == cudaSuccess);
  CHECK(current == 0);
  CHECK(cudaSetDevice(1) == cudaSuccess);
  unsigned flags = 0;
  CHECK(cudaGetDeviceFlags(&flags) == cudaSuccess);
  CHECK((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync);
  CHECK(cudaInitDevice(count, 0, 0) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);

  // Pinned memory keeps the flags it was allocated with; other memory has
  // none to give.
  int *mapped = nullptr, *pinned = nullptr, *dev_mem = nullptr;
  CHECK(cudaHostAlloc(&mapped, 64 * sizeof(int),
                      cudaHostAllocMapped | cudaHostAllocPortable) ==
        cudaSuccess);
  CHECK(cudaMallocHost(&pinned, 64 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&dev_mem, 64 * sizeof(int)) == cudaSuccess);
  CHECK(cudaHostGetFlags(&flags, mapped + 10) == cudaSuccess);
  CHECK(flags == (cudaHostAllocMapped | cudaHostAllocPortable));
  CHECK(cudaHostGetFlags(&flags, pinned) == cudaSuccess);
  CHECK(flags == cudaHostAllocDefault);
  CHECK(cudaHostGetFlags(&flags, dev_mem) == cudaErrorInvalidValue);
  int local[4];
  CHECK(cudaHostGetFlags(&flags, local) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cuMemHostGetFlags(&flags, mapped) == CUDA_SUCCESS);
  CHECK(flags == (CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
  CHECK(cuMemHostGetFlags(&flags, dev_mem) == CUDA_ERROR_INVALID_VALUE);

  // The mapped memory works from a kernel of the chosen device.
  for (int i = 0; i < 64; ++i)
    mapped[i] = i;
  int *alias = nullptr;
  CHECK(cudaHostGetDevicePointer(&alias, mapped, 0) == cudaSuccess);
  twice<<<1, 64>>>(alias, 64);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 64; ++i)
    CHECK(mapped[i] == 2 * i);
  cudaFreeHost(mapped);
  cudaFreeHost(pinned);
  cudaFree(dev_mem);
  return finish();
}
