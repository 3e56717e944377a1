// kern_a.cu: libkern_a.so, built with nvcc -shared -Xcompiler -fPIC and
// loaded from Python with ctypes.CDLL.
#include "../common/cuda_check.cuh"
#include "elementwise.cuh"

// libkern_b.so has a variable of the same name: each library must keep its own.
__device__ int g_calls;

__global__ void count_call() {
  if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(&g_calls, 1);
}

// libkern_b.so has a kernel of the same name and type that stores 2.
__global__ void which_library(int* out) { *out = 1; }

extern "C" {

int ka_which(int* out) {
  DeviceBuffer<int> d;
  RETURN_IF_CUDA_ERROR(d.alloc(1));
  which_library<<<1, 1>>>(d.ptr);
  RETURN_IF_CUDA_ERROR(cudaGetLastError());
  return static_cast<int>(d.download(out));
}

int ka_fill(int* out, size_t n, int value) { return fill_and_read(out, n, value); }

int ka_version() { return 3; }

const char* ka_error_string(int code) {
  return cudaGetErrorString(static_cast<cudaError_t>(code));
}

const char* ka_error_name(int code) {
  return cudaGetErrorName(static_cast<cudaError_t>(code));
}

int ka_device_name(char* out, int len) {
  cudaDeviceProp prop;
  RETURN_IF_CUDA_ERROR(cudaGetDeviceProperties(&prop, 0));
  snprintf(out, len, "%s (sm_%d%d)", prop.name, prop.major, prop.minor);
  return 0;
}

int ka_saxpy(size_t n, float a, const float* x, float* y) {
  DeviceBuffer<float> dx, dy;
  RETURN_IF_CUDA_ERROR(dx.alloc(n));
  RETURN_IF_CUDA_ERROR(dy.alloc(n));
  RETURN_IF_CUDA_ERROR(dx.upload(x));
  RETURN_IF_CUDA_ERROR(dy.upload(y));
  axpy_kernel<float><<<blocks_for(n, 256) > 64 ? 64 : blocks_for(n, 256), 256>>>(n, a, dx.ptr, dy.ptr);
  RETURN_IF_CUDA_ERROR(cudaGetLastError());
  count_call<<<1, 32>>>();
  RETURN_IF_CUDA_ERROR(cudaGetLastError());
  RETURN_IF_CUDA_ERROR(dy.download(y));
  return 0;
}

int ka_daxpy(size_t n, double a, const double* x, double* y) {
  DeviceBuffer<double> dx, dy;
  RETURN_IF_CUDA_ERROR(dx.alloc(n));
  RETURN_IF_CUDA_ERROR(dy.alloc(n));
  RETURN_IF_CUDA_ERROR(dx.upload(x));
  RETURN_IF_CUDA_ERROR(dy.upload(y));
  axpy_kernel<<<blocks_for(n, 128), 128>>>(n, a, dx.ptr, dy.ptr);
  RETURN_IF_CUDA_ERROR(cudaGetLastError());
  count_call<<<1, 32>>>();
  RETURN_IF_CUDA_ERROR(dy.download(y));
  return 0;
}

int ka_set_poly(const float* coeffs) {
  return static_cast<int>(cudaMemcpyToSymbol(c_poly, coeffs, 4 * sizeof(float)));
}

int ka_poly(int n, const float* x, float* y) {
  DeviceBuffer<float> dx, dy;
  RETURN_IF_CUDA_ERROR(dx.alloc(n));
  RETURN_IF_CUDA_ERROR(dy.alloc(n));
  RETURN_IF_CUDA_ERROR(dx.upload(x));
  poly_kernel<<<blocks_for(n, 256), 256>>>(n, dx.ptr, dy.ptr);
  RETURN_IF_CUDA_ERROR(cudaGetLastError());
  RETURN_IF_CUDA_ERROR(dy.download(y));
  return 0;
}

int ka_calls(int* out) {
  return static_cast<int>(cudaMemcpyFromSymbol(out, g_calls, sizeof(int)));
}

// A launch with more threads per block than the device allows.
int ka_bad_launch() {
  count_call<<<1, 4096>>>();
  return static_cast<int>(cudaGetLastError());
}

}  // extern "C"
