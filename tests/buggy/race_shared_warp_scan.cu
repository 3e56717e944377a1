// race_shared_warp_scan.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAR line 12 line 12
#include <cstdio>
#include <cuda_runtime.h>

/* A warp-synchronous inclusive scan without __syncwarp(): the lanes that
 * read a neighbour's word and the neighbour that overwrites it are ordered
 * only by the warp's lockstep, which Volta no longer guarantees. */
__device__ int scan_warp(volatile int *s, unsigned lane) {
  for (unsigned k = 1; k < 32; k <<= 1)
    if (lane >= k) s[lane] = s[lane - k] + s[lane];
  return s[lane];
}
__global__ void scan(const int *in, int *out) {
  __shared__ int s[32];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = scan_warp(s, t);
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  // Words that are not zero: each += changes the word it writes (a
  // write of the value already there would be no race that matters).
  cudaMemset(in, 1, 32 * sizeof(int));
  scan<<<1, 32>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
