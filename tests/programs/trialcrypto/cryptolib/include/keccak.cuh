// keccak.cuh - Keccak-f[1600] on uint2 lanes and SHA3-256 of short messages.
#pragma once
#include "cuda_vectors.cuh"

// The round constants, in constant memory: the file that includes this
// header defines them (whole-program compilation).
__constant__ uint2 c_keccak_rc[24];

__device__ __forceinline__ void keccak_f1600(uint2 s[25]) {
  const int rho[25] = {0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14};
#pragma unroll 1
  for (int round = 0; round < 24; ++round) {
    uint2 C[5], D[5], B[25];
#pragma unroll
    for (int x = 0; x < 5; ++x) C[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
#pragma unroll
    for (int x = 0; x < 5; ++x) D[x] = C[(x + 4) % 5] ^ ROL2(C[(x + 1) % 5], 1);
#pragma unroll
    for (int i = 0; i < 25; ++i) s[i] ^= D[i % 5];
    // rho and pi: B[y, 2x+3y] = rot(A[x, y], r[x, y]).
#pragma unroll
    for (int x = 0; x < 5; ++x)
#pragma unroll
      for (int y = 0; y < 5; ++y) {
        const int r = rho[x + 5 * y];
        const uint2 v = s[x + 5 * y];
        B[y + 5 * ((2 * x + 3 * y) % 5)] = r == 0 ? v : (r & 1 ? ROL2(v, r) : ROR2(v, 64 - r));
      }
#pragma unroll
    for (int y = 0; y < 5; ++y)
#pragma unroll
      for (int x = 0; x < 5; ++x)
        s[x + 5 * y] = B[x + 5 * y] ^ (~B[(x + 1) % 5 + 5 * y] & B[(x + 2) % 5 + 5 * y]);
    s[0] ^= c_keccak_rc[round];
  }
}

// SHA3-256 of messages of at most 135 bytes in SLOT-byte slots.
template <int SLOT>
__global__ void sha3_256_many(const uint64_t *__restrict__ msgs, const uint32_t *__restrict__ lens,
                              uint64_t *__restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint2 s[25];
#pragma unroll
  for (int k = 0; k < 25; ++k) s[k] = make_uint2(0, 0);
  const uint32_t len = lens[i];
  const uint64_t *m = msgs + (size_t)i * (SLOT / 8);
  for (uint32_t w = 0; w < len / 8; ++w) s[w] ^= vectorize(__ldg(m + w));
  // The last partial word, then the padding 0x06 ... 0x80 (rate 136 bytes).
  uint64_t tail = 0;
  for (uint32_t b = len & ~7u; b < len; ++b) tail |= (uint64_t)((const uint8_t *)m)[b] << (8 * (b & 7));
  tail |= (uint64_t)0x06 << (8 * (len & 7));
  s[len / 8] ^= vectorize(tail);
  s[16] ^= vectorize(0x8000000000000000ull);
  keccak_f1600(s);
#pragma unroll
  for (int k = 0; k < 4; ++k) out[(size_t)i * 4 + k] = devectorize(s[k]);
}

extern "C" int keccak_selftest(int n, unsigned long long *found_nonce);
