// cg_table.cuh: a static multimap in the style of cuCollections: slots of
// (key, row) pairs updated through cuda::atomic_ref, probed by a cooperative
// group of CG threads that look at CG consecutive slots at a time.
#pragma once

#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda/std/limits>

#include "gdb/common.cuh"
#include "gdb/hash.cuh"

namespace gdb {

namespace cg = cooperative_groups;

struct alignas(16) cg_slot {
  unsigned long long key;
  long long row;
};

template <int CG>
struct cg_multimap_view {
  cg_slot* slots;
  uint32_t windows;  // slots / CG, a power of two

  __device__ uint32_t window_of(unsigned long long key) const { return hash_key(key) & (windows - 1); }

  // One thread of the group inserts; the group finds the free slot together.
  template <typename Tile>
  __device__ void insert(const Tile& tile, unsigned long long key, long long row) const {
    uint32_t w = window_of(key);
    while (true) {
      cg_slot* window = slots + size_t(w) * CG;
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> ref(window[tile.thread_rank()].key);
      const bool empty = ref.load(cuda::std::memory_order_relaxed) == kEmptyKey;
      unsigned candidates = tile.ballot(empty);
      while (candidates) {
        const int lane = __ffs(candidates) - 1;
        bool won = false;
        if (tile.thread_rank() == unsigned(lane)) {
          unsigned long long expected = kEmptyKey;
          won = ref.compare_exchange_strong(expected, key, cuda::std::memory_order_relaxed);
          if (won) window[lane].row = row;
        }
        if (tile.any(won)) return;
        candidates &= candidates - 1;
      }
      w = (w + 1) & (windows - 1);
    }
  }

  // The number of slots of `key`; the group's threads all return it.
  template <typename Tile>
  __device__ unsigned count(const Tile& tile, unsigned long long key) const {
    uint32_t w = window_of(key);
    unsigned total = 0;
    while (true) {
      const unsigned long long k = slots[size_t(w) * CG + tile.thread_rank()].key;
      total += __popc(tile.ballot(k == key));
      if (tile.any(k == kEmptyKey)) return total;
      w = (w + 1) & (windows - 1);
    }
  }
};

template <int CG>
__global__ void cg_build(cg_multimap_view<CG> map, const int64_t* __restrict__ keys, size_t n) {
  auto tile = cg::tiled_partition<CG>(cg::this_thread_block());
  const size_t groups = size_t(gridDim.x) * blockDim.x / CG;
  for (size_t i = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / CG; i < n; i += groups)
    map.insert(tile, static_cast<unsigned long long>(keys[i]), static_cast<long long>(i));
}

// COUNT(*) of the join, per probe row and in total (cg::reduce).
template <int CG>
__global__ void cg_count(cg_multimap_view<CG> map, const int64_t* __restrict__ keys, size_t n,
                         unsigned* __restrict__ per_row, unsigned long long* __restrict__ total) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<CG>(block);
  const size_t groups = size_t(gridDim.x) * blockDim.x / CG;
  for (size_t i = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / CG; i < n; i += groups) {
    const unsigned c = map.count(tile, static_cast<unsigned long long>(keys[i]));
    if (tile.thread_rank() == 0) {
      per_row[i] = c;
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*total).fetch_add(c, cuda::std::memory_order_relaxed);
    }
  }
}

}  // namespace gdb
