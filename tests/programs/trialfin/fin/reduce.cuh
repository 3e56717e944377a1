// reduce.cuh: block reductions used by the Monte Carlo kernels.
#ifndef FIN_REDUCE_CUH
#define FIN_REDUCE_CUH
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace fin {
namespace cg = cooperative_groups;

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v) {
#pragma unroll
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Sum over the block; the result is valid in thread 0. Needs blockDim.x a
// multiple of 32 and at most 1024.
template <typename T>
__device__ T block_reduce_sum(T v) {
  __shared__ T warp_sums[32];
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  v = warp_reduce_sum(v);
  if (lane == 0) warp_sums[wid] = v;
  __syncthreads();
  const int nwarps = blockDim.x / warpSize;
  v = (threadIdx.x < nwarps) ? warp_sums[lane] : T(0);
  if (wid == 0) v = warp_reduce_sum(v);
  return v;
}

// Same with cooperative groups: tile reduce, then one atomic per tile.
template <typename T>
__device__ void cg_reduce_add(T v, T *global_acc) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  T s = cg::reduce(tile, v, cg::plus<T>());
  if (tile.thread_rank() == 0) atomicAdd(global_acc, s);
}

} // namespace fin

#endif // FIN_REDUCE_CUH
