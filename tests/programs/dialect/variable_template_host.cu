// variable_template_host.cu: __device__ variable templates (tuning.cuh) in
// nvcc's two passes: instances that kernels use, set from the host with
// cudaMemcpyToSymbol, and instances that only host code names, under
// #ifndef __CUDA_ARCH__ (host code reads and writes its own object there,
// as nvcc's host code reads its shadow), which the device pass never sees
// and which must still link.
#include <cuda_runtime.h>

#include "../check.cuh"
#include "tuning.cuh"

#ifndef __CUDA_ARCH__
// Host-only bookkeeping of the library: instances the device pass never
// makes (double, long), whose objects host code reaches by address.
static double *bias_of_double() { return &bias<double>; }
static long *bias_of_long() { return &bias<long>; }
static void remember_bias(double b, long count) {
  *bias_of_double() = b;
  *bias_of_long() = count;
}
static double host_bias() {
  return *bias_of_double() + (double)*bias_of_long();
}
#endif

template <typename T> static void run(T *host, int n, T want_scale) {
  T *d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(T)) == cudaSuccess);
  CHECK(cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice) ==
        cudaSuccess);
  filter<T><<<(n + 63) / 64, 64>>>(d, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  T *out = new T[n];
  CHECK(cudaMemcpy(out, d, n * sizeof(T), cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  for (int i = 0; i < n; ++i)
    CHECK(out[i] == host[i] * want_scale);
  delete[] out;
  cudaFree(d);
}

int main() {
  const int n = 100;
  float f[n];
  int k[n];
  for (int i = 0; i < n; ++i) {
    f[i] = 0.5f * (float)i;
    k[i] = i - 40;
  }
  // The initializers: twice<T>, gain 3.
  run(f, n, 6.0f);
  run(k, n, 6);
  // The host sets the kernels' instances: one object per instance.
  float g = 0.25f;
  CHECK(cudaMemcpyToSymbol(gain<float>, &g, sizeof g) == cudaSuccess);
  int (*neg)(int) = nullptr;
  CHECK(cudaMemcpyFromSymbol(&neg, operation<int>, sizeof neg) ==
        cudaSuccess);
  CHECK(neg != nullptr);
  int (*copied)(int) = nullptr;
  CHECK(cudaMemcpyToSymbol(operation<int>, &neg, sizeof neg) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&copied, operation<int>, sizeof copied) ==
        cudaSuccess);
  CHECK(copied == neg);
  int minus = -2;
  CHECK(cudaMemcpyToSymbol(gain<int>, &minus, sizeof minus) == cudaSuccess);
  run(f, n, 0.5f);
  run(k, n, -4);
#ifndef __CUDA_ARCH__
  remember_bias(1.5, 4);
  CHECK(host_bias() == 5.5);
  CHECK(bias_of_double() == &bias<double>);
  CHECK((void *)bias_of_long() != (void *)bias_of_double());
#endif
  return finish();
}
