#pragma once
// Hash join and hash group-by on top of the open-addressing table.
#include <climits>
#include <cstdint>
#include <hashdb/common.cuh>
#include <hashdb/hash_functions.cuh>
#include <hashdb/open_addressing.cuh>

namespace hashdb {

struct JoinResult {
  uint32_t key;
  uint32_t build_payload;
  uint32_t probe_payload;
};

template <typename View>
__global__ void join_build(View table, const uint32_t* keys, const uint32_t* payloads, size_t n) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) table.insert(keys[i], payloads[i]);
}

// Probe with warp-aggregated output: one atomicAdd per warp reserves room
// for all of the warp's matches.
template <typename View>
__global__ void join_probe(View table, const uint32_t* keys, const uint32_t* payloads, size_t n,
                           JoinResult* out, unsigned int* out_count, unsigned int out_capacity) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const int lane = threadIdx.x & 31;
  uint32_t build_payload = 0;
  const bool hit = i < n && table.find(keys[i], &build_payload);
  const unsigned mask = __ballot_sync(kFullMask, hit);
  if (mask == 0) return;
  unsigned int base = 0;
  const int leader = __ffs(mask) - 1;
  if (lane == leader) base = atomicAdd(out_count, __popc(mask));
  base = __shfl_sync(kFullMask, base, leader);
  if (hit) {
    const unsigned int pos = base + __popc(mask & ((1u << lane) - 1));
    if (pos < out_capacity) out[pos] = JoinResult{keys[i], build_payload, payloads[i]};
  }
}

struct GroupAggregates {
  unsigned long long* slots;  // group key << 32, empty = ~0
  uint32_t mask;
  unsigned long long* count;
  double* sum;
  long long* min;
  long long* max;

  __device__ uint32_t find_or_insert(uint32_t key) const {
    uint32_t idx = MurmurHash<uint32_t>{}(key) & mask;
    const unsigned long long want = (unsigned long long)key << 32;
    while (true) {
      const unsigned long long cur = slots[idx];
      if (cur == want) return idx;
      if (cur == ~0ull) {
        const unsigned long long prev = atomicCAS(slots + idx, ~0ull, want);
        if (prev == ~0ull || prev == want) return idx;
      }
      idx = (idx + 1) & mask;
    }
  }
};

template <typename T>
__global__ void fill_kernel(T* p, size_t n, T value) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = value;
}

__global__ void groupby_kernel(GroupAggregates agg, const uint32_t* group_keys, const long long* metric, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t slot = agg.find_or_insert(group_keys[i]);
    const long long m = metric[i];
    atomicAdd(agg.count + slot, 1ull);
    atomicAdd(agg.sum + slot, double(m) * 0.25);
    atomicMin(agg.min + slot, m);
    atomicMax(agg.max + slot, m);
  }
}

struct GroupRow {
  uint32_t key;
  unsigned long long count;
  double sum;
  long long min, max;
};

__global__ void groupby_collect(GroupAggregates agg, GroupRow* rows, unsigned int* num_rows) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i <= agg.mask; i += gridDim.x * blockDim.x) {
    const unsigned long long s = agg.slots[i];
    if (s == ~0ull) continue;
    const unsigned int r = atomicAdd(num_rows, 1u);
    rows[r] = GroupRow{uint32_t(s >> 32), agg.count[i], agg.sum[i], agg.min[i], agg.max[i]};
  }
}

}  // namespace hashdb
