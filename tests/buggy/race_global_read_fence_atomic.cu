// race_global_read_fence_atomic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAR atomic line 17 line 21
#include <cstdio>
#include <cuda_runtime.h>

/* Thread 0 takes a snapshot of a counter with a plain load and then
 * fences, while the odd threads add to the counter with atomicAdd, with
 * no barrier between. The fence orders nothing here: thread 0 writes no
 * flag after it that the adders wait for, so the snapshot may or may not
 * include their adds (PTX's memory model: a plain read and an atomic of one
 * word, not ordered by causality, are a data race). The adders' own atomic
 * reads of the counter do not order them after the fence. */
__global__ void snapshot(int *count, int *seen) {
  unsigned t = threadIdx.x;
  if (t == 0) {
    seen[0] = count[0];
    __threadfence();
  }
  if (t % 2 == 1)
    atomicAdd(&count[0], 1);
}

int main() {
  int *count, *seen;
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&seen, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  snapshot<<<1, 64>>>(count, seen);
  cudaError_t e = cudaDeviceSynchronize();
  printf("snapshot: %s\n", cudaGetErrorName(e));
  cudaFree(count);
  cudaFree(seen);
  return 0;
}
