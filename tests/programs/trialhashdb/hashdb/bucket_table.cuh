#pragma once
// Warp-cooperative bucketed hash table: each bucket holds 32 packed
// key/value slots (one per lane); a whole warp, or a tile of 8 threads,
// probes a bucket together.
#include <cstdint>
#include <cooperative_groups.h>
#include <hashdb/common.cuh>
#include <hashdb/hash_functions.cuh>

namespace cg = cooperative_groups;

namespace hashdb {

template <typename Key, typename Value, typename Hash = MurmurHash<Key>>
struct BucketTableView {
  using slot_type = unsigned long long;
  static constexpr uint32_t kBucketSize = 32;
  static constexpr slot_type kEmpty = ~0ull;
  static constexpr Key kEmptyKey = static_cast<Key>(~0u);

  slot_type* slots;
  uint32_t num_buckets;

  __host__ __device__ static slot_type pack(Key k, Value v) { return (slot_type(k) << 32) | slot_type(v); }
  __host__ __device__ static Key key_of(slot_type s) { return Key(s >> 32); }
  __host__ __device__ static Value value_of(slot_type s) { return Value(s & 0xffffffffu); }
  __device__ uint32_t bucket_of(Key k) const { return Hash{}(k) % num_buckets; }

  // Every lane of the warp calls this; `active` lanes have a key to insert.
  // Returns true in a lane whose key was newly inserted.
  __device__ bool warp_insert(bool active, Key key, Value value) const {
    const int lane = threadIdx.x % kWarpSize;
    bool result = false;
    unsigned work = __ballot_sync(kFullMask, active);
    while (work) {
      const int src = __ffs(work) - 1;
      const Key k = __shfl_sync(kFullMask, key, src);
      const Value v = __shfl_sync(kFullMask, value, src);
      uint32_t b = bucket_of(k);
      bool inserted = false, done = false;
      for (uint32_t probe = 0; probe < num_buckets && !done; ++probe) {
        const slot_type cur = slots[size_t(b) * kBucketSize + lane];
        if (__ballot_sync(kFullMask, key_of(cur) == k)) break;
        unsigned empty = __ballot_sync(kFullMask, cur == kEmpty);
        while (empty) {
          const int target = __ffs(empty) - 1;
          slot_type prev = 0;
          if (lane == target) prev = atomicCAS(slots + size_t(b) * kBucketSize + target, kEmpty, pack(k, v));
          prev = __shfl_sync(kFullMask, prev, target);
          if (prev == kEmpty) { inserted = true; done = true; break; }
          if (key_of(prev) == k) { done = true; break; }
          empty &= ~(1u << target);
        }
        b = (b + 1) % num_buckets;
      }
      if (lane == src) result = inserted;
      work &= ~(1u << src);
    }
    return result;
  }

  __device__ bool warp_find(bool active, Key key, Value* out) const {
    const int lane = threadIdx.x % kWarpSize;
    bool result = false;
    unsigned work = __ballot_sync(kFullMask, active);
    while (work) {
      const int src = __ffs(work) - 1;
      const Key k = __shfl_sync(kFullMask, key, src);
      uint32_t b = bucket_of(k);
      bool found = false;
      Value v = 0;
      for (uint32_t probe = 0; probe < num_buckets; ++probe) {
        const slot_type cur = slots[size_t(b) * kBucketSize + lane];
        const unsigned match = __ballot_sync(kFullMask, key_of(cur) == k);
        if (match) {
          v = __shfl_sync(kFullMask, value_of(cur), __ffs(match) - 1);
          found = true;
          break;
        }
        if (__any_sync(kFullMask, cur == kEmpty)) break;
        b = (b + 1) % num_buckets;
      }
      if (lane == src) {
        result = found;
        if (found) *out = v;
      }
      work &= ~(1u << src);
    }
    return result;
  }

  // The same probe with a tile of CG threads: each bucket is scanned in
  // windows of CG slots.
  template <int CG>
  __device__ bool tile_insert(const cg::thread_block_tile<CG>& tile, bool active, Key key, Value value) const {
    const unsigned rank = tile.thread_rank();
    bool result = false;
    unsigned work = tile.ballot(active);
    while (work) {
      const int src = __ffs(work) - 1;
      const Key k = tile.shfl(key, src);
      const Value v = tile.shfl(value, src);
      uint32_t b = bucket_of(k);
      bool inserted = false, done = false;
      for (uint32_t probe = 0; probe < num_buckets * (kBucketSize / CG) && !done; ++probe) {
        const uint32_t window = probe % (kBucketSize / CG);
        slot_type* base = slots + size_t(b) * kBucketSize + window * CG;
        const slot_type cur = base[rank];
        if (tile.any(key_of(cur) == k)) break;
        unsigned empty = tile.ballot(cur == kEmpty);
        while (empty) {
          const int target = __ffs(empty) - 1;
          slot_type prev = 0;
          if (int(rank) == target) prev = atomicCAS(base + target, kEmpty, pack(k, v));
          prev = tile.shfl(prev, target);
          if (prev == kEmpty) { inserted = true; done = true; break; }
          if (key_of(prev) == k) { done = true; break; }
          empty &= ~(1u << target);
        }
        if (window == kBucketSize / CG - 1) b = (b + 1) % num_buckets;
      }
      if (int(rank) == src) result = inserted;
      work &= ~(1u << src);
    }
    return result;
  }

