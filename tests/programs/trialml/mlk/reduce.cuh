#pragma once
#include <cub/block/block_reduce.cuh>
#include <cfloat>

#include "common.cuh"

namespace mlk {

struct SumOp {
  template <typename T> MLK_HOST_DEVICE T operator()(const T &a, const T &b) const { return a + b; }
};
struct MaxOp {
  template <typename T> MLK_HOST_DEVICE T operator()(const T &a, const T &b) const { return a > b ? a : b; }
};

template <typename T, typename Op>
MLK_DEVICE T warp_all_reduce(T v, Op op) {
#pragma unroll
  for (int mask = kWarpSize / 2; mask > 0; mask >>= 1)
    v = op(v, __shfl_xor_sync(0xffffffffu, v, mask, kWarpSize));
  return v;
}

// Block-wide reduction through shared memory and warp shuffles; every thread
// gets the result.
template <typename T, typename Op, int BlockSize>
MLK_DEVICE T block_all_reduce(T v, Op op, T identity) {
  static_assert(BlockSize % kWarpSize == 0, "block size must be a warp multiple");
  constexpr int kWarps = BlockSize / kWarpSize;
  __shared__ T partial[kWarps];
  __shared__ T result;
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  v = warp_all_reduce(v, op);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    T w = lane < kWarps ? partial[lane] : identity;
    w = warp_all_reduce(w, op);
    if (lane == 0) result = w;
  }
  __syncthreads();
  return result;
}

// The same through CUB.
template <typename T, int BlockSize>
struct CubBlockSum {
  using BlockReduce = cub::BlockReduce<T, BlockSize>;
  using TempStorage = typename BlockReduce::TempStorage;
};

}  // namespace mlk
