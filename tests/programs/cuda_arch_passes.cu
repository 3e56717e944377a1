/*
 * cuda_arch_passes.cu: nvcc's two passes (issue 13, item 3). Device code
 * sees __CUDA_ARCH__ == 900 (sm_90, the emulated device), host code sees no
 * __CUDA_ARCH__; both see __CUDACC__, __NVCC__ and __CUDACC_VER_MAJOR__;
 * __host__ __device__ functions exist in both passes; a kernel template's
 * instance, __device__, __constant__ and __managed__ variables are the
 * device pass's, reached from host code by identity.
 */
#include <cstdio>

#include "check.cuh"

/* A helper_math-style header: host fallbacks only without __CUDACC__. */
#ifndef __CUDACC__
inline float rsqrtf(float x) { return 1.0f / x; }
inline int max(int a, int b) { return a > b ? a : b; }
#endif

__host__ __device__ int which_pass() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return -1;
#endif
}

__device__ int device_value = 5;
__constant__ int constant_value[2] = {20, 21};
__managed__ int managed_value = 3;

__global__ void probe(int *out) {
  out[0] = which_pass();
#if defined(__CUDACC__) && defined(__NVCC__)
  out[1] = __CUDACC_VER_MAJOR__ >= 12;
#else
  out[1] = 0;
#endif
  out[2] = device_value;
  out[3] = constant_value[1];
  managed_value += 10;
  device_value = 6;
}

template <typename T> __global__ void probe_template(T *out) {
  out[0] = (T)which_pass();
}

int main() {
  int *d = nullptr;
  CHECK(cudaMallocManaged(&d, 4 * sizeof(int)) == cudaSuccess);
  probe<<<1, 1>>>(d);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(d[0] == 900);
  CHECK(d[1] == 1);
  CHECK(d[2] == 5);
  CHECK(d[3] == 21);
  CHECK(which_pass() == -1);
#ifdef __CUDA_ARCH__
  CHECK(!"host code sees __CUDA_ARCH__");
#endif
#ifndef __CUDACC__
  CHECK(!"host code does not see __CUDACC__");
#endif
  /* __managed__: host code reads the device pass's variable. */
  CHECK(managed_value == 13);
  managed_value = 1;
  probe<<<1, 1>>>(d);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(managed_value == 11);
  /* Symbols: the host's names are the device's variables. */
  int h = 0;
  CHECK(cudaMemcpyFromSymbol(&h, device_value, sizeof h) == cudaSuccess);
  CHECK(h == 6);
  int c[2] = {30, 31};
  CHECK(cudaMemcpyToSymbol(constant_value, c, sizeof c) == cudaSuccess);
  probe<<<1, 1>>>(d);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(d[3] == 31);
  /* A kernel template's instance runs the device pass's body. */
  float *f = nullptr;
  CHECK(cudaMallocManaged(&f, sizeof(float)) == cudaSuccess);
  probe_template<<<1, 1>>>(f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(f[0] == 900.0f);
  probe_template<float><<<1, 1>>>(f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(f[0] == 900.0f);
  /* A kernel's address is one in both passes. */
  void (*fp)(int *) = probe;
  CHECK(fp == &probe);
  fp<<<1, 1>>>(d);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(d[0] == 900);
  cudaFree(d);
  cudaFree(f);
  return finish();
}
