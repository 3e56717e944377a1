// dev.cu: a __device__ function and a kernel with g++ warnings, and the
// host function that launches the kernel.
#include <cuda_runtime.h>

#include "kernels.cuh"

__device__ int below(const int *x, unsigned n, int v) {
  int c = 0;
  for (int i = 0; i < n; ++i)
    c += x[i] < v;
  return c;
}

__global__ void count_kernel(const int *x, int n, int *counts) {
  for (int t = threadIdx.x; t < blockDim.x; t += 1) {
    int skipped;
    if (t < n)
      counts[t] = below(x, n, x[t]);
  }
}

void count_below(const int *x, int n, int *counts) {
  count_kernel<<<1, n>>>(x, n, counts);
}
