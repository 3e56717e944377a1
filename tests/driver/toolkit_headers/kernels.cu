// kernels.cu: a kernel and its launch wrapper, with NVTX ranges: NVTX's
// headers (nvtx3/) are the toolkit's, which nvcc finds without -I.
#include <nvtx3/nvToolsExt.h>

#include "kernels.cuh"

__global__ void scale(float *x, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= s;
}

void scale_on_device(float *x, int n, float s) {
  nvtxRangePushA("scale");
  scale<<<(n + 255) / 256, 256>>>(x, n, s);
  cudaDeviceSynchronize();
  nvtxRangePop();
}
