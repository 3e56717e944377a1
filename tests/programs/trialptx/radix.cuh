#pragma once
#include "ptx_utils.cuh"

// One-block-per-tile digit histogram + local rank, 4-bit digits, in the spirit of onesweep.
template <int BLOCK, int ITEMS>
__global__ void digit_histogram(const unsigned* __restrict__ keys, int n, int shift,
                                unsigned* __restrict__ hist) {
  __shared__ unsigned sh[16];
  if (threadIdx.x < 16) sh[threadIdx.x] = 0;
  __syncthreads();
  int base = blockIdx.x * BLOCK * ITEMS;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    int idx = base + i * BLOCK + threadIdx.x;
    bool ok = idx < n;
    unsigned d = ok ? wp::bfe(wp::ld_nc(keys + idx), shift, 4) : 16u;
    // Warp-aggregated increments via match.any.
    unsigned peers = __match_any_sync(0xffffffffu, d);
    int leader = __ffs(peers) - 1;
    if (ok && (int)wp::lane_id() == leader) atomicAdd(&sh[d], __popc(peers));
  }
  __syncthreads();
  if (threadIdx.x < 16) wp::red_add(&hist[threadIdx.x], sh[threadIdx.x]);
}

// Stable local sort of a warp's 32 keys by one 4-bit digit using ballots.
__global__ void warp_split_sort(unsigned* keys, int shift) {
  unsigned lane = wp::lane_id();
  unsigned k = keys[blockIdx.x * 32 + lane];
  unsigned d = wp::bfe(k, shift, 4);
  unsigned rank_before = 0, my_rank = 0;
  for (unsigned dig = 0; dig < 16; ++dig) {
    unsigned b = wp::ballot(d == dig);
    if (d == dig) my_rank = rank_before + __popc(b & wp::lanemask_lt());
    rank_before += __popc(b);
  }
  __syncwarp();
  keys[blockIdx.x * 32 + my_rank] = k;
}
