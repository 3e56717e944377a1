// select.cuh: WHERE a < x AND b LIKE 'prefix%' over a table of an int column
// and a CHAR(16) column, with the matching row ids compacted.
#pragma once

#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>

#include "gdb/common.cuh"
#include "gdb/strings.cuh"

namespace gdb {

constexpr int kStrWidth = 16;
using str16 = fixed_string<kStrWidth>;

// The LIKE pattern, in constant memory (cudaMemcpyToSymbol).
extern __constant__ char c_prefix[kStrWidth];
extern __constant__ int c_prefix_len;

struct where_predicate {
  const int* a;
  const str16* b;
  int bound;
  __device__ bool operator()(int row) const { return a[row] < bound && starts_with(b[row], c_prefix, c_prefix_len); }
};

// One tile of ITEMS rows per thread; the row ids that pass are written to out
// at an offset taken from one atomicAdd per block, in row order within the
// block. TempStorage of the load and of the scan share the staging buffer.
template <int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) select_block_scan(where_predicate pred, const int* __restrict__ row_ids,
                                                            int n, int* __restrict__ out, int* __restrict__ out_count) {
  using load_t = cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using scan_t = cub::BlockScan<int, BLOCK>;
  constexpr int kTile = BLOCK * ITEMS;
  __shared__ union {
    typename load_t::TempStorage load;
    typename scan_t::TempStorage scan;
    int staged[kTile];
  } smem;
  __shared__ int s_block_base;

  for (int tile = blockIdx.x * kTile; tile < n; tile += gridDim.x * kTile) {
    const int valid = min(kTile, n - tile);
    int rows[ITEMS];
    load_t(smem.load).Load(row_ids + tile, rows, valid, -1);
    __syncthreads();

    int flags[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) flags[i] = (rows[i] >= 0 && pred(rows[i])) ? 1 : 0;
    int offsets[ITEMS];
    int selected = 0;
    scan_t(smem.scan).ExclusiveSum(flags, offsets, selected);
    if (threadIdx.x == 0) s_block_base = selected ? atomicAdd(out_count, selected) : 0;
    __syncthreads();

#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
      if (flags[i]) smem.staged[offsets[i]] = rows[i];
    __syncthreads();
    for (int i = threadIdx.x; i < selected; i += BLOCK) out[s_block_base + i] = smem.staged[i];
    __syncthreads();
  }
}

__global__ void iota_kernel(int* out, int n);

}  // namespace gdb
