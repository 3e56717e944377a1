#pragma once
#include <cuda_runtime.h>

template <typename T>
__global__ void axpb_kernel(T *y, const T *x, T a, T b, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + b;
}

template <typename T, int BLOCK>
__global__ void reduce_kernel(const T *in, T *out, int n) {
  __shared__ T sdata[BLOCK];
  T v = T(0);
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x)
    v += in[i];
  sdata[threadIdx.x] = v;
  __syncthreads();
#pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, sdata[0]);
}

extern __global__ void normalize_kernel(float *data, int n, const float *sum);
