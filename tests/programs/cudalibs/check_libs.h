/* check_libs.h: the error-checking macros of the cudalibs test programs,
 * in the style of the CUDA samples' helpers. */
#ifndef CHECK_LIBS_H
#define CHECK_LIBS_H

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

static int g_failures = 0;

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,               \
                  cudaGetErrorString(e_));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

/* Expects a status of a library call (cuBLAS, cuRAND) to be `want`. */
#define EXPECT_STATUS(call, want)                                              \
  do {                                                                         \
    int s_ = (int)(call);                                                      \
    if (s_ != (int)(want)) {                                                   \
      std::printf("%s:%d: %s returned %d, expected %d (%s)\n", __FILE__,      \
                  __LINE__, #call, s_, (int)(want), #want);                    \
      ++g_failures;                                                            \
    }                                                                          \
  } while (0)

#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond);           \
      std::printf(__VA_ARGS__);                                                \
      std::printf("\n");                                                       \
      ++g_failures;                                                            \
    }                                                                          \
  } while (0)

static int finish(void) {
  if (g_failures == 0) {
    std::printf("PASS\n");
    return 0;
  }
  std::printf("%d checks failed\n", g_failures);
  return 1;
}

#endif /* CHECK_LIBS_H */
