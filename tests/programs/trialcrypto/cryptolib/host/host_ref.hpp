// host_ref.hpp - plain C++ reference implementations used to check the GPU.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ref {
void sha256_init(uint32_t st[8]);
void sha256_block(uint32_t st[8], const uint8_t block[64]);
void sha256(const uint8_t *msg, size_t len, uint32_t out[8]);
void md5(const uint8_t *msg, size_t len, uint32_t out[4]);
// AES-128: 44 round-key words (big-endian words, FIPS-197 order).
void aes128_expand(const uint8_t key[16], uint32_t rk[44]);
void aes128_encrypt(const uint32_t rk[44], const uint8_t in[16], uint8_t out[16]);
uint8_t aes_sbox(uint8_t x);
uint8_t gf_mul(uint8_t a, uint8_t b);
}  // namespace ref
