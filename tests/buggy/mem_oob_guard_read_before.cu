// mem_oob_guard_read_before.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds read global before line 15
#include <cstdio>
#include <cuda_runtime.h>

/* Copies a window of `count` floats starting at element `start` of `in`;
 * the caller computes the start from a halo with the wrong sign, -2048: the
 * reads fall 8 KiB before the start of `in`, in the guard that cuemu maps
 * before an allocation (reads there find zeros, as on a GPU), far from any
 * allocation's first bytes. compute-sanitizer reports them; so must
 * memcheck. */
__global__ void window(const float *in, float *out, long start, int count) {
  int i = threadIdx.x;
  if (i < count) out[i] = in[start + i];
}

int main() {
  const int n = 4096, count = 64;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, count * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  window<<<1, count>>>(in, out, -2048, count);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
