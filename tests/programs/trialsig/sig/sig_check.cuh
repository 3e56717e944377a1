// Error checking helpers shared by every program of the signal toolkit.
#ifndef SIG_SIG_CHECK_CUH
#define SIG_SIG_CHECK_CUH
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cufft.h>

#define CUDA_CHECK(call)                                                        \
  do {                                                                          \
    cudaError_t err__ = (call);                                                 \
    if (err__ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "CUDA error %s (%d) at %s:%d: %s\n",                 \
                   cudaGetErrorName(err__), (int)err__, __FILE__, __LINE__,     \
                   cudaGetErrorString(err__));                                  \
      std::exit(EXIT_FAILURE);                                                  \
    }                                                                           \
  } while (0)

static inline const char *cufftResultString(cufftResult r) {
  switch (r) {
  case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
  case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
  case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
  case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
  case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
  case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
  case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
  case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
  case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
  default: return "CUFFT_UNKNOWN";
  }
}

#define CUFFT_CHECK(call)                                                       \
  do {                                                                          \
    cufftResult r__ = (call);                                                   \
    if (r__ != CUFFT_SUCCESS) {                                                 \
      std::fprintf(stderr, "cuFFT error %s (%d) at %s:%d\n",                    \
                   cufftResultString(r__), (int)r__, __FILE__, __LINE__);       \
      std::exit(EXIT_FAILURE);                                                  \
    }                                                                           \
  } while (0)

#define KERNEL_CHECK() CUDA_CHECK(cudaGetLastError())

inline int div_up(int a, int b) { return (a + b - 1) / b; }
#endif  // SIG_SIG_CHECK_CUH
