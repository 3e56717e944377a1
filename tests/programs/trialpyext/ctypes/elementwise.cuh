// elementwise.cuh: elementwise kernels of libkern_a, templated on the type.
#pragma once
#include <cuda_runtime.h>

template <typename T>
__global__ void axpy_kernel(size_t n, T a, const T* __restrict__ x, T* __restrict__ y) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}

__constant__ float c_poly[4];

template <typename T>
__device__ __forceinline__ T horner(T x) {
  return ((T(c_poly[3]) * x + T(c_poly[2])) * x + T(c_poly[1])) * x + T(c_poly[0]);
}

template <typename T>
__global__ void poly_kernel(int n, const T* x, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = horner(x[i]);
}
