// aes.cuh - AES-128 with T-tables, ECB and CTR, tables staged in shared memory.
#pragma once
#include "common.cuh"

// The four T-tables and the S-box (as words) in global memory, filled by
// aes_setup(); the expanded key of the current launch in constant memory.
extern __device__ uint32_t d_aes_Te[4][256];
extern __device__ uint32_t d_aes_sbox[256];
extern __constant__ uint32_t c_aes_rk[44];

void aes_setup(const uint8_t key[16]);

enum class AesMode { ECB, CTR };

namespace aes {

__device__ __forceinline__ uint32_t be(uint32_t x) { return __byte_perm(x, 0, 0x0123); }

struct SharedTables {
  uint32_t Te[4][256];
  uint32_t S[256];
};

__device__ __forceinline__ void load_tables(SharedTables &t) {
  for (int i = threadIdx.x; i < 256; i += blockDim.x) {
#pragma unroll
    for (int k = 0; k < 4; ++k) t.Te[k][i] = d_aes_Te[k][i];
    t.S[i] = d_aes_sbox[i];
  }
  __syncthreads();
}

// Encrypts one block given as four big-endian words.
__device__ __forceinline__ uint4 encrypt(const SharedTables &t, uint4 in) {
  uint32_t s0 = in.x ^ c_aes_rk[0], s1 = in.y ^ c_aes_rk[1];
  uint32_t s2 = in.z ^ c_aes_rk[2], s3 = in.w ^ c_aes_rk[3];
#pragma unroll
  for (int r = 1; r < 10; ++r) {
    const uint32_t t0 = t.Te[0][s0 >> 24] ^ t.Te[1][(s1 >> 16) & 0xff] ^ t.Te[2][(s2 >> 8) & 0xff] ^ t.Te[3][s3 & 0xff] ^ c_aes_rk[4 * r];
    const uint32_t t1 = t.Te[0][s1 >> 24] ^ t.Te[1][(s2 >> 16) & 0xff] ^ t.Te[2][(s3 >> 8) & 0xff] ^ t.Te[3][s0 & 0xff] ^ c_aes_rk[4 * r + 1];
    const uint32_t t2 = t.Te[0][s2 >> 24] ^ t.Te[1][(s3 >> 16) & 0xff] ^ t.Te[2][(s0 >> 8) & 0xff] ^ t.Te[3][s1 & 0xff] ^ c_aes_rk[4 * r + 2];
    const uint32_t t3 = t.Te[0][s3 >> 24] ^ t.Te[1][(s0 >> 16) & 0xff] ^ t.Te[2][(s1 >> 8) & 0xff] ^ t.Te[3][s2 & 0xff] ^ c_aes_rk[4 * r + 3];
    s0 = t0; s1 = t1; s2 = t2; s3 = t3;
  }
  uint4 out;
  out.x = (t.S[s0 >> 24] << 24 | t.S[(s1 >> 16) & 0xff] << 16 | t.S[(s2 >> 8) & 0xff] << 8 | t.S[s3 & 0xff]) ^ c_aes_rk[40];
  out.y = (t.S[s1 >> 24] << 24 | t.S[(s2 >> 16) & 0xff] << 16 | t.S[(s3 >> 8) & 0xff] << 8 | t.S[s0 & 0xff]) ^ c_aes_rk[41];
  out.z = (t.S[s2 >> 24] << 24 | t.S[(s3 >> 16) & 0xff] << 16 | t.S[(s0 >> 8) & 0xff] << 8 | t.S[s1 & 0xff]) ^ c_aes_rk[42];
  out.w = (t.S[s3 >> 24] << 24 | t.S[(s0 >> 16) & 0xff] << 16 | t.S[(s1 >> 8) & 0xff] << 8 | t.S[s2 & 0xff]) ^ c_aes_rk[43];
  return out;
}

__device__ __forceinline__ uint4 bswap4(uint4 v) {
  return make_uint4(be(v.x), be(v.y), be(v.z), be(v.w));
}

}  // namespace aes

// ECB: out[i] = E(in[i]); CTR: out[i] = in[i] ^ E(iv + i) (the counter is
// the low 64 bits of the IV, big-endian). Grid-stride over 16-byte blocks.
template <AesMode MODE>
__global__ void __launch_bounds__(256) aes128_kernel(const uint4 *__restrict__ in, uint4 *__restrict__ out,
                                                     size_t nblocks, uint4 iv) {
  __shared__ aes::SharedTables tables;
  aes::load_tables(tables);
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < nblocks; i += stride) {
    const uint4 data = in[i];
    if (MODE == AesMode::ECB) {
      out[i] = aes::bswap4(aes::encrypt(tables, aes::bswap4(data)));
    } else {
      uint4 ctr = aes::bswap4(iv);
      const unsigned long long lo = ((unsigned long long)ctr.z << 32 | ctr.w) + i;
      ctr.z = (uint32_t)(lo >> 32);
      ctr.w = (uint32_t)lo;
      const uint4 ks = aes::bswap4(aes::encrypt(tables, ctr));
      out[i] = make_uint4(data.x ^ ks.x, data.y ^ ks.y, data.z ^ ks.z, data.w ^ ks.w);
    }
  }
}
