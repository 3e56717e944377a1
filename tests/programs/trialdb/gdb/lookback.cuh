// lookback.cuh: single-pass stream compaction with decoupled look-back, as
// query engines write it: tiles take their index from a ticket counter, each
// publishes its count (flag A: aggregate) and then its inclusive prefix
// (flag P) in one 64-bit word, and a tile looks back over its predecessors'
// words until it meets a prefix. The output keeps the row order.
#pragma once

#include <cub/block/block_scan.cuh>

#include "gdb/common.cuh"

namespace gdb {

enum : unsigned { kTileEmpty = 0, kTileAggregate = 1, kTilePrefix = 2 };

__device__ __forceinline__ unsigned long long pack_status(unsigned flag, unsigned value) {
  return (static_cast<unsigned long long>(flag) << 32) | value;
}

template <int BLOCK, int ITEMS, typename Pred>
__global__ void __launch_bounds__(BLOCK) compact_lookback(Pred pred, int n, int* __restrict__ out,
                                                           unsigned long long* __restrict__ status,
                                                           unsigned* __restrict__ ticket, int* __restrict__ total) {
  using scan_t = cub::BlockScan<int, BLOCK>;
  constexpr int kTile = BLOCK * ITEMS;
  __shared__ typename scan_t::TempStorage scan_storage;
  __shared__ unsigned s_tile;
  __shared__ int s_exclusive;

  if (threadIdx.x == 0) s_tile = atomicAdd(ticket, 1u);
  __syncthreads();
  const unsigned tile = s_tile;
  const int base = int(tile) * kTile;

  int flags[ITEMS], offsets[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int row = base + int(threadIdx.x) * ITEMS + i;
    flags[i] = row < n && pred(row);
  }
  int aggregate = 0;
  scan_t(scan_storage).ExclusiveSum(flags, offsets, aggregate);

  if (threadIdx.x == 0) {
    volatile unsigned long long* vstatus = status;
    if (tile == 0) {
      atomicExch(&status[0], pack_status(kTilePrefix, unsigned(aggregate)));
      s_exclusive = 0;
    } else {
      atomicExch(&status[tile], pack_status(kTileAggregate, unsigned(aggregate)));
      int exclusive = 0;
      for (int pred_tile = int(tile) - 1; pred_tile >= 0;) {
        const unsigned long long word = vstatus[pred_tile];
        const unsigned flag = unsigned(word >> 32);
        if (flag == kTileEmpty) {
          __nanosleep(32);
          continue;
        }
        exclusive += int(unsigned(word));
        if (flag == kTilePrefix) break;
        --pred_tile;
      }
      __threadfence();
      atomicExch(&status[tile], pack_status(kTilePrefix, unsigned(exclusive + aggregate)));
      s_exclusive = exclusive;
    }
    if (base + kTile >= n) *total = s_exclusive + aggregate;
  }
  __syncthreads();
  const int exclusive = s_exclusive;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
    if (flags[i]) out[exclusive + offsets[i]] = base + int(threadIdx.x) * ITEMS + i;
}

}  // namespace gdb
