// race_global_half2_read_atomic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW atomic line 16 line 18
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

/* Threads add (x, y) pairs into a global __half2 accumulator with
 * atomicAdd while thread 40 reads the accumulator's y half as a __half
 * with __half2float, with nothing between them: the plain 2-byte read
 * races with the 4-byte atomic adds of the word that holds it. */
__global__ void accumulate(__half2 *acc, float *peek) {
  unsigned t = threadIdx.x;
  const __half *halves = reinterpret_cast<const __half *>(acc);
  if (t != 40)
    atomicAdd(acc, __floats2half2_rn(1.0f, 2.0f));
  else
    peek[0] = __half2float(halves[1]);
}

int main() {
  __half2 *acc;
  float *peek;
  cudaMalloc(&acc, sizeof(__half2));
  cudaMalloc(&peek, sizeof(float));
  cudaMemset(acc, 0, sizeof(__half2));
  accumulate<<<1, 64>>>(acc, peek);
  float r;
  cudaMemcpy(&r, peek, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
