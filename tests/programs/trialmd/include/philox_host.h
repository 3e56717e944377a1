// philox_host.h: Philox4x32-10 on the host, laid out as curand's device state
// (counter, key from the seed, subsequence in the counter's upper half).
#pragma once
#include <cstdint>

struct HostPhilox {
  uint32_t ctr[4], key[2], out[4];
  int idx;

  static void round(uint32_t c[4], const uint32_t k[2]) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
    uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0, hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
    uint32_t r[4] = {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
    for (int i = 0; i < 4; ++i) c[i] = r[i];
  }
  void generate() {
    uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]}, k[2] = {key[0], key[1]};
    for (int r = 0; r < 10; ++r) {
      if (r) { k[0] += 0x9E3779B9u; k[1] += 0xBB67AE85u; }
      round(c, k);
    }
    for (int i = 0; i < 4; ++i) out[i] = c[i];
  }
  HostPhilox(uint64_t seed, uint64_t subsequence) {
    ctr[0] = ctr[1] = 0;
    ctr[2] = (uint32_t)subsequence;
    ctr[3] = (uint32_t)(subsequence >> 32);
    key[0] = (uint32_t)seed;
    key[1] = (uint32_t)(seed >> 32);
    idx = 0;
    generate();
  }
  uint32_t next() {
    uint32_t v = out[idx++];
    if (idx == 4) {
      idx = 0;
      if (++ctr[0] == 0 && ++ctr[1] == 0 && ++ctr[2] == 0) ++ctr[3];
      generate();
    }
    return v;
  }
  float uniform() { return next() * 2.3283064e-10f + (2.3283064e-10f / 2.0f); }
};
