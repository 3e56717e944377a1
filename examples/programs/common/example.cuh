/*
 * example.cuh: what every example program shares: checking CUDA runtime
 * calls, a seeded input generator, comparing a result with the host's, and
 * the last line "RESULT <name> PASS|FAIL <detail>" that
 * examples/programs/run_examples.sh reads.
 *
 * An example defines EXAMPLE_NAME (its folder's name, as a string) and then
 * includes this header with #include "../common/example.cuh". This folder
 * holds no example of its own.
 */
#ifndef EXAMPLES_COMMON_EXAMPLE_CUH
#define EXAMPLES_COMMON_EXAMPLE_CUH

#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#ifndef EXAMPLE_NAME
#error "define EXAMPLE_NAME before including example.cuh"
#endif

/* Checks the result of a CUDA runtime call, in the style of helper_cuda.h:
 * on an error, says where and why, prints the FAIL line and exits. */
#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t check_err_ = (call);                                           \
    if (check_err_ != cudaSuccess) {                                           \
      fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\": %s\n",          \
              __FILE__, __LINE__, (int)check_err_,                             \
              cudaGetErrorName(check_err_), #call,                             \
              cudaGetErrorString(check_err_));                                 \
      printf("RESULT " EXAMPLE_NAME " FAIL %s\n",                              \
             cudaGetErrorName(check_err_));                                    \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

/* ---- Seeded input -------------------------------------------------------- */

/* A small deterministic generator (a 32-bit LCG), so that every run sees the
 * same data. */
static unsigned example_lcg_state = 1u;

/* Starts the sequence again from `seed`. */
static inline void example_seed(unsigned seed) { example_lcg_state = seed; }

/* The next 32 bits of the sequence. */
static inline unsigned example_random_u32(void) {
  example_lcg_state = example_lcg_state * 1664525u + 1013904223u;
  return example_lcg_state;
}

/* A float in [lo, hi), from the top 24 bits of the next number. */
static inline float example_random_float(float lo, float hi) {
  return lo + (hi - lo) * (float)(example_random_u32() >> 8) / 16777216.0f;
}

/* An int in [lo, hi], from bits 8 to 31 of the next number. */
static inline int example_random_int(int lo, int hi) {
  return lo + (int)((example_random_u32() >> 8) % (unsigned)(hi - lo + 1));
}

/* ---- Comparing with the host ------------------------------------------- */

/* What comparing a result with the host's found. */
struct example_mismatches {
  size_t bad;       /* the number of wrong elements */
  size_t first_bad; /* the index of the first one (when bad > 0) */
  double max_err;   /* the largest absolute error over all elements */
};

/* Compares got[0..n) with expect[0..n). An element is wrong when its
 * absolute error exceeds `tol`, or tol * (1 + |expected|) when `relative`;
 * a NaN error is wrong. With tol = 0 the comparison is exact. */
template <typename T>
static example_mismatches example_compare(const T *got, const T *expect,
                                          size_t n, double tol = 0.0,
                                          bool relative = false) {
  example_mismatches r = {0, 0, 0.0};
  for (size_t i = 0; i < n; ++i) {
    const double err = std::fabs((double)got[i] - (double)expect[i]);
    if (err > r.max_err)
      r.max_err = err;
    const double limit =
        relative ? tol * (1.0 + std::fabs((double)expect[i])) : tol;
    if (!(err <= limit)) {
      if (!r.bad)
        r.first_bad = i;
      ++r.bad;
    }
  }
  return r;
}

/* ---- The RESULT line ----------------------------------------------------- */

/* Prints "RESULT <name> <status> <detail>" with the detail formatted as by
 * printf. */
static inline void example_vresult(const char *status, const char *format,
                                   va_list ap) {
  printf("RESULT %s %s ", EXAMPLE_NAME, status);
  vprintf(format, ap);
  printf("\n");
}

/* Prints the PASS line; returns 0, main's exit status. */
__attribute__((format(printf, 1, 2))) static inline int
example_pass(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  example_vresult("PASS", format, ap);
  va_end(ap);
  return 0;
}

/* Prints the FAIL line; returns 1, main's exit status. */
__attribute__((format(printf, 1, 2))) static inline int
example_fail(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  example_vresult("FAIL", format, ap);
  va_end(ap);
  return 1;
}

#endif /* EXAMPLES_COMMON_EXAMPLE_CUH */
