// race_shared_store_atomic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAW atomic line 17 line 19
#include <cstdio>
#include <cuda_runtime.h>

/* A shared counter that one thread overwrites with a plain store while the
 * others add to it with atomicAdd, with no barrier between: the plain
 * store and the atomics race, in shared memory as in global memory. */
__global__ void tally(int *out) {
  __shared__ int total;
  unsigned t = threadIdx.x;
  if (t == 0)
    total = 0;
  __syncthreads();
  if (t == 5)
    total = 100;
  else
    atomicAdd(&total, 1);
  __syncthreads();
  if (t == 0)
    out[0] = total;
}

int main() {
  int *out;
  cudaMalloc(&out, sizeof(int));
  tally<<<1, 64>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
