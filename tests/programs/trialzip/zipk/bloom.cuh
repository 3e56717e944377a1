// bloom.cuh: a Bloom filter of 64-bit keys with k hash functions by double
// hashing (MurmurHash3's finaliser), bit positions by a 64x64 high product.
#ifndef ZIPK_BLOOM_CUH
#define ZIPK_BLOOM_CUH
#include <cstdint>
#include "bits.cuh"
#include "ref.cuh"

namespace zip {
namespace bloom {

template <int K>
struct Filter {
  uint32_t *bits;
  uint64_t num_bits;
  uint64_t seed;

  __device__ __forceinline__ uint64_t bit(uint64_t key, int i) const {
    const uint64_t h1 = fmix64(key ^ seed);
    const uint64_t h2 = fmix64(h1 + 0x9e3779b97f4a7c15ULL) | 1;
    return __umul64hi(h1 + static_cast<uint64_t>(i) * h2, num_bits);
  }

  __device__ void insert(uint64_t key) const {
#pragma unroll
    for (int i = 0; i < K; ++i) {
      const uint64_t b = bit(key, i);
      atomicOr(&bits[b >> 5], 1u << (b & 31));
    }
  }

  __device__ bool contains(uint64_t key) const {
    bool hit = true;
#pragma unroll
    for (int i = 0; i < K; ++i) {
      const uint64_t b = bit(key, i);
      hit &= (__ldg(&bits[b >> 5]) >> (b & 31)) & 1u;
    }
    return hit;
  }
};

// Keys come two at a time through one 16-byte load.
template <int K>
__global__ void insert_kernel(Filter<K> f, const uint64_t *__restrict__ keys, size_t n) {
  const size_t pairs = n / 2;
  const uint4 *vec = reinterpret_cast<const uint4 *>(keys);
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < pairs;
       i += size_t(blockDim.x) * gridDim.x) {
    const uint4 q = __ldg(&vec[i]);
    f.insert(static_cast<uint64_t>(q.y) << 32 | q.x);
    f.insert(static_cast<uint64_t>(q.w) << 32 | q.z);
  }
  if (n % 2 && blockIdx.x == 0 && threadIdx.x == 0) f.insert(keys[n - 1]);
}

// Marks each key found and counts them with one atomic per warp.
template <int K>
__global__ void query_kernel(Filter<K> f, const uint64_t *__restrict__ keys, size_t n,
                             uint8_t *found, unsigned long long *count) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const bool hit = i < n && f.contains(__ldg(reinterpret_cast<const unsigned long long *>(keys) + i));
  if (i < n) found[i] = hit;
  const unsigned votes = __ballot_sync(0xffffffffu, hit);
  if ((threadIdx.x & 31) == 0 && votes) atomicAdd(count, static_cast<unsigned long long>(__popc(votes)));
}

// Population count of the filter, 128 bits per thread through uint4.
__global__ void popcount_kernel(const uint32_t *__restrict__ bits, size_t words,
                                unsigned long long *total) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  unsigned c = 0;
  if (i * 4 + 3 < words) {
    const uint4 q = __ldg(reinterpret_cast<const uint4 *>(bits) + i);
    const uint64_t lo = static_cast<uint64_t>(q.y) << 32 | q.x;
    const uint64_t hi = static_cast<uint64_t>(q.w) << 32 | q.z;
    c = __popcll(lo) + __popcll(hi);
  } else {
    for (size_t w = i * 4; w < words; ++w) c += __popc(bits[w]);
  }
  for (int off = 16; off; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, static_cast<unsigned long long>(c));
}

}  // namespace bloom
}  // namespace zip
#endif  // ZIPK_BLOOM_CUH
