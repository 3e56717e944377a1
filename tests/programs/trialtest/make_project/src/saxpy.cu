// saxpy.cu: y = a*x + y, launched on a stream.
// NVCC_OPTIONS: -I../include
#include "kern.h"

static __global__ void saxpy_kernel(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(a, x[i], y[i]);
}

cudaError_t kern::saxpy(int n, float a, const float* d_x, float* d_y, cudaStream_t s) {
  saxpy_kernel<<<(n + 255) / 256, 256, 0, s>>>(n, a, d_x, d_y);
  return cudaGetLastError();
}
