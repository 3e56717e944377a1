// groupby.cuh: hash aggregation. Each block aggregates its rows in a
// shared-memory hash table and flushes its groups to a global table; a row
// that finds the shared table full goes to the global table directly.
#pragma once

#include <cfloat>
#include <climits>

#include "gdb/atomics.cuh"
#include "gdb/common.cuh"
#include "gdb/hash.cuh"

namespace gdb {

struct agg_table_view {
  int* keys;
  unsigned long long* sums;
  unsigned int* counts;
  int* mins;
  int* maxs;
  float* fmins;
  float* fmaxs;
  uint32_t mask;
};

__device__ __forceinline__ uint32_t agg_find_slot(int* keys, uint32_t mask, int key, uint32_t start, int limit) {
  uint32_t slot = start & mask;
  for (int probes = 0; probes < limit; ++probes) {
    int prev = atomicCAS(&keys[slot], kEmptyGroup, key);
    if (prev == kEmptyGroup || prev == key) return slot;
    slot = (slot + 1) & mask;
  }
  return ~0u;
}

__device__ __forceinline__ void agg_update_global(const agg_table_view& g, uint32_t slot, int value, float fvalue,
                                                  unsigned long long sum, unsigned count) {
  atomicAdd(&g.sums[slot], sum);
  atomicAdd(&g.counts[slot], count);
  atomicMin(&g.mins[slot], value);
  atomicMax(&g.maxs[slot], value);
  atomic_min_float(&g.fmins[slot], fvalue);
  atomic_max_float_signed(&g.fmaxs[slot], fvalue);
}

template <int BLOCK, int SLOTS>
__global__ void __launch_bounds__(BLOCK) groupby_shared(const int* __restrict__ keys, const int* __restrict__ values,
                                                         const float* __restrict__ fvalues, size_t n,
                                                         agg_table_view global) {
  static_assert((SLOTS & (SLOTS - 1)) == 0, "SLOTS must be a power of two");
  __shared__ int s_keys[SLOTS];
  __shared__ unsigned long long s_sums[SLOTS];
  __shared__ unsigned int s_counts[SLOTS];
  __shared__ int s_mins[SLOTS], s_maxs[SLOTS];
  __shared__ float s_fmins[SLOTS], s_fmaxs[SLOTS];

  for (int s = threadIdx.x; s < SLOTS; s += BLOCK) {
    s_keys[s] = kEmptyGroup;
    s_sums[s] = 0;
    s_counts[s] = 0;
    s_mins[s] = INT_MAX;
    s_maxs[s] = INT_MIN;
    s_fmins[s] = FLT_MAX;
    s_fmaxs[s] = -FLT_MAX;
  }
  __syncthreads();

  const size_t stride = size_t(gridDim.x) * BLOCK;
  for (size_t i = size_t(blockIdx.x) * BLOCK + threadIdx.x; i < n; i += stride) {
    const int key = keys[i];
    const int v = values[i];
    const float f = fvalues[i];
    const uint32_t h = hash_group(key);
    uint32_t slot = agg_find_slot(s_keys, SLOTS - 1, key, h, 16);
    if (slot != ~0u) {
      atomicAdd(&s_sums[slot], (unsigned long long)(long long)v);
      atomicAdd(&s_counts[slot], 1u);
      atomicMin(&s_mins[slot], v);
      atomicMax(&s_maxs[slot], v);
      atomic_min_float(&s_fmins[slot], f);
      atomic_max_float(&s_fmaxs[slot], f);
    } else {
      uint32_t gslot = agg_find_slot(global.keys, global.mask, key, h, int(global.mask) + 1);
      agg_update_global(global, gslot, v, f, (unsigned long long)(long long)v, 1);
    }
  }
  __syncthreads();

  for (int s = threadIdx.x; s < SLOTS; s += BLOCK) {
    const int key = s_keys[s];
    if (key == kEmptyGroup) continue;
    uint32_t gslot = agg_find_slot(global.keys, global.mask, key, hash_group(key), int(global.mask) + 1);
    atomicAdd(&global.sums[gslot], s_sums[s]);
    atomicAdd(&global.counts[gslot], s_counts[s]);
    atomicMin(&global.mins[gslot], s_mins[s]);
    atomicMax(&global.maxs[gslot], s_maxs[s]);
    atomic_min_float(&global.fmins[gslot], s_fmins[s]);
    atomic_max_float_signed(&global.fmaxs[gslot], s_fmaxs[s]);
  }
}

template <typename T>
__global__ void fill_kernel(T* out, T value, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = value;
}

}  // namespace gdb

namespace gdb {

// A second aggregation: the lanes of a warp that hold the same key are
// combined first (__match_any_sync, __reduce_add_sync), and the warp's
// leader of each key updates a per-block table in dynamic shared memory
// (more than 48 KiB: cudaFuncSetAttribute), then the global table.
struct sum_table_view {
  int* keys;
  double* fsums;
  unsigned long long* counts;
  uint32_t mask;
};

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) groupby_warp_aggregated(const int* __restrict__ keys,
                                                                  const float* __restrict__ fvalues, size_t n,
                                                                  int slots, sum_table_view global,
                                                                  unsigned long long* rows_seen) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  double* s_fsums = reinterpret_cast<double*>(smem_raw);
  unsigned* s_counts = reinterpret_cast<unsigned*>(s_fsums + slots);
  int* s_keys = reinterpret_cast<int*>(s_counts + slots);
  for (int s = threadIdx.x; s < slots; s += BLOCK) {
    s_keys[s] = kEmptyGroup;
    s_counts[s] = 0;
    s_fsums[s] = 0.0;
  }
  __syncthreads();
  const uint32_t mask = uint32_t(slots) - 1;
  const size_t stride = size_t(gridDim.x) * BLOCK;
  for (size_t base = size_t(blockIdx.x) * BLOCK; base < n; base += stride) {
    const size_t i = base + threadIdx.x;
    const bool valid = i < n;
    const int key = valid ? keys[i] : kEmptyGroup;
    const float f = valid ? fvalues[i] : 0.f;
    const unsigned peers = __match_any_sync(kFullMask, key);
    const unsigned count = __popc(peers);
    const unsigned lane = lane_id();
    // The rows the warp saw, for the check of the total.
    const unsigned warp_rows = __reduce_add_sync(kFullMask, valid ? 1u : 0u);
    if (lane == 0) atomicAdd(rows_seen, (unsigned long long)warp_rows);
    // The peers' sum of f, by shuffles among the peers alone.
    double sum = 0.0;
    for (unsigned rest = peers; rest; rest &= rest - 1) sum += double(__shfl_sync(peers, f, __ffs(rest) - 1));
    const bool leader = valid && lane == unsigned(__ffs(peers) - 1);
    if (leader) {
      uint32_t slot = agg_find_slot(s_keys, mask, key, hash_group(key), slots);
      atomicAdd_block(&s_counts[slot], count);
      atomicAdd_block(&s_fsums[slot], sum);
    }
  }
  __syncthreads();
  for (int s = threadIdx.x; s < slots; s += BLOCK) {
    const int key = s_keys[s];
    if (key == kEmptyGroup) continue;
    uint32_t g = agg_find_slot(global.keys, global.mask, key, hash_group(key), int(global.mask) + 1);
    atomicAdd(&global.counts[g], (unsigned long long)s_counts[s]);
    atomicAdd(&global.fsums[g], s_fsums[s]);
  }
}

}  // namespace gdb
