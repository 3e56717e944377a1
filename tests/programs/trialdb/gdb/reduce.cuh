// reduce.cuh: warp and block reductions by shuffles.
#pragma once

#include "gdb/common.cuh"

namespace gdb {

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}

// The sum of the block's values, valid in thread 0.
template <int BLOCK, typename T>
__device__ T block_sum(T v) {
  static_assert(BLOCK % kWarpSize == 0, "whole warps");
  __shared__ T partial[BLOCK / kWarpSize];
  v = warp_sum(v);
  const int warp = threadIdx.x / kWarpSize;
  if (lane_id() == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = threadIdx.x < BLOCK / kWarpSize ? partial[threadIdx.x] : T(0);
    v = warp_sum(v);
  }
  return v;
}

}  // namespace gdb
