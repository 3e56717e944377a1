/* Relocatable device code across two units (rdc/linked_entities.cu): a
 * C++17 `inline __device__` variable of a header is one object of the
 * program, a function template explicitly instantiated in one unit is
 * called from the other (through `extern template` and through the
 * template's declaration alone), and so are an explicit specialization
 * and the __device__ members of an explicitly instantiated class template
 * defined outside their class.
 * cuemu gave each unit its own inline variable, and linked the host
 * pass's stub of the instances (a trap, "illegal instruction") in place of
 * the device pass's. Reduced from a C++17 library project built with -dc.
 * CUEMU_OPTIONS: -std=c++17 -rdc=true rdc/linked_entities.cu
 * NVCC_OPTIONS: -rdc=true */
#include <cstdio>

#include "rdc/linked_entities.cuh"

__global__ void this_kernel(const float* in, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Ops<float> ops;
    out[i] = scale_by(double(in[i]), 2) + offset_of(1.0f) +
             double(scale_by(1.0f, 3)) + Ops<float>::triple(2.0f) +
             ops.twice(0.5f);
    atomicAdd(&g_inline_calls, 100);
    atomicAdd(&g_inline_sum, 2ull);
  }
}

__global__ void read_inline(int* calls, unsigned long long* sum) {
  *calls = g_inline_calls;
  *sum = g_inline_sum;
}

int main() {
  const int n = 96;
  float* d;
  double* out;
  int* calls;
  unsigned long long* sum;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(double));
  cudaMalloc(&calls, sizeof(int));
  cudaMalloc(&sum, sizeof(unsigned long long));
  run_other_unit(d, n);
  this_kernel<<<(n + 31) / 32, 32>>>(d, out, n);
  read_inline<<<1, 1>>>(calls, sum);
  double h[n];
  int hc = 0;
  unsigned long long hs = 0;
  int symbol = 0;
  cudaError_t e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hc, calls, sizeof hc, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hs, sum, sizeof hs, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&symbol, g_inline_calls, sizeof symbol);
  int bad = e != cudaSuccess;
  for (int i = 0; i < n; ++i)
    if (h[i] != double(float(i) * 2.0f) * 3.0 + 1.5 + 4.0 + 6.0 + 1.0) {
      if (bad++ < 3) std::printf("out[%d] = %f\n", i, h[i]);
    }
  if (hc != n * 101 || symbol != n * 101 || hs != 3ull * n) {
    std::printf("inline variables: %d %d %llu\n", hc, symbol, hs);
    bad++;
  }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
