#pragma once
// Open-addressing hash table: key and value packed into one 64-bit word,
// updated with atomicCAS, linear or double-hashing probes, tombstones.
#include <cstdint>
#include <cuda_runtime.h>
#include <hashdb/common.cuh>
#include <hashdb/hash_functions.cuh>

namespace hashdb {

struct LinearProbing {
  __device__ __forceinline__ uint32_t start(uint32_t h1, uint32_t, uint32_t mask) const { return h1 & mask; }
  __device__ __forceinline__ uint32_t step(uint32_t, uint32_t) const { return 1u; }
  static const char* name() { return "linear"; }
};

struct DoubleHashing {
  __device__ __forceinline__ uint32_t start(uint32_t h1, uint32_t, uint32_t mask) const { return h1 & mask; }
  // An odd step visits every slot of a power-of-two table.
  __device__ __forceinline__ uint32_t step(uint32_t h2, uint32_t) const { return h2 | 1u; }
  static const char* name() { return "double"; }
};

template <typename Key = uint32_t, typename Value = uint32_t, typename Probe = LinearProbing,
          typename Hash1 = MurmurHash<Key>, typename Hash2 = SecondaryHash<Key>>
class OpenAddressingTable {
  static_assert(sizeof(Key) == 4 && sizeof(Value) == 4, "key and value share one 64-bit word");

 public:
  using slot_type = unsigned long long;
  static constexpr Key kEmptyKey = static_cast<Key>(0xffffffffu);
  static constexpr Key kTombstoneKey = static_cast<Key>(0xfffffffeu);
  static constexpr slot_type kEmptySlot = ~0ull;

  __host__ __device__ static constexpr slot_type pack(Key k, Value v) {
    return (static_cast<slot_type>(k) << 32) | static_cast<slot_type>(v);
  }
  __host__ __device__ static constexpr Key key_of(slot_type s) { return static_cast<Key>(s >> 32); }
  __host__ __device__ static constexpr Value value_of(slot_type s) { return static_cast<Value>(s & 0xffffffffu); }

  // The device view is a trivially copyable handle passed to kernels by value.
  class DeviceView {
   public:
    DeviceView(slot_type* slots, uint32_t capacity) : slots_(slots), mask_(capacity - 1) {}

    __device__ bool insert(Key k, Value v) const {
      const uint32_t h1 = Hash1{}(k), h2 = Hash2{}(k);
      uint32_t idx = Probe{}.start(h1, h2, mask_);
      const uint32_t step = Probe{}.step(h2, mask_);
      for (uint32_t attempt = 0; attempt <= mask_; ++attempt) {
        slot_type cur = slots_[idx];
        while (key_of(cur) == kEmptyKey) {
          const slot_type prev = atomicCAS(slots_ + idx, cur, pack(k, v));
          if (prev == cur) return true;
          cur = prev;
        }
        if (key_of(cur) == k) return false;  // Already present: keep the first value.
        idx = (idx + step) & mask_;
      }
      return false;
    }

    __device__ bool find(Key k, Value* out) const {
      const uint32_t h1 = Hash1{}(k), h2 = Hash2{}(k);
      uint32_t idx = Probe{}.start(h1, h2, mask_);
      const uint32_t step = Probe{}.step(h2, mask_);
      for (uint32_t attempt = 0; attempt <= mask_; ++attempt) {
        const slot_type cur = slots_[idx];
        const Key ck = key_of(cur);
        if (ck == k) {
          *out = value_of(cur);
          return true;
        }
        if (ck == kEmptyKey) return false;
        idx = (idx + step) & mask_;
      }
      return false;
    }

    __device__ bool erase(Key k) const {
      const uint32_t h1 = Hash1{}(k), h2 = Hash2{}(k);
      uint32_t idx = Probe{}.start(h1, h2, mask_);
      const uint32_t step = Probe{}.step(h2, mask_);
      for (uint32_t attempt = 0; attempt <= mask_; ++attempt) {
        slot_type cur = slots_[idx];
        if (key_of(cur) == k) {
          return atomicCAS(slots_ + idx, cur, pack(kTombstoneKey, 0)) == cur;
        }
        if (key_of(cur) == kEmptyKey) return false;
        idx = (idx + step) & mask_;
      }
      return false;
    }

    __device__ uint32_t capacity() const { return mask_ + 1; }
    __device__ slot_type slot(uint32_t i) const { return slots_[i]; }

   private:
    slot_type* slots_;
    uint32_t mask_;
  };

  explicit OpenAddressingTable(size_t expected, double load_factor, cudaStream_t stream = 0)
      : stream_(stream) {
    size_t want = static_cast<size_t>(expected / load_factor) + 1;
    capacity_ = 1;
    while (capacity_ < want) capacity_ <<= 1;
    slots_ = DeviceBuffer<slot_type>(capacity_);
    clear();
  }

  void clear() { slots_.fill_bytes(0xff, stream_); }
  DeviceView view() const { return DeviceView(slots_.data(), static_cast<uint32_t>(capacity_)); }
  size_t capacity() const { return capacity_; }
  cudaStream_t stream() const { return stream_; }

 private:
  DeviceBuffer<slot_type> slots_;
  size_t capacity_ = 0;
  cudaStream_t stream_;
};

// Bulk kernels, templated on the view so that any table with the same
// interface can use them.
template <typename View, typename Key, typename Value>
__global__ void bulk_insert(View table, const Key* __restrict__ keys, const Value* __restrict__ values,
                            size_t n, unsigned int* __restrict__ inserted) {
  unsigned int mine = 0;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(blockDim.x) * gridDim.x) {
    if (table.insert(keys[i], values[i])) ++mine;
  }
  // Aggregate per block before the global atomic.
  __shared__ unsigned int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  atomicAdd(&block_count, mine);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(inserted, block_count);
}

template <typename View, typename Key, typename Value>
__global__ void bulk_find(View table, const Key* __restrict__ keys, size_t n, Value* __restrict__ out,
                          Value missing, unsigned int* __restrict__ found_count) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  bool found = false;
  if (i < n) {
    Value v;
    found = table.find(keys[i], &v);
    out[i] = found ? v : missing;
  }
  const int block_found = __syncthreads_count(found);
  if (threadIdx.x == 0) atomicAdd(found_count, static_cast<unsigned int>(block_found));
}

template <typename View, typename Key>
__global__ void bulk_erase(View table, const Key* __restrict__ keys, size_t n, unsigned int* erased) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  if (table.erase(keys[i])) atomicAdd(erased, 1u);
}

template <typename Table>
__global__ void count_occupied(typename Table::DeviceView table, unsigned long long* live, unsigned long long* tombs) {
  unsigned long long my_live = 0, my_tombs = 0;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < table.capacity(); i += blockDim.x * gridDim.x) {
    const auto k = Table::key_of(table.slot(i));
    my_live += (k != Table::kEmptyKey && k != Table::kTombstoneKey);
    my_tombs += (k == Table::kTombstoneKey);
  }
  for (int off = kWarpSize / 2; off > 0; off >>= 1) {
    my_live += __shfl_down_sync(kFullMask, my_live, off);
    my_tombs += __shfl_down_sync(kFullMask, my_tombs, off);
  }
  if ((threadIdx.x & (kWarpSize - 1)) == 0) {
    atomicAdd(live, my_live);
    atomicAdd(tombs, my_tombs);
  }
}

}  // namespace hashdb
