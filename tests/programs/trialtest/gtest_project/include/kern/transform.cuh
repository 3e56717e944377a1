// transform.cuh: a kernel template over a functor or extended lambda,
// and a device buffer owned by the tests.
#pragma once
#include <cuda_runtime.h>

namespace kern {

template <typename In, typename Out, typename F>
__global__ void transform(const In* __restrict__ in, Out* __restrict__ out, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i]);
}

template <typename T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t n = 0;
  explicit DeviceBuffer(size_t count) : n(count) { cudaMalloc(&ptr, count * sizeof(T)); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(ptr); }
  void upload(const T* h) { cudaMemcpy(ptr, h, n * sizeof(T), cudaMemcpyHostToDevice); }
  void download(T* h) const { cudaMemcpy(h, ptr, n * sizeof(T), cudaMemcpyDeviceToHost); }
};

}  // namespace kern
