// topk.cuh: top-k by a bitonic sort of a tile in shared memory.
#pragma once

#include "gdb/common.cuh"

namespace gdb {

struct scored_row {
  float score;
  unsigned row;
};

// The order of the result: higher score first, then lower row.
__host__ __device__ __forceinline__ bool ranks_before(const scored_row& a, const scored_row& b) {
  return a.score > b.score || (a.score == b.score && a.row < b.row);
}

// Sorts TILE candidates of the block (TILE a power of two, 2 per thread) and
// writes the first K to out[blockIdx.x * K ...]. Missing candidates rank last.
template <int TILE, int K>
__global__ void __launch_bounds__(TILE / 2) block_topk(const scored_row* __restrict__ in, size_t n,
                                                        scored_row* __restrict__ out) {
  static_assert((TILE & (TILE - 1)) == 0 && K <= TILE, "tile");
  __shared__ scored_row tile[TILE];
  const size_t base = size_t(blockIdx.x) * TILE;
  for (int i = threadIdx.x; i < TILE; i += blockDim.x)
    tile[i] = base + i < n ? in[base + i] : scored_row{-__int_as_float(0x7f800000), 0xffffffffu};
  __syncthreads();
  for (int size = 2; size <= TILE; size <<= 1) {
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      const int t = threadIdx.x;
      const int i = 2 * t - (t & (stride - 1));
      const int j = i + stride;
      const bool up = (i & size) == 0;
      scored_row a = tile[i], b = tile[j];
      if (ranks_before(b, a) == up) {
        tile[i] = b;
        tile[j] = a;
      }
      __syncthreads();
    }
  }
  for (int i = threadIdx.x; i < K; i += blockDim.x) out[size_t(blockIdx.x) * K + i] = tile[i];
}

}  // namespace gdb
