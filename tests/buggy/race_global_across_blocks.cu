// race_global_across_blocks.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW line 12 line 15
#include <cstdio>
#include <cuda_runtime.h>

/* Block b reads what block b-1 wrote; only the kernel boundary (or
 * grid.sync) would order them. */
__global__ void chain(int *partial, int *out) {
  unsigned b = blockIdx.x;
  if (threadIdx.x == 0)
    partial[b] = (int)b + 1;
  __syncthreads();
  if (threadIdx.x == 0 && b > 0)
    out[b] = partial[b - 1];
}

int main() {
  int *p, *o;
  cudaMalloc(&p, 8 * sizeof(int));
  cudaMalloc(&o, 8 * sizeof(int));
  chain<<<8, 32>>>(p, o);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
