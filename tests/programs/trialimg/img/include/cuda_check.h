#ifndef TRIALIMG_CUDA_CHECK_H
#define TRIALIMG_CUDA_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define checkCudaErrors(val) check_cuda((val), #val, __FILE__, __LINE__)
#define getLastCudaError(msg) check_cuda(cudaGetLastError(), msg, __FILE__, __LINE__)

inline void check_cuda(cudaError_t err, const char *what, const char *file, int line) {
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, (int)err,
            cudaGetErrorName(err), what);
    exit(EXIT_FAILURE);
  }
}

inline int iDivUp(int a, int b) { return (a + b - 1) / b; }

struct GpuTimer {
  cudaEvent_t start_, stop_;
  GpuTimer() { cudaEventCreate(&start_); cudaEventCreate(&stop_); }
  ~GpuTimer() { cudaEventDestroy(start_); cudaEventDestroy(stop_); }
  void start(cudaStream_t s = 0) { cudaEventRecord(start_, s); }
  void stop(cudaStream_t s = 0) { cudaEventRecord(stop_, s); }
  float elapsed() { float ms = 0; cudaEventSynchronize(stop_); cudaEventElapsedTime(&ms, start_, stop_); return ms; }
};

#endif  // TRIALIMG_CUDA_CHECK_H
