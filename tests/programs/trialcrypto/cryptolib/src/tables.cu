// tables.cu - the constant tables of the hash and cipher kernels (relocatable
// device code): SHA-256's and MD5's in constant memory, AES's T-tables in
// global memory, uploaded by aes_setup().
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include "sha256.cuh"
#include "md5.cuh"
#include "aes.cuh"
#include "../host/host_ref.hpp"

__constant__ uint32_t c_sha256_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

__constant__ uint32_t c_sha256_H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// MD5's sine table and shift amounts; the shifts are set from the host with
// cudaMemcpyToSymbol in md5_setup (they are not initialised here on purpose).
__constant__ uint32_t c_md5_T[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
__constant__ uint32_t c_md5_S[64];

void md5_setup() {
  static const uint32_t s[16] = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};
  uint32_t full[64];
  for (int i = 0; i < 64; ++i) full[i] = s[(i / 16) * 4 + (i % 4)];
  CUDA_CHECK(cudaMemcpyToSymbol(c_md5_S, full, sizeof(full)));
}

// The AES tables on the device and the key schedule upload.
__device__ uint32_t d_aes_Te[4][256];
__device__ uint32_t d_aes_sbox[256];
__constant__ uint32_t c_aes_rk[44];

void aes_setup(const uint8_t key[16]) {
  static uint32_t Te[4][256];
  static uint32_t S[256];
  for (int x = 0; x < 256; ++x) {
    const uint8_t s = ref::aes_sbox((uint8_t)x);
    const uint32_t w = (uint32_t)ref::gf_mul(s, 2) << 24 | (uint32_t)s << 16 | (uint32_t)s << 8 | ref::gf_mul(s, 3);
    Te[0][x] = w;
    Te[1][x] = (w >> 8) | (w << 24);
    Te[2][x] = (w >> 16) | (w << 16);
    Te[3][x] = (w >> 24) | (w << 8);
    S[x] = s;
  }
  uint32_t rk[44];
  ref::aes128_expand(key, rk);
  CUDA_CHECK(cudaMemcpyToSymbol(d_aes_Te, Te, sizeof(Te)));
  CUDA_CHECK(cudaMemcpyToSymbol(d_aes_sbox, S, sizeof(S)));
  CUDA_CHECK(cudaMemcpyToSymbol(c_aes_rk, rk, sizeof(rk)));
}
