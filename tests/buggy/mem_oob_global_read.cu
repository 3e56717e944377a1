// mem_oob_global_read.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds read global line 11
#include <cstdio>
#include <cuda_runtime.h>

/* Reads one element past the end of the input. */
__global__ void diff(const float *in, float *out, int n) {
  int i = threadIdx.x;
  if (i < n)
    out[i] = in[i + 1] - in[i];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMemset(in, 0, 64 * sizeof(float));
  diff<<<1, 64>>>(in, out, 64);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
