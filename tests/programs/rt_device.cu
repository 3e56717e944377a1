/*
 * rt_device.cu: device management of the CUDA runtime API: the device
 * count, the current device, device flags, the properties and attributes
 * of the emulated device (compute capability 9.0 and 8 SMs unless
 * CUEMU_DEVICE says otherwise; the test accepts any configuration), the
 * versions, cudaMemGetInfo and the profiler calls. Prints PASS when all is
 * well.
 */
#include <cstring>

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include "check.cuh"

int main() {
  int count = -1;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(count >= 1);
  CHECK(cudaGetDeviceCount(nullptr) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaSetDevice(count) == cudaErrorInvalidDevice);
  CHECK(cudaSetDevice(-1) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  int device = -1;
  CHECK(cudaGetDevice(&device) == cudaSuccess && device == 0);
  CHECK(cudaGetDevice(nullptr) == cudaErrorInvalidValue);

  /* Flags. */
  CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) == cudaSuccess);
  unsigned flags = 0;
  CHECK(cudaGetDeviceFlags(&flags) == cudaSuccess);
  CHECK((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync);
  CHECK(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield) ==
        cudaErrorInvalidValue);
  CHECK(cudaSetDeviceFlags(0x100) == cudaErrorInvalidValue);
  CHECK(cudaSetDeviceFlags(cudaDeviceScheduleAuto | cudaDeviceMapHost) ==
        cudaSuccess);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  /* Properties. */
  cudaDeviceProp prop;
  std::memset(&prop, 0xff, sizeof prop);
  CHECK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(std::strlen(prop.name) > 0 && std::strlen(prop.name) < 256);
  CHECK(prop.major >= 7 && prop.minor >= 0 && prop.minor <= 9);
  CHECK(prop.multiProcessorCount >= 1);
  CHECK(prop.warpSize == 32);
  CHECK(prop.maxThreadsPerBlock == 1024);
  CHECK(prop.maxThreadsDim[0] == 1024 && prop.maxThreadsDim[1] == 1024 &&
        prop.maxThreadsDim[2] == 64);
  CHECK(prop.maxGridSize[0] == 2147483647 && prop.maxGridSize[1] == 65535 &&
        prop.maxGridSize[2] == 65535);
  CHECK(prop.sharedMemPerBlock == 48 * 1024);
  CHECK(prop.sharedMemPerBlockOptin >= prop.sharedMemPerBlock);
  CHECK(prop.sharedMemPerMultiprocessor >= prop.sharedMemPerBlockOptin);
  CHECK(prop.regsPerBlock > 0 && prop.totalConstMem == 64 * 1024);
  CHECK(prop.totalGlobalMem > 0);
  CHECK(prop.maxThreadsPerMultiProcessor >= 1024);
  CHECK(prop.memoryBusWidth > 0 && prop.l2CacheSize > 0);
  CHECK(prop.concurrentKernels == 1 && prop.unifiedAddressing == 1);
  CHECK(prop.managedMemory == 1 && prop.cooperativeLaunch == 1);
  CHECK(prop.canMapHostMemory == 1);
  CHECK(cudaGetDeviceProperties(&prop, count) == cudaErrorInvalidDevice);
  CHECK(cudaGetDeviceProperties(nullptr, 0) == cudaErrorInvalidValue);
  CHECK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);

  /* Attributes agree with the properties. */
  int v = -1;
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0) ==
            cudaSuccess &&
        v == prop.major);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMinor, 0) ==
            cudaSuccess &&
        v == prop.minor);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0) ==
            cudaSuccess &&
        v == prop.multiProcessorCount);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0) ==
            cudaSuccess &&
        v == 1024);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0) == cudaSuccess &&
        v == 32);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                               0) == cudaSuccess &&
        v == (int)prop.sharedMemPerBlockOptin);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeMode, 0) == cudaSuccess &&
        v == cudaComputeModeDefault);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0) == cudaSuccess &&
        v > 0);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0) ==
            cudaSuccess &&
        v > 0);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxGridDimY, 0) == cudaSuccess &&
        v == 65535);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, 0) ==
        cudaSuccess);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count) ==
        cudaErrorInvalidDevice);
  CHECK(cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(100000), 0) ==
        cudaErrorInvalidValue);
  CHECK(cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0) ==
        cudaErrorInvalidValue);

  /* Versions. */
  int driver = 0, runtime = 0;
  CHECK(cudaDriverGetVersion(&driver) == cudaSuccess);
  CHECK(cudaRuntimeGetVersion(&runtime) == cudaSuccess);
  CHECK(runtime == CUDART_VERSION && driver >= runtime);
  CHECK(cudaRuntimeGetVersion(nullptr) == cudaErrorInvalidValue);

  /* Memory information. */
  size_t free_bytes = 0, total_bytes = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess);
  CHECK(total_bytes > 0 && free_bytes <= total_bytes);
  /* Either output may be NULL: CUDA writes the other one only. */
  size_t total_alone = 0, free_alone = 0;
  CHECK(cudaMemGetInfo(nullptr, &total_alone) == cudaSuccess);
  CHECK(total_alone == total_bytes);
  CHECK(cudaMemGetInfo(&free_alone, nullptr) == cudaSuccess);
  CHECK(free_alone <= total_bytes);
  CHECK(cudaMemGetInfo(nullptr, nullptr) == cudaSuccess);

  /* The profiler calls do nothing and succeed. */
  CHECK(cudaProfilerStart() == cudaSuccess);
  CHECK(cudaProfilerStop() == cudaSuccess);

  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  return finish();
}
