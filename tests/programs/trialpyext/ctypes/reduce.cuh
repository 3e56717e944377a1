// reduce.cuh: block reductions and a shared-memory histogram of libkern_b.
#pragma once
#include <cuda_runtime.h>
#include <cstdint>

template <typename T>
__device__ T warp_sum(T v) {
  for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

template <typename T, int BLOCK>
__global__ void sum_kernel(const T* __restrict__ in, int n, T* out) {
  __shared__ T partial[BLOCK / 32];
  T v = T(0);
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) v += in[i];
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < BLOCK / 32 ? partial[threadIdx.x] : T(0);
    v = warp_sum(v);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

__global__ void histogram_kernel(const uint8_t* data, int n, unsigned int* hist) {
  extern __shared__ unsigned int local_hist[];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local_hist[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&hist[b], local_hist[b]);
}
