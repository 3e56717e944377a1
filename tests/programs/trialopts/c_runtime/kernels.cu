#include "kernels.h"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__device__ int counter;

__global__ void scale(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] *= s;
    atomicAdd(&counter, 1);
  }
}

extern "C" cudaError_t launch_saxpy(int n, float a, const float *x, float *y,
                                    cudaStream_t stream) {
  saxpy<<<(n + 127) / 128, 128, 0, stream>>>(n, a, x, y);
  return cudaGetLastError();
}

extern "C" const void *scale_kernel(void) { return (const void *)scale; }

extern "C" const void *counter_symbol(void) { return (const void *)&counter; }
