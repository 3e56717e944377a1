// device_info.cpp: host code built by the host compiler against the CUDA
// runtime's headers, as engines print the device they run on.
#include <cuda_runtime.h>

#include <cstdio>

#include "gdb/host_ref.h"

namespace gdb::host {

void print_device_summary() {
  int device = 0;
  cudaDeviceProp prop;
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    std::printf("device: unknown\n");
    return;
  }
  int pools = 0;
  cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device);
  std::fprintf(stderr, "device %d: %s, sm_%d%d, %d SMs, %zu KiB shared/block, pools %d\n", device, prop.name,
               prop.major, prop.minor, prop.multiProcessorCount, prop.sharedMemPerBlock / 1024, pools);
}

}  // namespace gdb::host
