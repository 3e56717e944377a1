// legacy_buffer.cuh: a C++14-era helper library of the kind older CUDA
// projects carry: dynamic exception specifications (removed in C++17), a
// feature test that picks a fallback before C++17, kernels in a header.
#ifndef LEGACY_BUFFER_CUH
#define LEGACY_BUFFER_CUH

#include <cstddef>
#include <new>
#include <stdexcept>

#include <cuda_runtime.h>

#if __cplusplus >= 201703L
#include <optional>
template <typename T> using maybe = std::optional<T>;
constexpr int library_dialect = 17;
#else
// The library's own optional before C++17.
template <typename T> class maybe {
public:
  maybe() : has_(false), v_() {}
  maybe(const T &v) : has_(true), v_(v) {}
  bool has_value() const { return has_; }
  const T &value() const {
    if (!has_)
      throw std::logic_error("empty maybe");
    return v_;
  }

private:
  bool has_;
  T v_;
};
constexpr int library_dialect = 14;
#endif

// A device buffer whose constructor says what it throws (C++14 only).
template <typename T> class device_buffer {
public:
  explicit device_buffer(std::size_t n) throw(std::bad_alloc) : n_(n) {
    if (cudaMalloc(&p_, n * sizeof(T)) != cudaSuccess)
      throw std::bad_alloc();
  }
  ~device_buffer() { cudaFree(p_); }
  T *get() const throw() { return p_; }
  std::size_t size() const throw() { return n_; }

private:
  T *p_ = nullptr;
  std::size_t n_;
};

// Overloaded kernels, one with a default argument.
__global__ void fill(int *out, int n, int value = 7) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}
__global__ void fill(float *out, int n, float value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}

// A kernel template launched with deduced arguments, with launch bounds.
template <typename T, int Scale>
__global__ void __launch_bounds__(128) scale_by(T *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * Scale;
}

#endif
