// cuda_util.h: error checking and timing helpers shared by every app.
#ifndef TRIALGRAPH_CUDA_UTIL_H
#define TRIALGRAPH_CUDA_UTIL_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
  do {                                                                          \
    cudaError_t err__ = (call);                                                 \
    if (err__ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n",                      \
                   cudaGetErrorName(err__), __FILE__, __LINE__,                 \
                   cudaGetErrorString(err__));                                  \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())

struct GpuTimer {
  cudaEvent_t start_, stop_;
  GpuTimer() { cudaEventCreate(&start_); cudaEventCreate(&stop_); }
  ~GpuTimer() { cudaEventDestroy(start_); cudaEventDestroy(stop_); }
  void Start(cudaStream_t s = 0) { cudaEventRecord(start_, s); }
  void Stop(cudaStream_t s = 0) { cudaEventRecord(stop_, s); }
  float ElapsedMs() {
    float ms = 0;
    cudaEventSynchronize(stop_);
    cudaEventElapsedTime(&ms, start_, stop_);
    return ms;
  }
};

inline int report(const char *name, bool ok) {
  std::printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

template <typename T>
struct DeviceArray {
  T *ptr = nullptr;
  size_t n = 0;
  DeviceArray() = default;
  explicit DeviceArray(size_t count) { alloc(count); }
  void alloc(size_t count) {
    n = count;
    CUDA_CHECK(cudaMalloc(&ptr, sizeof(T) * (count ? count : 1)));
  }
  ~DeviceArray() { if (ptr) cudaFree(ptr); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  void upload(const T *h) { CUDA_CHECK(cudaMemcpy(ptr, h, sizeof(T) * n, cudaMemcpyHostToDevice)); }
  void download(T *h) const { CUDA_CHECK(cudaMemcpy(h, ptr, sizeof(T) * n, cudaMemcpyDeviceToHost)); }
  operator T *() const { return ptr; }
};

#endif  // TRIALGRAPH_CUDA_UTIL_H
