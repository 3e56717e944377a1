// race_global_load_before_atomic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAR atomic line 15 line 17
#include <cstdio>
#include <cuda_runtime.h>

/* Thread 0 reads a sum with a plain load while the other threads add to it
 * with a float atomicAdd (a compare-and-swap loop in the shims, an
 * ordinary read-modify-write to racecheck), with no barrier between: the
 * read comes first here, and races with the adds after it as it would
 * with those before it. */
__global__ void early_peek(float *sum, float *seen) {
  unsigned t = threadIdx.x;
  if (t == 0)
    seen[0] = sum[0];
  else
    atomicAdd(&sum[0], 0.5f);
}

int main() {
  float *sum, *seen;
  cudaMalloc(&sum, sizeof(float));
  cudaMalloc(&seen, sizeof(float));
  cudaMemset(sum, 0, sizeof(float));
  early_peek<<<1, 64>>>(sum, seen);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
