// vecops.cu: host side of the kernels, behind the C interface of vecops.h.
#include <cuda_runtime.h>
#include <stdio.h>
#include "vecops.h"
#include "vecops_kernels.cuh"

#define TRY(call)                                   \
  do {                                              \
    cudaError_t e = (call);                         \
    if (e != cudaSuccess) { cleanup(); return e; }  \
  } while (0)

extern "C" int vecops_add(const float* a, const float* b, float* out, long n) {
  float *da = nullptr, *db = nullptr, *dout = nullptr;
  auto cleanup = [&] { cudaFree(da); cudaFree(db); cudaFree(dout); };
  size_t bytes = n * sizeof(float);
  TRY(cudaMalloc(&da, bytes));
  TRY(cudaMalloc(&db, bytes));
  TRY(cudaMalloc(&dout, bytes));
  TRY(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  TRY(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  vecops::add<<<(n + 255) / 256, 256>>>(da, db, dout, n);
  TRY(cudaGetLastError());
  TRY(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
  cleanup();
  return 0;
}

extern "C" int vecops_dot(const double* a, const double* b, long n, double* result) {
  double *da = nullptr, *db = nullptr, *dr = nullptr;
  auto cleanup = [&] { cudaFree(da); cudaFree(db); cudaFree(dr); };
  size_t bytes = n * sizeof(double);
  TRY(cudaMalloc(&da, bytes));
  TRY(cudaMalloc(&db, bytes));
  TRY(cudaMalloc(&dr, sizeof(double)));
  TRY(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  TRY(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  TRY(cudaMemset(dr, 0, sizeof(double)));
  int sms = 0;
  TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  vecops::dot<256><<<2 * sms, 256>>>(da, db, n, dr);
  TRY(cudaGetLastError());
  TRY(cudaMemcpy(result, dr, sizeof(double), cudaMemcpyDeviceToHost));
  cleanup();
  return 0;
}

extern "C" int vecops_scan_i32(const int* in, int* out, int n) {
  int *din = nullptr, *dout = nullptr;
  auto cleanup = [&] { cudaFree(din); cudaFree(dout); };
  unsigned threads = 32;
  while (threads < (unsigned)n) threads <<= 1;
  TRY(cudaMalloc(&din, n * sizeof(int)));
  TRY(cudaMalloc(&dout, n * sizeof(int)));
  TRY(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
  vecops::scan_block<<<1, threads, threads * sizeof(int)>>>(din, dout, n);
  TRY(cudaGetLastError());
  TRY(cudaDeviceSynchronize());
  TRY(cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  cleanup();
  return 0;
}

extern "C" int vecops_device(char* name, int len, int* sm_count) {
  cudaDeviceProp prop;
  cudaError_t e = cudaGetDeviceProperties(&prop, 0);
  if (e != cudaSuccess) return e;
  snprintf(name, len, "%s", prop.name);
  *sm_count = prop.multiProcessorCount;
  return 0;
}

extern "C" const char* vecops_error_string(int code) {
  return cudaGetErrorString(static_cast<cudaError_t>(code));
}
