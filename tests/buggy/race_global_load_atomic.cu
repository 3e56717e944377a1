// race_global_load_atomic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW atomic line 14 line 16
#include <cstdio>
#include <cuda_runtime.h>

/* The last thread reads the counter with a plain load while the other
 * threads add to it with atomicAdd, with no barrier between: a plain read
 * and an atomic of one word race (PTX's memory model), and the value read
 * depends on how many adds came first. */
__global__ void peek(int *count, int *seen) {
  unsigned t = threadIdx.x;
  if (t + 1 < blockDim.x)
    atomicAdd(&count[0], 1);
  else
    seen[0] = count[0];
}

int main() {
  int *count, *seen;
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&seen, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  peek<<<1, 64>>>(count, seen);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
