// race_shared_load_atomic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared RAW atomic line 17 line 19
#include <cstdio>
#include <cuda_runtime.h>

/* One thread reads a shared counter with a plain load while the others add
 * to it with atomicAdd, with no barrier between: the value it reads
 * depends on how many adds came first. */
__global__ void tally_peek(int *out) {
  __shared__ int total;
  unsigned t = threadIdx.x;
  if (t == 0)
    total = 0;
  __syncthreads();
  if (t != 5)
    atomicAdd(&total, 1);
  else
    out[1] = total;
  __syncthreads();
  if (t == 0)
    out[0] = total;
}

int main() {
  int *out;
  cudaMalloc(&out, 2 * sizeof(int));
  tally_peek<<<1, 64>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
