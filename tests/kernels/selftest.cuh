/*
 * selftest.cuh: helpers for self-checking test kernels.
 *
 * A self-test kernel is `extern "C" __global__ void selftest_NAME(unsigned
 * *failures)`. The Check harness (tests/check_selftest.c) launches every such
 * kernel of tests/kernels/selftest_*.cu with one block of 32 threads and
 * expects *failures to stay 0. The same files compile with nvcc, so they can
 * also run on a GPU.
 */
#ifndef CUEMU_TESTS_SELFTEST_CUH
#define CUEMU_TESTS_SELFTEST_CUH

#include <cstdio>

/* Counts a failed check and says which one. */
#define SELFTEST_CHECK(failures, cond)                                          \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("%s:%d: thread %u: check failed: %s\n", __FILE__, __LINE__,       \
             threadIdx.x, #cond);                                              \
      atomicAdd((failures), 1u);                                               \
    }                                                                          \
  } while (0)

#endif
