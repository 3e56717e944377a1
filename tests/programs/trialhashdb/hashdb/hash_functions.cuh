#pragma once
// Hash functions shared by the host reference and the device code.
#include <cstdint>
#include <cuda_runtime.h>

namespace hashdb {

// MurmurHash3's 32-bit finaliser.
__host__ __device__ __forceinline__ uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// MurmurHash3's 64-bit finaliser.
__host__ __device__ __forceinline__ uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

__host__ __device__ __forceinline__ uint32_t rotl32(uint32_t x, int r) {
#ifdef __CUDA_ARCH__
  return __funnelshift_l(x, x, r);
#else
  r &= 31;
  return r == 0 ? x : (x << r) | (x >> (32 - r));
#endif
}

__host__ __device__ __forceinline__ uint32_t byteswap32(uint32_t x) {
#ifdef __CUDA_ARCH__
  return __byte_perm(x, 0, 0x0123);
#else
  return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
#endif
}

template <typename Key>
struct MurmurHash {
  __host__ __device__ uint32_t operator()(Key k) const { return fmix32(static_cast<uint32_t>(k) * 0xcc9e2d51u); }
};

template <typename Key>
struct SecondaryHash {
  __host__ __device__ uint32_t operator()(Key k) const {
    return fmix32(rotl32(byteswap32(static_cast<uint32_t>(k)), 15) ^ 0x1b873593u);
  }
};

}  // namespace hashdb
