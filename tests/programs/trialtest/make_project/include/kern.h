// kern.h: the host API of a static library of kernels (libkern.a).
#pragma once
#include <cuda_runtime.h>
#include <cstddef>

namespace kern {
cudaError_t saxpy(int n, float a, const float* d_x, float* d_y, cudaStream_t s = 0);
// Sorts keys in place on the device (odd-even transposition, one block).
cudaError_t sort_small(int* d_keys, int n);
}  // namespace kern

template <typename T>
struct DevPtr {
  T* p = nullptr;
  explicit DevPtr(size_t n) { cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(T)); }
  ~DevPtr() { cudaFree(p); }
  operator T*() const { return p; }
};
