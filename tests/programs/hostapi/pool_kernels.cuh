/*
 * pool_kernels.cuh: the kernels of the stream-ordered allocation tests: a
 * fill and a block-wise sum, templates as libraries write them.
 */
#ifndef HOSTAPI_POOL_KERNELS_CUH
#define HOSTAPI_POOL_KERNELS_CUH

#include <cuda_runtime.h>

template <typename T> __global__ void fill(T *out, int n, T base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = base + static_cast<T>(i);
}

/* Sums `in` into *out: each block reduces its part in shared memory. */
template <typename T, int Block>
__global__ void block_sum(const T *in, int n, T *out) {
  __shared__ T part[Block];
  int i = blockIdx.x * Block + threadIdx.x;
  part[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int s = Block / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, part[0]);
}

#endif
