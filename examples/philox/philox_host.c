/* philox_host.c: the host implementations of philox.cu (an independent
 * Philox4x32-10 on 64-bit products), and the published known answers. */
#include <stdint.h>

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

/* Philox4x32-10 of the counter c under the key k, into r. */
static void philox_block(const uint32_t c_in[4], const uint32_t k_in[2],
                         uint32_t r[4]) {
  uint32_t c[4] = {c_in[0], c_in[1], c_in[2], c_in[3]};
  uint32_t k0 = k_in[0], k1 = k_in[1];
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = (uint64_t)PHILOX_M0 * c[0], p1 = (uint64_t)PHILOX_M1 * c[2];
    uint32_t next[4] = {(uint32_t)(p1 >> 32) ^ c[1] ^ k0, (uint32_t)p1,
                        (uint32_t)(p0 >> 32) ^ c[3] ^ k1, (uint32_t)p0};
    for (int j = 0; j < 4; ++j) c[j] = next[j];
    k0 += PHILOX_W0;
    k1 += PHILOX_W1;
  }
  for (int j = 0; j < 4; ++j) r[j] = c[j];
}

void philox4x32_10(int n, const unsigned int *counters,
                   const unsigned int *keys, unsigned int *out) {
  for (int i = 0; i < n; ++i) {
    uint32_t c[4], k[2] = {keys[2 * i], keys[2 * i + 1]}, r[4];
    for (int j = 0; j < 4; ++j) c[j] = counters[4 * i + j];
    philox_block(c, k, r);
    for (int j = 0; j < 4; ++j) out[4 * i + j] = r[j];
  }
}

void philox_uniform(int n, unsigned int key0, unsigned int key1,
                    unsigned int step, double *u, float *uf) {
  for (int i = 0; i < n; ++i) {
    uint32_t c[4] = {(uint32_t)i, step, 0, 0}, k[2] = {key0, key1}, r[4];
    philox_block(c, k, r);
    u[2 * i] = (double)(((uint64_t)(r[0] >> 5) << 26) | (r[1] >> 6)) * 0x1p-53;
    u[2 * i + 1] =
        (double)(((uint64_t)(r[2] >> 5) << 26) | (r[3] >> 6)) * 0x1p-53;
    for (int j = 0; j < 4; ++j) uf[4 * i + j] = (float)(r[j] >> 8) * 0x1p-24f;
  }
}

/* The published known answers for philox4x32 with 10 rounds: the three
 * "philox4x32 10" lines of tests/kat_vectors in Random123
 * (https://github.com/DEShawResearch/random123), as counter (4 words), key
 * (2 words) and expected output (4 words). */
static const uint32_t philox_kat[3][10] = {
    {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
     0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
    {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
     0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
    {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0,
     0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
};

/* The known-answer "host": for each (counter, key) the published output,
 * computing nothing. An input that is not one of the published ones gets
 * 0xdeadbeef words, which no kernel output should equal. */
void philox4x32_10_kat(int n, const unsigned int *counters,
                       const unsigned int *keys, unsigned int *out) {
  for (int i = 0; i < n; ++i) {
    int found = -1;
    for (int v = 0; v < 3 && found < 0; ++v) {
      int same = 1;
      for (int j = 0; j < 4; ++j) same &= counters[4 * i + j] == philox_kat[v][j];
      for (int j = 0; j < 2; ++j) same &= keys[2 * i + j] == philox_kat[v][4 + j];
      if (same) found = v;
    }
    for (int j = 0; j < 4; ++j)
      out[4 * i + j] = found < 0 ? 0xdeadbeefu : philox_kat[found][6 + j];
  }
}
