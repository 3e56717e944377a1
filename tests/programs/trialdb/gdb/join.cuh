// join.cuh: a non-partitioned hash join on 64-bit keys. The build side is an
// open-addressing multimap (linear probing, one slot per build row); the probe
// side writes its matches through a warp-aggregated output counter.
#pragma once

#include "gdb/common.cuh"
#include "gdb/hash.cuh"

namespace gdb {

struct join_pair {
  int64_t build_row;
  int64_t probe_row;
};

struct hash_table_view {
  unsigned long long* keys;
  int64_t* rows;
  uint32_t mask;  // capacity - 1, capacity a power of two
};

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) join_build(hash_table_view table, const int64_t* __restrict__ keys,
                                                     size_t n) {
  const size_t stride = size_t(gridDim.x) * BLOCK;
  for (size_t i = size_t(blockIdx.x) * BLOCK + threadIdx.x; i < n; i += stride) {
    const auto key = static_cast<unsigned long long>(keys[i]);
    uint32_t slot = hash_key(key) & table.mask;
    while (true) {
      unsigned long long prev = atomicCAS(&table.keys[slot], kEmptyKey, key);
      if (prev == kEmptyKey) {
        table.rows[slot] = int64_t(i);
        break;
      }
      slot = (slot + 1) & table.mask;
    }
  }
}

// Every lane of a warp stays in the loops (inactive lanes with nothing to
// probe), so that the ballots name the full warp.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) join_probe(hash_table_view table, const int64_t* __restrict__ keys,
                                                     size_t n, join_pair* __restrict__ out,
                                                     unsigned long long* __restrict__ out_count,
                                                     unsigned long long out_capacity) {
  const size_t stride = size_t(gridDim.x) * BLOCK;
  const unsigned lane = lane_id();
  for (size_t base = size_t(blockIdx.x) * BLOCK; base < n; base += stride) {
    const size_t i = base + threadIdx.x;
    bool probing = i < n;
    unsigned long long key = 0;
    uint32_t slot = 0;
    if (probing) {
      key = static_cast<unsigned long long>(__ldg(&keys[i]));
      slot = hash_key(key) & table.mask;
    }
    while (__any_sync(kFullMask, probing)) {
      bool match = false;
      int64_t build_row = -1;
      if (probing) {
        const unsigned long long stored = table.keys[slot];
        if (stored == kEmptyKey) {
          probing = false;
        } else if (stored == key) {
          match = true;
          build_row = table.rows[slot];
        }
      }
      const unsigned ballot = __ballot_sync(kFullMask, match);
      if (ballot) {
        const int leader = __ffs(ballot) - 1;
        unsigned long long first = 0;
        if (lane == unsigned(leader)) first = atomicAdd(out_count, (unsigned long long)__popc(ballot));
        first = __shfl_sync(kFullMask, first, leader);
        if (match) {
          const unsigned long long at = first + __popc(ballot & lanemask_lt());
          if (at < out_capacity) out[at] = join_pair{build_row, int64_t(i)};
        }
      }
      if (probing) slot = (slot + 1) & table.mask;
    }
  }
}

// The hash table, owned.
class join_hash_table {
 public:
  explicit join_hash_table(size_t rows, double load = 0.5) {
    size_t cap = 1;
    while (double(cap) * load < double(rows)) cap <<= 1;
    capacity_ = cap;
    GDB_CUDA_TRY(cudaMalloc(&keys_, cap * sizeof(unsigned long long)));
    GDB_CUDA_TRY(cudaMalloc(&rows_, cap * sizeof(int64_t)));
    GDB_CUDA_TRY(cudaMemset(keys_, 0xff, cap * sizeof(unsigned long long)));
  }
  ~join_hash_table() {
    cudaFree(keys_);
    cudaFree(rows_);
  }
  hash_table_view view() const { return {keys_, rows_, uint32_t(capacity_ - 1)}; }
  size_t capacity() const { return capacity_; }

 private:
  unsigned long long* keys_ = nullptr;
  int64_t* rows_ = nullptr;
  size_t capacity_ = 0;
};

}  // namespace gdb
