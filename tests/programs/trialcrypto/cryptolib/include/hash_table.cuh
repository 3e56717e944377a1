// hash_table.cuh - a warp-cooperative open-addressing table of 64-bit keys:
// a whole warp probes 32 slots at once, votes with ballots, and the leader
// lane claims a slot with a 64-bit atomicCAS.
#pragma once
#include <cooperative_groups.h>
#include "common.cuh"

namespace cg = cooperative_groups;

constexpr unsigned long long kEmpty = ~0ull;

__host__ __device__ __forceinline__ uint64_t mix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

struct DeviceTable {
  unsigned long long *keys;
  uint32_t *values;
  uint32_t capacity;  // a power of two
};

// Inserts with the raw warp intrinsics (__ballot_sync, __shfl_sync on 64-bit
// values, __ffs), one key per lane queued and served one at a time.
__global__ void table_insert(DeviceTable t, const unsigned long long *keys, const uint32_t *vals, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const bool has = i < n;
  const unsigned long long my_key = has ? keys[i] : 0;
  const uint32_t my_val = has ? vals[i] : 0;
  unsigned work = __ballot_sync(0xffffffffu, has);
  while (work) {
    const int leader = __ffs(work) - 1;
    const unsigned long long key = __shfl_sync(0xffffffffu, my_key, leader);
    const uint32_t val = __shfl_sync(0xffffffffu, my_val, leader);
    uint32_t base = (uint32_t)mix64(key) & (t.capacity - 1) & ~31u;
    bool done = false;
    while (!done) {
      const uint32_t slot = (base + lane) & (t.capacity - 1);
      const unsigned long long cur = t.keys[slot];
      const unsigned match = __ballot_sync(0xffffffffu, cur == key);
      if (match) {
        if (lane == __ffs(match) - 1) atomicExch(&t.values[slot], val);
        done = true;
        continue;
      }
      const unsigned empty = __ballot_sync(0xffffffffu, cur == kEmpty);
      if (empty) {
        const int winner = __ffs(empty) - 1;
        int claimed = 0;
        if (lane == winner) {
          const unsigned long long prev = atomicCAS(&t.keys[slot], kEmpty, key);
          claimed = prev == kEmpty || prev == key;
          if (claimed) atomicExch(&t.values[slot], val);
        }
        done = __shfl_sync(0xffffffffu, claimed, winner);
      } else {
        base = (base + 32) & (t.capacity - 1);
      }
    }
    work &= ~(1u << leader);
  }
}

// Lookups through cooperative-groups tiles of TILE lanes: each tile probes
// TILE slots at a time; results and the number found per tile (by __popc of
// the tile's ballot) are written.
template <int TILE>
__global__ void table_find(DeviceTable t, const unsigned long long *keys, uint32_t *out, int n,
                           unsigned int *found_count) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool has = i < n;
  const unsigned long long my_key = has ? keys[i] : 0;
  unsigned work = tile.ballot(has);
  unsigned hits = 0;
  while (work) {
    const int leader = __ffs(work) - 1;
    const unsigned long long key = tile.shfl(my_key, leader);
    uint32_t pos = (uint32_t)mix64(key) & (t.capacity - 1) & ~31u;
    uint32_t result = 0xffffffffu;
    for (uint32_t probed = 0; probed < t.capacity; probed += TILE) {
      const uint32_t slot = (pos + tile.thread_rank()) & (t.capacity - 1);
      const unsigned long long cur = t.keys[slot];
      const unsigned match = tile.ballot(cur == key);
      if (match) {
        const int src = __ffs(match) - 1;
        result = tile.shfl(t.values[slot], src);
        break;
      }
      if (tile.any(cur == kEmpty)) break;
      pos += TILE;
    }
    if (tile.thread_rank() == (unsigned)leader) out[i] = result;
    hits |= (unsigned)(result != 0xffffffffu) << leader;
    work &= work - 1;
  }
  // Every lane holds the same mask; one lane per tile adds it.
  if (tile.thread_rank() == 0) atomicAdd(found_count, (unsigned)__popc(hits));
  block.sync();
}
