// hash.cuh: the engine's key hash. The device side is compiled once, in
// src/hash_device.cu, and linked by the device link step (-rdc).
#pragma once

#include <cstdint>

namespace gdb {

constexpr unsigned long long kEmptyKey = ~0ull;
constexpr int kEmptyGroup = -1;

// The seed lives in constant memory of the device link unit.
extern __constant__ unsigned long long d_hash_seed;
extern __device__ unsigned long long d_hash_calls;

__device__ uint32_t hash_key(unsigned long long key);
__device__ uint32_t hash_group(int key);

__host__ __device__ inline uint64_t mix64(uint64_t k, uint64_t seed) {
  k ^= seed;
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

constexpr uint64_t kHostSeed = 0x9e3779b97f4a7c15ull;

// Host mirror of hash_key, for the references.
inline uint32_t host_hash_key(unsigned long long key) { return uint32_t(mix64(key, kHostSeed)); }

}  // namespace gdb
