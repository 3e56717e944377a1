/*
 * result_bits.cuh: floating-point results stored as their bits, so that a
 * kernel can write every result of a row into one array of long longs and
 * the host test can compare them exactly.
 */
#ifndef CUEMU_TESTS_RESULT_BITS_CUH
#define CUEMU_TESTS_RESULT_BITS_CUH

#include <cstring>

/* The bits of `f`, zero-extended. */
__device__ inline long long fbits(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return (long long)u;
}

/* The bits of `d`. */
__device__ inline long long dbits(double d) {
  long long u;
  memcpy(&u, &d, sizeof u);
  return u;
}

#endif /* CUEMU_TESTS_RESULT_BITS_CUH */
