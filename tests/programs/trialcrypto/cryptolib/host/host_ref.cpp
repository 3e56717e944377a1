// host_ref.cpp - reference SHA-256, MD5 and AES-128 written for clarity.
#include "host_ref.hpp"
#include <cmath>
#include <cstring>
#include <vector>

namespace ref {

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
static inline uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

void sha256_init(uint32_t st[8]) {
  static const uint32_t H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::memcpy(st, H0, sizeof(H0));
}

void sha256_block(uint32_t st[8], const uint8_t p[64]) {
  uint32_t W[64];
  for (int i = 0; i < 16; ++i)
    W[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  for (int i = 16; i < 64; ++i) {
    uint32_t a = W[i - 15], b = W[i - 2];
    W[i] = W[i - 16] + (rotr(a, 7) ^ rotr(a, 18) ^ (a >> 3)) + W[i - 7] +
           (rotr(b, 17) ^ rotr(b, 19) ^ (b >> 10));
  }
  uint32_t v[8];
  std::memcpy(v, st, sizeof(v));
  for (int i = 0; i < 64; ++i) {
    uint32_t t1 = v[7] + (rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25)) +
                  ((v[4] & v[5]) ^ (~v[4] & v[6])) + K256[i] + W[i];
    uint32_t t2 = (rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22)) +
                  ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
    std::memmove(v + 1, v, 7 * sizeof(uint32_t));
    v[4] += t1;
    v[0] = t1 + t2;
  }
  for (int i = 0; i < 8; ++i) st[i] += v[i];
}

void sha256(const uint8_t *msg, size_t len, uint32_t out[8]) {
  std::vector<uint8_t> buf(msg, msg + len);
  buf.push_back(0x80);
  while (buf.size() % 64 != 56) buf.push_back(0);
  uint64_t bits = (uint64_t)len * 8;
  for (int i = 7; i >= 0; --i) buf.push_back((uint8_t)(bits >> (8 * i)));
  sha256_init(out);
  for (size_t off = 0; off < buf.size(); off += 64) sha256_block(out, &buf[off]);
}

void md5(const uint8_t *msg, size_t len, uint32_t out[4]) {
  static const int S[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
  std::vector<uint8_t> buf(msg, msg + len);
  buf.push_back(0x80);
  while (buf.size() % 64 != 56) buf.push_back(0);
  uint64_t bits = (uint64_t)len * 8;
  for (int i = 0; i < 8; ++i) buf.push_back((uint8_t)(bits >> (8 * i)));
  uint32_t h[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
  for (size_t off = 0; off < buf.size(); off += 64) {
    uint32_t M[16];
    std::memcpy(M, &buf[off], 64);  // little-endian host
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 64; ++i) {
      uint32_t f;
      int g;
      switch (i / 16) {
        case 0: f = (b & c) | (~b & d); g = i; break;
        case 1: f = (d & b) | (~d & c); g = (5 * i + 1) % 16; break;
        case 2: f = b ^ c ^ d; g = (3 * i + 5) % 16; break;
        default: f = c ^ (b | ~d); g = (7 * i) % 16; break;
      }
      uint32_t T = (uint32_t)(std::fabs(std::sin((double)(i + 1))) * 4294967296.0);
      uint32_t tmp = d;
      d = c;
      c = b;
      b = b + rotl(a + f + T + M[g], S[i / 16][i % 4]);
      a = tmp;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
  }
  std::memcpy(out, h, sizeof(h));
}

static uint8_t gmul(uint8_t a, uint8_t b) {
  uint8_t p = 0;
  while (b) {
    if (b & 1) p ^= a;
    a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
    b >>= 1;
  }
  return p;
}

static uint8_t sbox_entry(uint8_t x) {
  // Multiplicative inverse in GF(2^8), then the affine map.
  uint8_t inv = 0;
  if (x) {
    for (int y = 1; y < 256; ++y)
      if (gmul(x, (uint8_t)y) == 1) { inv = (uint8_t)y; break; }
  }
  uint8_t s = inv;
  uint8_t r = inv;
  for (int i = 0; i < 4; ++i) {
    r = (uint8_t)((r << 1) | (r >> 7));
    s ^= r;
  }
  return (uint8_t)(s ^ 0x63);
}

struct SboxTable {
  uint8_t t[256];
  SboxTable() { for (int i = 0; i < 256; ++i) t[i] = sbox_entry((uint8_t)i); }
};
static const SboxTable g_sbox;
static inline uint8_t sbox(uint8_t x) { return g_sbox.t[x]; }
uint8_t aes_sbox(uint8_t x) { return sbox(x); }
uint8_t gf_mul(uint8_t a, uint8_t b) { return gmul(a, b); }

void aes128_expand(const uint8_t key[16], uint32_t rk[44]) {
  for (int i = 0; i < 4; ++i)
    rk[i] = (uint32_t)key[4 * i] << 24 | (uint32_t)key[4 * i + 1] << 16 | (uint32_t)key[4 * i + 2] << 8 | key[4 * i + 3];
  uint8_t rcon = 1;
  for (int i = 4; i < 44; ++i) {
    uint32_t t = rk[i - 1];
    if (i % 4 == 0) {
      t = (t << 8) | (t >> 24);
      t = (uint32_t)sbox(t >> 24) << 24 | (uint32_t)sbox((t >> 16) & 0xff) << 16 |
          (uint32_t)sbox((t >> 8) & 0xff) << 8 | sbox(t & 0xff);
      t ^= (uint32_t)rcon << 24;
      rcon = gmul(rcon, 2);
    }
    rk[i] = rk[i - 4] ^ t;
  }
}

void aes128_encrypt(const uint32_t rk[44], const uint8_t in[16], uint8_t out[16]) {
  uint8_t s[16];
  for (int i = 0; i < 16; ++i) s[i] = in[i] ^ (uint8_t)(rk[i / 4] >> (24 - 8 * (i % 4)));
  for (int round = 1; round <= 10; ++round) {
    uint8_t t[16];
    for (int i = 0; i < 16; ++i) t[i] = sbox(s[i]);
    // ShiftRows: state byte (row r, column c) is s[4c + r].
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) s[4 * c + r] = t[4 * ((c + r) % 4) + r];
    if (round != 10) {
      for (int c = 0; c < 4; ++c) {
        uint8_t *col = s + 4 * c;
        uint8_t a0 = col[0], a1 = col[1], a2 = col[2], a3 = col[3];
        col[0] = gmul(a0, 2) ^ gmul(a1, 3) ^ a2 ^ a3;
        col[1] = a0 ^ gmul(a1, 2) ^ gmul(a2, 3) ^ a3;
        col[2] = a0 ^ a1 ^ gmul(a2, 2) ^ gmul(a3, 3);
        col[3] = gmul(a0, 3) ^ a1 ^ a2 ^ gmul(a3, 2);
      }
    }
    for (int i = 0; i < 16; ++i) s[i] ^= (uint8_t)(rk[4 * round + i / 4] >> (24 - 8 * (i % 4)));
  }
  std::memcpy(out, s, 16);
}

}  // namespace ref
