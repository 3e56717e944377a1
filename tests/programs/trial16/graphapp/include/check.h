#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define checkCuda(call)                                                      \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "CUDA error %s (%d) at %s:%d: %s\n",              \
                   cudaGetErrorName(err_), (int)err_, __FILE__, __LINE__,    \
                   cudaGetErrorString(err_));                                \
      std::exit(EXIT_FAILURE);                                               \
    }                                                                        \
  } while (0)

struct GpuTimer {
  cudaEvent_t start_, stop_;
  cudaStream_t s_;
  explicit GpuTimer(cudaStream_t s = 0) : s_(s) {
    checkCuda(cudaEventCreate(&start_));
    checkCuda(cudaEventCreate(&stop_));
  }
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() { checkCuda(cudaEventRecord(start_, s_)); }
  float stop() {
    float ms = 0.f;
    checkCuda(cudaEventRecord(stop_, s_));
    checkCuda(cudaEventSynchronize(stop_));
    checkCuda(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }
};
