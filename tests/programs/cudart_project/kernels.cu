/* kernels.cu: the project's only CUDA file; the host files call it
 * through kernels.h. */
#include "kernels.h"

#include <string.h>

__global__ void scale(float *data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * factor + i;
}

extern "C" int launch_scale(float *data, float factor, int n,
                            cudaStream_t stream) {
  scale<<<(n + 127) / 128, 128, 0, stream>>>(data, factor, n);
  return (int)cudaGetLastError();
}

extern "C" int summarize_device(int device, struct device_summary *out) {
  cudaDeviceProp prop;
  cudaError_t e = cudaGetDeviceProperties(&prop, device);
  if (e != cudaSuccess)
    return (int)e;
  strncpy(out->name, prop.name, sizeof out->name);
  out->major = prop.major;
  out->minor = prop.minor;
  out->multiProcessorCount = prop.multiProcessorCount;
  out->totalGlobalMem = prop.totalGlobalMem;
  return 0;
}
