// kern.cu: the library's kernels and host functions.
#include <cuda_runtime.h>

#include "ops.cuh"

__global__ void double_all(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = twice(x[i]);
}

__global__ void count_calls(unsigned *out) { *out = twice_calls; }

int run_double_all(float *x, int n) {
  double_all<<<(n + 63) / 64, 64>>>(x, n);
  return (int)cudaDeviceSynchronize();
}

unsigned calls_so_far() {
  unsigned calls = 0;
  cudaMemcpyFromSymbol(&calls, twice_calls, sizeof calls);
  return calls;
}
