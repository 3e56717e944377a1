/*
 * check.cuh: the self-check of the test programs: CHECK(cond) counts and
 * reports a failed condition; finish() prints PASS or FAIL and gives the
 * exit status.
 */
#ifndef CUEMU_TEST_PROGRAMS_CHECK_CUH
#define CUEMU_TEST_PROGRAMS_CHECK_CUH

#include <cstdio>

static int check_failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,    \
                   #cond);                                                     \
      ++check_failures;                                                        \
    }                                                                          \
  } while (0)

static inline int finish() {
  std::printf("%s\n", check_failures ? "FAIL" : "PASS");
  return check_failures ? 1 : 0;
}

#endif
