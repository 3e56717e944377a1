#pragma once
// A bloom filter with K hash functions derived by double hashing, and warp
// intrinsics for filter statistics and duplicate-key aggregation.
#include <cstdint>
#include <hashdb/common.cuh>
#include <hashdb/hash_functions.cuh>

namespace hashdb {

template <int K>
struct BloomFilter {
  uint32_t* words;
  uint32_t num_bits;  // a power of two

  __host__ __device__ static uint32_t log2_bits(uint32_t bits) {
#ifdef __CUDA_ARCH__
    return 31 - __clz(bits);
#else
    uint32_t l = 0;
    while ((1u << (l + 1)) <= bits && l < 31) ++l;
    return l;
#endif
  }

  __host__ __device__ static uint32_t bit_index(uint32_t key, int i, uint32_t log2) {
    const uint32_t h1 = fmix32(key);
    const uint32_t h2 = SecondaryHash<uint32_t>{}(key) | 1u;
    const uint32_t mixed = h1 + uint32_t(i) * h2 + rotl32(h1, 5 + i);
    return mixed & ((1u << log2) - 1u);
  }

  __device__ void add(uint32_t key) const {
    const uint32_t l2 = log2_bits(num_bits);
#pragma unroll
    for (int i = 0; i < K; ++i) {
      const uint32_t b = bit_index(key, i, l2);
      atomicOr(words + (b >> 5), 1u << (b & 31));
    }
  }

  __device__ bool contains(uint32_t key) const {
    const uint32_t l2 = log2_bits(num_bits);
    bool all = true;
#pragma unroll
    for (int i = 0; i < K; ++i) {
      const uint32_t b = bit_index(key, i, l2);
      all &= (__ldg(words + (b >> 5)) >> (b & 31)) & 1u;
    }
    return all;
  }
};

template <int K>
__global__ void bloom_add(BloomFilter<K> f, const uint32_t* keys, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    f.add(keys[i]);
}

template <int K>
__global__ void bloom_query(BloomFilter<K> f, const uint32_t* keys, size_t n, uint8_t* result,
                            unsigned int* positives) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const bool hit = i < n && f.contains(keys[i]);
  if (i < n) result[i] = hit;
  const unsigned votes = __ballot_sync(kFullMask, hit);
  if ((threadIdx.x & 31) == 0 && votes) atomicAdd(positives, unsigned(__popc(votes)));
}

// Counts set bits two ways: 32-bit words with __popc and word pairs with
// __popcll, each reduced over the warp with __reduce_add_sync.
__global__ void bloom_popcount(const uint32_t* words, uint32_t num_words, unsigned int* bits32, unsigned int* bits64) {
  unsigned int c32 = 0, c64 = 0;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < num_words / 2; i += gridDim.x * blockDim.x) {
    const uint32_t lo = words[2 * i], hi = words[2 * i + 1];
    c32 += __popc(lo) + __popc(hi);
    c64 += __popcll((static_cast<unsigned long long>(hi) << 32) | lo);
  }
  c32 = __reduce_add_sync(kFullMask, c32);
  c64 = __reduce_add_sync(kFullMask, c64);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(bits32, c32);
    atomicAdd(bits64, c64);
  }
}

// Warp-aggregated counting of duplicate keys: lanes holding the same key
// find each other with __match_any_sync and reduce within that group.
__global__ void aggregate_duplicates(const uint32_t* keys, const uint32_t* vals, size_t n, unsigned int* counts,
                                     unsigned int* sums, unsigned int* maxima) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const unsigned active = __ballot_sync(kFullMask, i < n);
  if (i >= n) return;
  const uint32_t key = keys[i];
  const unsigned peers = __match_any_sync(active, key);
  const unsigned sum = __reduce_add_sync(peers, vals[i]);
  const unsigned mx = __reduce_max_sync(peers, vals[i]);
  const int leader = __ffs(peers) - 1;
  if ((threadIdx.x & 31) == leader) {
    atomicAdd(counts + key, __popc(peers));
    atomicAdd(sums + key, sum);
    atomicMax(maxima + key, mx);
  }
}

}  // namespace hashdb
