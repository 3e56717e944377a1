// sha256.cuh - SHA-256 on the device, one thread per message.
#pragma once
#include "common.cuh"

// Round constants and initial state live in constant memory, defined once in
// src/sha256_consts.cu (relocatable device code).
extern __constant__ uint32_t c_sha256_K[64];
extern __constant__ uint32_t c_sha256_H0[8];

namespace sha {

__device__ __forceinline__ uint32_t rotr(uint32_t x, uint32_t n) {
  return __funnelshift_r(x, x, n);
}
__device__ __forceinline__ uint32_t bswap32(uint32_t x) {
  return __byte_perm(x, 0, 0x0123);
}
__device__ __forceinline__ uint32_t Ch(uint32_t x, uint32_t y, uint32_t z) {
  return (x & y) ^ (~x & z);
}
__device__ __forceinline__ uint32_t Maj(uint32_t x, uint32_t y, uint32_t z) {
  return (x & y) | (z & (x | y));
}
__device__ __forceinline__ uint32_t S0(uint32_t x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
__device__ __forceinline__ uint32_t S1(uint32_t x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
__device__ __forceinline__ uint32_t s0(uint32_t x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
__device__ __forceinline__ uint32_t s1(uint32_t x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

// One compression of a 16-word (big-endian already) block into state.
__device__ __forceinline__ void transform(uint32_t state[8], const uint32_t block[16]) {
  uint32_t W[64];
#pragma unroll
  for (int i = 0; i < 16; ++i) W[i] = block[i];
#pragma unroll
  for (int i = 16; i < 64; ++i)
    W[i] = s1(W[i - 2]) + W[i - 7] + s0(W[i - 15]) + W[i - 16];
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
#pragma unroll 64
  for (int i = 0; i < 64; ++i) {
    uint32_t t1 = h + S1(e) + Ch(e, f, g) + c_sha256_K[i] + W[i];
    uint32_t t2 = S0(a) + Maj(a, b, c);
    h = g; g = f; f = e; e = d + t1;
    d = c; c = b; b = a; a = t1 + t2;
  }
  state[0] += a; state[1] += b; state[2] += c; state[3] += d;
  state[4] += e; state[5] += f; state[6] += g; state[7] += h;
}

__device__ __forceinline__ void init(uint32_t state[8]) {
#pragma unroll
  for (int i = 0; i < 8; ++i) state[i] = c_sha256_H0[i];
}

}  // namespace sha

// Hashes messages stored in fixed SLOT-byte slots (SLOT a multiple of 4,
// at most 119 bytes used), lengths[i] bytes each; digests are 8 words,
// big-endian values as a host reads them.
template <int SLOT>
__global__ void sha256_many(const uint8_t *__restrict__ msgs,
                            const uint32_t *__restrict__ lengths,
                            uint32_t *__restrict__ digests, int n) {
  static_assert(SLOT % 4 == 0 && SLOT <= 112, "slot too large");
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  const uint32_t *words = reinterpret_cast<const uint32_t *>(msgs + (size_t)tid * SLOT);
  const uint32_t len = lengths[tid];
  uint32_t blocks[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) blocks[i] = 0;
  for (uint32_t i = 0; i < (len + 3) / 4; ++i) blocks[i] = sha::bswap32(__ldg(words + i));
  // Clear the bytes past the end in the last partial word, then pad.
  const uint32_t rem = len & 3;
  if (rem) blocks[len / 4] &= 0xffffffffu << (32 - 8 * rem);
  blocks[len / 4] |= 0x80u << (24 - 8 * rem);
  const int nblocks = (len + 9 + 63) / 64;
  blocks[nblocks * 16 - 1] = len * 8;
  uint32_t state[8];
  sha::init(state);
  for (int b = 0; b < nblocks; ++b) sha::transform(state, blocks + 16 * b);
#pragma unroll
  for (int i = 0; i < 8; ++i) digests[tid * 8 + i] = state[i];
}
