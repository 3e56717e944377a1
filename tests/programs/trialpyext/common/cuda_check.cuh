// cuda_check.cuh: error plumbing shared by the extension libraries.
#pragma once
#include <cuda_runtime.h>
#include <cstdio>

// Entry points return cudaError_t as an int so that ctypes can read it.
#define RETURN_IF_CUDA_ERROR(expr)                                          \
  do {                                                                      \
    cudaError_t err__ = (expr);                                             \
    if (err__ != cudaSuccess) return static_cast<int>(err__);               \
  } while (0)

// RAII device buffer, freed on every return path.
template <typename T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t count = 0;
  cudaError_t alloc(size_t n) {
    count = n;
    return cudaMalloc(reinterpret_cast<void**>(&ptr), n * sizeof(T));
  }
  cudaError_t upload(const T* host) {
    return cudaMemcpy(ptr, host, count * sizeof(T), cudaMemcpyHostToDevice);
  }
  cudaError_t download(T* host) const {
    return cudaMemcpy(host, ptr, count * sizeof(T), cudaMemcpyDeviceToHost);
  }
  ~DeviceBuffer() {
    if (ptr) cudaFree(ptr);
  }
};

inline unsigned int blocks_for(size_t n, unsigned int threads) {
  return static_cast<unsigned int>((n + threads - 1) / threads);
}

// A kernel template of the project's common header: both libraries
// instantiate fill_kernel<int>.
template <typename T>
__global__ void fill_kernel(T* p, size_t n, T value) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = value;
}

// Fills n elements of device memory with value, then copies them back.
template <typename T>
int fill_and_read(T* host, size_t n, T value) {
  DeviceBuffer<T> d;
  RETURN_IF_CUDA_ERROR(d.alloc(n));
  fill_kernel<<<blocks_for(n, 128), 128>>>(d.ptr, n, value);
  RETURN_IF_CUDA_ERROR(cudaGetLastError());
  return static_cast<int>(d.download(host));
}
