// race_global_store_atomic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAW atomic line 16 line 17
#include <cstdio>
#include <cuda_runtime.h>

/* A textbook neighbour count: thread 0 clears the counter with a plain
 * store while the block's threads count into it with atomicAdd, with no
 * barrier between. A plain access and an atomic of one word conflict in
 * PTX's memory model (only two atomics do not), so the count depends on
 * whether the clear comes first. Thread 0's own add comes after its clear
 * in program order; the other threads' adds are ordered with it by
 * nothing. */
__global__ void count_neighbours(int *nn) {
  if (threadIdx.x == 0)
    nn[0] = 0;
  atomicAdd(&nn[0], 1);
}

int main() {
  int *nn;
  cudaMalloc(&nn, sizeof(int));
  cudaMemset(nn, 0, sizeof(int));
  count_neighbours<<<1, 64>>>(nn);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