  template <int CG>
  __device__ bool tile_find(const cg::thread_block_tile<CG>& tile, bool active, Key key, Value* out) const {
    const unsigned rank = tile.thread_rank();
    bool result = false;
    unsigned work = tile.ballot(active);
    while (work) {
      const int src = __ffs(work) - 1;
      const Key k = tile.shfl(key, src);
      uint32_t b = bucket_of(k);
      bool found = false;
      Value v = 0;
      for (uint32_t probe = 0; probe < num_buckets * (kBucketSize / CG); ++probe) {
        const uint32_t window = probe % (kBucketSize / CG);
        const slot_type cur = slots[size_t(b) * kBucketSize + window * CG + rank];
        const unsigned match = tile.ballot(key_of(cur) == k);
        if (match) {
          v = tile.shfl(value_of(cur), __ffs(match) - 1);
          found = true;
          break;
        }
        if (tile.any(cur == kEmpty)) break;
        if (window == kBucketSize / CG - 1) b = (b + 1) % num_buckets;
      }
      if (int(rank) == src) {
        result = found;
        if (found) *out = v;
      }
      work &= ~(1u << src);
    }
    return result;
  }
};

template <typename View>
__global__ void warp_insert_kernel(View table, const uint32_t* keys, const uint32_t* vals, size_t n,
                                   unsigned int* inserted) {
  // Whole warps stay together: the grid covers n rounded up to warps.
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const bool active = i < n;
  const bool ok = table.warp_insert(active, active ? keys[i] : 0u, active ? vals[i] : 0u);
  const unsigned mask = __ballot_sync(kFullMask, ok);
  if ((threadIdx.x & 31) == 0 && mask) atomicAdd(inserted, __popc(mask));
}

template <int CG, typename View>
__global__ void tile_insert_kernel(View table, const uint32_t* keys, const uint32_t* vals, size_t n,
                                   unsigned int* inserted) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<CG>(block);
  const size_t i = block.group_index().x * size_t(block.size()) + block.thread_rank();
  const bool active = i < n;
  const bool ok = table.template tile_insert<CG>(tile, active, active ? keys[i] : 0u, active ? vals[i] : 0u);
  // (The trial sums with cg::reduce; the test counts the tile's votes, and
  // leaves out <cooperative_groups/reduce.h>, which other tests build.)
  const unsigned total = __popc(tile.ballot(ok));
  if (tile.thread_rank() == 0 && total) atomicAdd(inserted, total);
}

template <typename View>
__global__ void warp_find_kernel(View table, const uint32_t* keys, size_t n, uint32_t* out) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const bool active = i < n;
  uint32_t v = ~0u;
  table.warp_find(active, active ? keys[i] : 0u, &v);
  if (active) out[i] = v;
}

template <int CG, typename View>
__global__ void tile_find_kernel(View table, const uint32_t* keys, size_t n, uint32_t* out) {
  auto tile = cg::tiled_partition<CG>(cg::this_thread_block());
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const bool active = i < n;
  uint32_t v = ~0u;
  table.template tile_find<CG>(tile, active, active ? keys[i] : 0u, &v);
  if (active) out[i] = v;
}

// Per-bucket fill statistics: one warp per bucket.
template <typename View>
__global__ void bucket_stats(View table, unsigned long long* total, unsigned int* max_fill) {
  const int lane = threadIdx.x & 31;
  const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t nwarps = (gridDim.x * blockDim.x) / 32;
  for (uint32_t b = warp; b < table.num_buckets; b += nwarps) {
    const auto cur = table.slots[size_t(b) * View::kBucketSize + lane];
    const unsigned fill = __popc(__ballot_sync(kFullMask, cur != View::kEmpty));
    if (lane == 0) {
      atomicAdd(total, (unsigned long long)fill);
      atomicMax(max_fill, fill);
    }
  }
}

}  // namespace hashdb
