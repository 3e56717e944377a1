// cuRAND's device API, as Monte Carlo codes use it: <curand_kernel.h>
// (the toolkit's own header; it did not compile: `libraryPropertyType`
// undeclared, cuda_runtime.h brought no library_types.h, and its host-pass
// `extern const dim3 blockDim` clashed with cuemu's built-in variables).
// Checked against values worked out here: the first XORWOW draw of
// subsequence 0 from its documented seeding, the first four Philox4x32-10
// draws of a subsequence from the Philox rounds, skipahead and offsets
// against the plain sequence, and the moments of curand_normal.
// CUEMU_OPTIONS: -isystem /usr/local/cuda/include
#include <curand_kernel.h>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "../check.cuh"

constexpr int kThreads = 64;
constexpr int kNormals = 64;

struct Draws {
  unsigned xorwow_first[kThreads];
  unsigned xorwow_fifth[kThreads];     // curand_init(seed, i, 0), 5th draw
  unsigned xorwow_offset4[kThreads];   // curand_init(seed, i, 4), 1st draw
  unsigned xorwow_skip[kThreads];      // subsequence 0, skipahead_sequence(i)
  unsigned philox[kThreads][4];
  float uniform0;
  double normal_sum, normal_sq;
  double mrg_sum;
};

__global__ void draw(Draws *d, unsigned long long seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState s;
  curand_init(seed, i, 0, &s);
  d->xorwow_first[i] = curand(&s);
  for (int k = 0; k < 3; ++k)
    curand(&s);
  d->xorwow_fifth[i] = curand(&s);
  curandState o;
  curand_init(seed, i, 4, &o);
  d->xorwow_offset4[i] = curand(&o);
  curandState q;
  curand_init(seed, 0, 0, &q);
  skipahead_sequence((unsigned long long)i, &q);
  d->xorwow_skip[i] = curand(&q);
  if (i == 0) {
    curandState u;
    curand_init(seed, 0, 0, &u);
    d->uniform0 = curand_uniform(&u);
  }

  curandStatePhilox4_32_10_t p;
  curand_init(seed, (unsigned long long)i + 3, 0, &p);
  for (int k = 0; k < 4; ++k)
    d->philox[i][k] = curand(&p);

  curandState n;
  curand_init(seed + 1, i, 0, &n);
  double sum = 0, sq = 0;
  for (int k = 0; k < kNormals; ++k) {
    float z = curand_normal(&n);
    sum += z;
    sq += (double)z * z;
  }
  atomicAdd(&d->normal_sum, sum);
  atomicAdd(&d->normal_sq, sq);

  curandStateMRG32k3a m;
  curand_init(seed, i, 0, &m);
  atomicAdd(&d->mrg_sum, (double)curand_uniform(&m));
}

// XORWOW's first draw from curand_init(seed, 0, 0): its seeding and one
// step of the generator, as cuRAND documents them.
static unsigned xorwow_first(unsigned long long seed) {
  unsigned s0 = (unsigned)seed ^ 0xaad26b49u;
  unsigned s1 = (unsigned)(seed >> 32) ^ 0xf7dcefddu;
  unsigned t0 = 1099087573u * s0, t1 = 2591861531u * s1;
  unsigned d = 6615241u + t1 + t0;
  unsigned v[5] = {123456789u + t0, 362436069u ^ t0, 521288629u + t1,
                   88675123u ^ t1, 5783321u + t0};
  unsigned t = v[0] ^ (v[0] >> 2);
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
  return v[4] + d + 362437u;
}

// Philox4x32-10 of a counter and a key (Salmon et al., SC'11).
static void philox(uint32_t c[4], uint32_t k0, uint32_t k1) {
  for (int r = 0; r < 10; ++r) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c[0];
    uint64_t p1 = (uint64_t)0xCD9E8D57u * c[2];
    uint32_t n[4] = {(uint32_t)(p1 >> 32) ^ c[1] ^ k0, (uint32_t)p1,
                     (uint32_t)(p0 >> 32) ^ c[3] ^ k1, (uint32_t)p0};
    for (int j = 0; j < 4; ++j)
      c[j] = n[j];
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

int main() {
  const unsigned long long seed = 0x123456789abcdefULL;
  Draws *d;
  CHECK(cudaMallocManaged(&d, sizeof(Draws)) == cudaSuccess);
  d->normal_sum = d->normal_sq = d->mrg_sum = 0;
  draw<<<kThreads / 32, 32>>>(d, seed);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  CHECK(d->xorwow_first[0] == xorwow_first(seed));
  // curand_uniform is x * 2^-32 + 2^-33; a GPU may fuse it (one rounding).
  CHECK(std::fabs(d->uniform0 - (xorwow_first(seed) * 0x1p-32 + 0x1p-33)) <
        1e-7);
  int bad = 0, distinct = 0;
  for (int i = 0; i < kThreads; ++i) {
    bad += d->xorwow_offset4[i] != d->xorwow_fifth[i];
    bad += d->xorwow_skip[i] != d->xorwow_first[i];
    distinct += i > 0 && d->xorwow_first[i] != d->xorwow_first[i - 1];
    uint32_t c[4] = {0, 0, (uint32_t)(i + 3), 0};
    philox(c, (uint32_t)seed, (uint32_t)(seed >> 32));
    for (int k = 0; k < 4; ++k)
      bad += d->philox[i][k] != c[k];
  }
  CHECK(bad == 0);
  CHECK(distinct == kThreads - 1);
  const double count = (double)kThreads * kNormals;
  double mean = d->normal_sum / count;
  double var = d->normal_sq / count - mean * mean;
  CHECK(std::fabs(mean) < 0.1);
  CHECK(std::fabs(var - 1.0) < 0.15);
  CHECK(std::fabs(d->mrg_sum / kThreads - 0.5) < 0.15);
  CHECK(cudaFree(d) == cudaSuccess);
  return finish();
}
