#ifndef TRIALMGPU2_GRAPH_KERNELS_CUH
#define TRIALMGPU2_GRAPH_KERNELS_CUH
#include <cuda_runtime.h>

__global__ void scale_add(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void set_value(float *y, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = v;
}

__global__ void dot_atomic(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, a[i] * b[i]);
}
#endif // TRIALMGPU2_GRAPH_KERNELS_CUH
