#pragma once
// Common helpers: error checking, timing, small host utilities.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

#define HASHDB_CUDA_TRY(call)                                                      \
  do {                                                                           \
    cudaError_t status_ = (call);                                                \
    if (status_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(status_), \
                   __FILE__, __LINE__, cudaGetErrorString(status_));             \
      std::exit(EXIT_FAILURE);                                                   \
    }                                                                            \
  } while (0)

#define HASHDB_CHECK_LAST() HASHDB_CUDA_TRY(cudaGetLastError())

namespace hashdb {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

inline int grid_size_for(size_t n, int block) {
  size_t g = (n + block - 1) / block;
  return g > 65535 ? 65535 : static_cast<int>(g);
}

struct GpuTimer {
  cudaEvent_t start_, stop_;
  GpuTimer() {
    HASHDB_CUDA_TRY(cudaEventCreate(&start_));
    HASHDB_CUDA_TRY(cudaEventCreate(&stop_));
  }
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start(cudaStream_t s = 0) { HASHDB_CUDA_TRY(cudaEventRecord(start_, s)); }
  float stop(cudaStream_t s = 0) {
    HASHDB_CUDA_TRY(cudaEventRecord(stop_, s));
    HASHDB_CUDA_TRY(cudaEventSynchronize(stop_));
    float ms = 0.f;
    HASHDB_CUDA_TRY(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }
};

// A device buffer that owns its allocation (RAII, move-only).
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) : size_(n) { HASHDB_CUDA_TRY(cudaMalloc(&ptr_, n * sizeof(T))); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), size_(o.size_) { o.ptr_ = nullptr; o.size_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      if (ptr_) cudaFree(ptr_);
      ptr_ = o.ptr_;
      size_ = o.size_;
      o.ptr_ = nullptr;
      o.size_ = 0;
    }
    return *this;
  }
  ~DeviceBuffer() { if (ptr_) cudaFree(ptr_); }
  T* data() const { return ptr_; }
  size_t size() const { return size_; }
  void upload(const T* host, cudaStream_t s = 0) {
    HASHDB_CUDA_TRY(cudaMemcpyAsync(ptr_, host, size_ * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void download(T* host, cudaStream_t s = 0) const {
    HASHDB_CUDA_TRY(cudaMemcpyAsync(host, ptr_, size_ * sizeof(T), cudaMemcpyDeviceToHost, s));
  }
  void fill_bytes(int byte, cudaStream_t s = 0) {
    HASHDB_CUDA_TRY(cudaMemsetAsync(ptr_, byte, size_ * sizeof(T), s));
  }
 private:
  T* ptr_ = nullptr;
  size_t size_ = 0;
};

}  // namespace hashdb
