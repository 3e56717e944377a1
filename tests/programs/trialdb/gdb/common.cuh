// common.cuh: error checking, RAII device buffers and launch helpers shared by
// every operator of the trialdb engine.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define GDB_CUDA_TRY(call)                                                          \
  do {                                                                              \
    cudaError_t gdb_err_ = (call);                                                  \
    if (gdb_err_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "CUDA error %s (%s) at %s:%d\n", cudaGetErrorName(gdb_err_), \
                   cudaGetErrorString(gdb_err_), __FILE__, __LINE__);               \
      std::exit(EXIT_FAILURE);                                                      \
    }                                                                               \
  } while (0)

#define GDB_CHECK_LAST() GDB_CUDA_TRY(cudaGetLastError())

namespace gdb {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

inline unsigned grid_for(size_t n, int block, unsigned cap = 4096) {
  size_t g = (n + block - 1) / block;
  if (g == 0) g = 1;
  return g > cap ? cap : unsigned(g);
}

// The lane of the calling thread and the mask of lanes below it, read from the
// special registers as most engines do.
__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned mask;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

// A column in device memory, owned.
template <typename T>
class column {
 public:
  column() = default;
  explicit column(size_t n) : n_(n) {
    if (n_) GDB_CUDA_TRY(cudaMalloc(&ptr_, n_ * sizeof(T)));
  }
  explicit column(const std::vector<T>& host) : column(host.size()) { upload(host); }
  column(const column&) = delete;
  column& operator=(const column&) = delete;
  column(column&& o) noexcept : ptr_(o.ptr_), n_(o.n_) { o.ptr_ = nullptr; o.n_ = 0; }
  ~column() { if (ptr_) cudaFree(ptr_); }

  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  size_t size() const { return n_; }

  void upload(const std::vector<T>& host) {
    GDB_CUDA_TRY(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download(size_t count = size_t(-1)) const {
    if (count > n_) count = n_;
    std::vector<T> host(count);
    if (count) GDB_CUDA_TRY(cudaMemcpy(host.data(), ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  void fill_bytes(int byte) { GDB_CUDA_TRY(cudaMemset(ptr_, byte, n_ * sizeof(T))); }

 private:
  T* ptr_ = nullptr;
  size_t n_ = 0;
};

// Elapsed milliseconds between two events on the default stream.
class gpu_timer {
 public:
  gpu_timer() { cudaEventCreate(&start_); cudaEventCreate(&stop_); }
  ~gpu_timer() { cudaEventDestroy(start_); cudaEventDestroy(stop_); }
  void start(cudaStream_t s = 0) { cudaEventRecord(start_, s); }
  float stop(cudaStream_t s = 0) {
    float ms = 0;
    cudaEventRecord(stop_, s);
    cudaEventSynchronize(stop_);
    cudaEventElapsedTime(&ms, start_, stop_);
    return ms;
  }

 private:
  cudaEvent_t start_, stop_;
};

inline int report(const char* test, bool ok) {
  std::printf("%s: %s\n", test, ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}

}  // namespace gdb
