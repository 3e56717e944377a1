#pragma once
#include <cstdint>

__device__ __forceinline__ uint32_t rotl32(uint32_t x, int r) { return __funnelshift_l(x, x, r); }

__device__ __host__ inline uint32_t fmix32(uint32_t h) {
  h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13; h *= 0xc2b2ae35; h ^= h >> 16;
  return h;
}

__device__ inline uint32_t murmur3_32(const uint8_t* key, int len, uint32_t seed) {
  uint32_t h = seed;
  const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
  int nb = len / 4;
  for (int i = 0; i < nb; ++i) {
    // Unaligned little-endian word via byte_perm of two loads.
    uint32_t k = key[4 * i] | (key[4 * i + 1] << 8) | (key[4 * i + 2] << 16) | ((uint32_t)key[4 * i + 3] << 24);
    k *= c1; k = rotl32(k, 15); k *= c2;
    h ^= k; h = rotl32(h, 13); h = h * 5 + 0xe6546b64;
  }
  uint32_t k = 0;
  const uint8_t* tail = key + nb * 4;
  switch (len & 3) {
    case 3: k ^= tail[2] << 16;  // fallthrough
    case 2: k ^= tail[1] << 8;   // fallthrough
    case 1: k ^= tail[0]; k *= c1; k = rotl32(k, 15); k *= c2; h ^= k;
  }
  h ^= len;
  return fmix32(h);
}

// Open-addressing insert with atom.global.cas.b64 (key<<32 | value packed).
__device__ inline bool ht_insert(unsigned long long* table, uint32_t cap, uint32_t key, uint32_t val) {
  uint32_t slot = fmix32(key) & (cap - 1);
  unsigned long long want = ((unsigned long long)key << 32) | val;
  for (uint32_t probe = 0; probe < cap; ++probe) {
    unsigned long long old;
    asm volatile("atom.global.cas.b64 %0, [%1], %2, %3;"
                 : "=l"(old) : "l"(table + slot), "l"(0xffffffffffffffffull), "l"(want) : "memory");
    if (old == 0xffffffffffffffffull || (old >> 32) == key) return true;
    slot = (slot + 1) & (cap - 1);
  }
  return false;
}
