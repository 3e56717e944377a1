/*
 * pool_kernels.cuh: kernels of the pool tests: the fill and block-wise sum
 * of the stream-ordered allocation tests, and a grid-stride scale.
 */
#ifndef POOLS_POOL_KERNELS_CUH
#define POOLS_POOL_KERNELS_CUH

#include <cuda_runtime.h>

#include "../hostapi/pool_kernels.cuh"

template <typename T> __global__ void scale_by(T *data, int n, T factor) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    data[i] *= factor;
}

#endif
