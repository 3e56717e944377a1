// md5.cuh - MD5 on the device, one thread per message (password-cracker style).
#pragma once
#include "common.cuh"

extern __constant__ uint32_t c_md5_T[64];
extern __constant__ uint32_t c_md5_S[64];

void md5_setup();

namespace md5 {

__device__ __forceinline__ uint32_t rotl(uint32_t x, uint32_t n) {
  return __funnelshift_l(x, x, n);
}

// One MD5 compression over 16 little-endian words.
__device__ __forceinline__ void transform(uint32_t st[4], const uint32_t M[16]) {
  uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
#pragma unroll
  for (int i = 0; i < 64; ++i) {
    uint32_t f;
    int g;
    if (i < 16) {
      f = (b & c) | (~b & d);
      g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) & 15;
    } else if (i < 48) {
      f = b ^ c ^ d;
      g = (3 * i + 5) & 15;
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) & 15;
    }
    const uint32_t tmp = d;
    d = c;
    c = b;
    b = b + rotl(a + f + c_md5_T[i] + M[g], c_md5_S[i]);
    a = tmp;
  }
  st[0] += a; st[1] += b; st[2] += c; st[3] += d;
}

}  // namespace md5

// Candidate passwords are generated from an index (base-26 lowercase, fixed
// length LEN), hashed, and compared with a target digest: a brute-force
// cracker. Every thread also writes its digest's first word, for checking.
template <int LEN>
__global__ void md5_crack(uint64_t first, int n, uint4 target, uint32_t *word0,
                          unsigned long long *found) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  uint64_t idx = first + tid;
  uint32_t M[16] = {0};
  uint8_t *bytes = reinterpret_cast<uint8_t *>(M);
#pragma unroll
  for (int i = LEN - 1; i >= 0; --i) {
    bytes[i] = 'a' + (uint8_t)(idx % 26);
    idx /= 26;
  }
  bytes[LEN] = 0x80;
  M[14] = LEN * 8;
  uint32_t st[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
  md5::transform(st, M);
  word0[tid] = st[0];
  if (st[0] == target.x && st[1] == target.y && st[2] == target.z && st[3] == target.w)
    atomicMin(found, (unsigned long long)(first + tid));
}
