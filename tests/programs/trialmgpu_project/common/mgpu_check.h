// mgpu_check.h - error checking helpers shared by the mgpu-kit examples.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                   #call, cudaGetErrorString(err_), cudaGetErrorName(err_));   \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

#ifdef MGPU_USE_DRIVER
#include <cuda.h>
#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult res_ = (call);                                                    \
    if (res_ != CUDA_SUCCESS) {                                                \
      const char *name_ = nullptr, *str_ = nullptr;                            \
      cuGetErrorName(res_, &name_);                                            \
      cuGetErrorString(res_, &str_);                                           \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                   #call, name_ ? name_ : "?", str_ ? str_ : "?");             \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)
#endif

#ifdef MGPU_USE_NVRTC
#include <nvrtc.h>
#define NVRTC_CHECK(call)                                                      \
  do {                                                                         \
    nvrtcResult r_ = (call);                                                   \
    if (r_ != NVRTC_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
                   #call, nvrtcGetErrorString(r_));                            \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)
#endif

static inline int mgpu_report(bool ok, const char *what) {
  std::printf("%s: %s\n", what, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
