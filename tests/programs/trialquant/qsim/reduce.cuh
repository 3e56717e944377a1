// reduce.cuh: block reductions on double, with warp shuffles and shared memory.
#ifndef QSIM_REDUCE_CUH
#define QSIM_REDUCE_CUH

namespace qsim {

__device__ __forceinline__ double warp_reduce_sum(double v) {
#pragma unroll
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Every thread gets the block's sum; BLOCK is a multiple of 32.
template <int BLOCK>
__device__ double block_reduce_sum(double v) {
  static __shared__ double warp_sums[BLOCK / 32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_reduce_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  v = (threadIdx.x < BLOCK / 32) ? warp_sums[lane] : 0.0;
  if (warp == 0) v = warp_reduce_sum(v);
  __syncthreads();
  return v;
}

}  // namespace qsim

#endif  // QSIM_REDUCE_CUH
