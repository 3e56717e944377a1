/*
 * live_mix.cuh: many values of three types (more than there are registers)
 * for the tests that keep values live across a rendezvous
 * (barrier/live_across_barriers.cu, shuffle/live_across_collectives.cu):
 * make_mix() mixes a thread index into them, mix_sum() folds them into one
 * value, on the host and on the device alike.
 */
#ifndef CUEMU_TEST_PROGRAMS_LIVE_MIX_CUH
#define CUEMU_TEST_PROGRAMS_LIVE_MIX_CUH

// 16 values of three types mixed from a thread index.
struct Mix {
  int a[6];
  float f[5];
  double d[5];
};

__host__ __device__ inline Mix make_mix(unsigned t) {
  Mix m;
  for (int k = 0; k < 6; ++k)
    m.a[k] = static_cast<int>(t * (k + 3) + k * k);
  for (int k = 0; k < 5; ++k)
    m.f[k] = static_cast<float>(t % 97) * 0.5f + static_cast<float>(k);
  for (int k = 0; k < 5; ++k)
    m.d[k] = static_cast<double>(t) * 0.25 + 1.0 / (k + 1);
  return m;
}

__host__ __device__ inline double mix_sum(const Mix &m, int round) {
  double s = 0;
  for (int k = 0; k < 6; ++k)
    s += m.a[k] * (round + 1);
  for (int k = 0; k < 5; ++k)
    s += m.f[k] * (round + 2);
  for (int k = 0; k < 5; ++k)
    s += m.d[k] * (round + 3);
  return s;
}

#endif
