// kern_b.cu: compiled with nvcc -c -Xcompiler -fPIC and linked into
// libkern_b.so by g++ -shared against libcudart.
#include "../common/cuda_check.cuh"
#include "reduce.cuh"

__device__ int g_calls;  // same name as libkern_a's

// Every thread adds by: a launch of 10 threads adds 10 * by.
// Every thread adds by.
__global__ void count_call(int by) { atomicAdd(&g_calls, by); }

template <typename T>
static int sum_impl(const T* x, int n, T* result) {
  DeviceBuffer<T> dx, dout;
  RETURN_IF_CUDA_ERROR(dx.alloc(n));
  RETURN_IF_CUDA_ERROR(dout.alloc(1));
  RETURN_IF_CUDA_ERROR(dx.upload(x));
  RETURN_IF_CUDA_ERROR(cudaMemset(dout.ptr, 0, sizeof(T)));
  constexpr int kBlock = 256;
  int blocks = n / kBlock + 1;
  if (blocks > 32) blocks = 32;
  sum_kernel<T, kBlock><<<blocks, kBlock>>>(dx.ptr, n, dout.ptr);
  RETURN_IF_CUDA_ERROR(cudaGetLastError());
  count_call<<<1, 10>>>(10);
  RETURN_IF_CUDA_ERROR(dout.download(result));
  return 0;
}

__global__ void which_library(int* out) { *out = 2; }

extern "C" {

int kb_which(int* out) {
  DeviceBuffer<int> d;
  RETURN_IF_CUDA_ERROR(d.alloc(1));
  which_library<<<1, 1>>>(d.ptr);
  RETURN_IF_CUDA_ERROR(cudaGetLastError());
  return static_cast<int>(d.download(out));
}

int kb_fill(int* out, size_t n, int value) { return fill_and_read(out, n, value); }

int kb_version() { return 7; }

int kb_sum_f64(const double* x, int n, double* result) { return sum_impl(x, n, result); }
int kb_sum_i32(const int* x, int n, int* result) { return sum_impl(x, n, result); }

int kb_histogram(const uint8_t* data, int n, unsigned int* hist) {
  DeviceBuffer<uint8_t> dd;
  DeviceBuffer<unsigned int> dh;
  RETURN_IF_CUDA_ERROR(dd.alloc(n));
  RETURN_IF_CUDA_ERROR(dh.alloc(256));
  RETURN_IF_CUDA_ERROR(dd.upload(data));
  RETURN_IF_CUDA_ERROR(cudaMemset(dh.ptr, 0, 256 * sizeof(unsigned int)));
  cudaStream_t s;
  RETURN_IF_CUDA_ERROR(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  histogram_kernel<<<16, 128, 256 * sizeof(unsigned int), s>>>(dd.ptr, n, dh.ptr);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  RETURN_IF_CUDA_ERROR(err);
  RETURN_IF_CUDA_ERROR(dh.download(hist));
  return 0;
}

int kb_calls(int* out) {
  return static_cast<int>(cudaMemcpyFromSymbol(out, g_calls, sizeof(int)));
}

// Reads past a 1-element allocation by a large stride: a kernel fault.
int kb_fault() {
  DeviceBuffer<float> d;
  RETURN_IF_CUDA_ERROR(d.alloc(1));
  sum_kernel<float, 256><<<4, 256>>>(d.ptr, 1 << 28, d.ptr);
  RETURN_IF_CUDA_ERROR(cudaGetLastError());
  return static_cast<int>(cudaDeviceSynchronize());
}

}  // extern "C"
