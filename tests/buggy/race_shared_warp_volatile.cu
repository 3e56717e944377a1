// race_shared_warp_volatile.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared RAW line 13 line 14
#include <cstdio>
#include <cuda_runtime.h>

/* Legacy warp-synchronous unrolling without __syncwarp: lanes of one warp
 * read and write the same volatile shared words with nothing ordering them
 * (a race since Volta's independent thread scheduling). Lanes 16-31 add
 * the zeros above the data at line 13 (writes that change nothing, no race
 * that matters); lane 0 then reads at line 14 the word lane 8 changed. */
__device__ void warp_tail(volatile int *s, unsigned t) {
  s[t] += s[t + 16];
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}
__global__ void warp_sum(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  s[t + 32] = 0;
  __syncthreads();
  if (t < 32)
    warp_tail(s, t);
  if (t == 0)
    out[0] = s[0];
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  // Words that are not zero: each += changes the word it writes (a
  // write of the value already there would be no race that matters).
  cudaMemset(in, 1, 32 * sizeof(int));
  warp_sum<<<1, 32>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
