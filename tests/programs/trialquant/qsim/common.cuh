// common.cuh: error checks, timing and small helpers shared by every program.
#ifndef QSIM_COMMON_CUH
#define QSIM_COMMON_CUH
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>
#include <cuComplex.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n",                    \
                   cudaGetErrorName(err_), __FILE__, __LINE__,                \
                   cudaGetErrorString(err_));                                 \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)

#define CUDA_CHECK_KERNEL()                                                   \
  do {                                                                        \
    CUDA_CHECK(cudaGetLastError());                                           \
    CUDA_CHECK(cudaDeviceSynchronize());                                      \
  } while (0)

namespace qsim {

typedef unsigned long long index_t;

struct GpuTimer {
  cudaEvent_t start_, stop_;
  cudaStream_t stream_;
  explicit GpuTimer(cudaStream_t s = 0) : stream_(s) {
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() { CUDA_CHECK(cudaEventRecord(start_, stream_)); }
  float stop() {
    float ms = 0.f;
    CUDA_CHECK(cudaEventRecord(stop_, stream_));
    CUDA_CHECK(cudaEventSynchronize(stop_));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }
};

inline int report(const char *name, bool ok) {
  std::printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

inline unsigned blocks_for(index_t n, unsigned threads) {
  return (unsigned)((n + threads - 1) / threads);
}

}  // namespace qsim

#endif  // QSIM_COMMON_CUH
