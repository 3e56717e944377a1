// Warp- and block-level reductions (shuffles plus a shared-memory stage).
#ifndef CFD_REDUCE_CUH
#define CFD_REDUCE_CUH

#include <cuda_runtime.h>

namespace cfd {

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v) {
#pragma unroll
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

template <typename T>
__device__ __forceinline__ T warp_reduce_max(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v = max(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// Sum over the block; the result is valid in thread 0. BLOCK must be a
// multiple of 32. Safe to call several times in a row.
template <int BLOCK, typename T>
__device__ T block_reduce_sum(T v) {
  static_assert(BLOCK % 32 == 0, "block size must be a multiple of the warp");
  __shared__ T warp_sums[BLOCK / 32];
  const int lane = threadIdx.x & 31;
  const int wid = threadIdx.x >> 5;
  v = warp_reduce_sum(v);
  if (lane == 0)
    warp_sums[wid] = v;
  __syncthreads();
  v = (threadIdx.x < BLOCK / 32) ? warp_sums[lane] : T(0);
  if (wid == 0)
    v = warp_reduce_sum(v);
  __syncthreads();
  return v;
}

// Adds the block's sum of v into *out (one double atomic per block).
template <int BLOCK>
__device__ void block_sum_atomic(double v, double *out) {
  double s = block_reduce_sum<BLOCK>(v);
  if (threadIdx.x == 0)
    atomicAdd(out, s);
}

} // namespace cfd

#endif // CFD_REDUCE_CUH
