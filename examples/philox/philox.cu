/*
 * philox.cu: the Philox4x32-10 counter-based generator of Random123
 * (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC11) and
 * uniform numbers drawn from it. The generator is a pure function of a
 * 128-bit counter and a 64-bit key: ten rounds of two 32 x 32 -> 64-bit
 * multiplications whose halves are mixed with the other words and the key,
 * with the key bumped by the Weyl constants between rounds.
 */
#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

/* Philox4x32-10 of the counter c (4 words) under the key k (2 words). */
__device__ uint4 philox4x32_10_block(uint4 c, uint2 k) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k.x += PHILOX_W0;
      k.y += PHILOX_W1;
    }
    unsigned hi0 = __umulhi(PHILOX_M0, c.x), lo0 = PHILOX_M0 * c.x;
    unsigned hi1 = __umulhi(PHILOX_M1, c.z), lo1 = PHILOX_M1 * c.z;
    c = make_uint4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
  }
  return c;
}

/* The raw generator: thread i turns counters[4i .. 4i+3] and keys[2i],
 * keys[2i+1] into out[4i .. 4i+3]. */
extern "C" __global__ void philox4x32_10(int n, const unsigned int *counters,
                                         const unsigned int *keys,
                                         unsigned int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint4 c = make_uint4(counters[4 * i], counters[4 * i + 1],
                       counters[4 * i + 2], counters[4 * i + 3]);
  uint4 r = philox4x32_10_block(c, make_uint2(keys[2 * i], keys[2 * i + 1]));
  out[4 * i] = r.x;
  out[4 * i + 1] = r.y;
  out[4 * i + 2] = r.z;
  out[4 * i + 3] = r.w;
}

/* Uniform numbers in [0, 1): thread i draws the counter (i, step, 0, 0)
 * under the key (key0, key1) and makes two doubles of 53 random bits (from
 * words 0 and 1, and 2 and 3) and four floats of 24 random bits (one per
 * word). Every conversion is exact, so the host gets the same bits. */
extern "C" __global__ void philox_uniform(int n, unsigned int key0,
                                          unsigned int key1,
                                          unsigned int step, double *u,
                                          float *uf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint4 r = philox4x32_10_block(make_uint4((unsigned)i, step, 0u, 0u),
                                make_uint2(key0, key1));
  const double two_m53 = 1.0 / 9007199254740992.0;
  const float two_m24 = 1.0f / 16777216.0f;
  u[2 * i] = ((r.x >> 5) * 67108864.0 + (r.y >> 6)) * two_m53;
  u[2 * i + 1] = ((r.z >> 5) * 67108864.0 + (r.w >> 6)) * two_m53;
  uf[4 * i] = (r.x >> 8) * two_m24;
  uf[4 * i + 1] = (r.y >> 8) * two_m24;
  uf[4 * i + 2] = (r.z >> 8) * two_m24;
  uf[4 * i + 3] = (r.w >> 8) * two_m24;
}
