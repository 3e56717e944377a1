// reduce.cuh: block-wide sums (warp shuffles, then one warp over the partials).
#pragma once
#include <cuda_runtime.h>

namespace md {

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// The sum over the block, valid in thread 0. BLOCK is blockDim.x.
template <typename T, int BLOCK>
__device__ T block_sum(T v) {
  static_assert(BLOCK % 32 == 0, "whole warps");
  __shared__ T partial[BLOCK / 32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = threadIdx.x < BLOCK / 32 ? partial[lane] : T(0);
  if (warp == 0) v = warp_sum(v);
  return v;
}

} // namespace md
