/*
 * pool_kernels.cuh: kernels of the pool tests: a fill, a checked sum and a
 * scale, templates as libraries write them.
 */
#ifndef POOLS_POOL_KERNELS_CUH
#define POOLS_POOL_KERNELS_CUH

#include <cuda_runtime.h>

template <typename T> __global__ void iota(T *out, int n, T base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = base + static_cast<T>(i);
}

template <typename T> __global__ void scale_by(T *data, int n, T factor) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    data[i] *= factor;
}

/* Sums `in` into *out, each block through shared memory. */
template <typename T, int Block>
__global__ void reduce_sum(const T *in, int n, T *out) {
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
