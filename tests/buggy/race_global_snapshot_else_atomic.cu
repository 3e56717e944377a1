// race_global_snapshot_else_atomic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAR atomic line 17 line 20
#include <cstdio>
#include <cuda_runtime.h>

/* race_global_read_fence_atomic.cu with the adds in the else branch of the
 * snapshot: at -O2 g++ moves the snapshot's load so that it loses its
 * source location, and its instrumentation call, laid out right after the
 * atomicAdd's misaligned-address test, took that test's line in the shims;
 * the race was then dropped as the shims' own access. The checked build
 * now gives such a call the line of the statement that uses the value
 * read (cuemu_gcc_plugin_check.cc). */
__global__ void snapshot_else_add(int *count, int *seen) {
  unsigned t = threadIdx.x;
  if (t == 0) {
    seen[0] = count[0];
    __threadfence();
  } else {
    atomicAdd(&count[0], 1);
  }
}

int main() {
  int *count, *seen;
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&seen, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  snapshot_else_add<<<1, 64>>>(count, seen);
  cudaError_t e = cudaDeviceSynchronize();
  printf("snapshot_else_add: %s\n", cudaGetErrorName(e));
  cudaFree(count);
  cudaFree(seen);
  return 0;
}
