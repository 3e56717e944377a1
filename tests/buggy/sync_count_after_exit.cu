// sync_count_after_exit.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: sync
// EXPECT: sync synccheck __syncthreads_count line 13
#include <cstdio>
#include <cuda_runtime.h>

/* Threads past n return early, then the block counts votes as if every
 * thread were there. */
__global__ void vote(const int *flags, int *count, int n) {
  unsigned t = threadIdx.x;
  if ((int)t >= n)
    return;
  int c = __syncthreads_count(flags[t] != 0);
  if (t == 0)
    *count = c;
}

int main() {
  int host[64] = {0};
  int *f, *c;
  cudaMalloc(&f, 64 * sizeof(int));
  cudaMalloc(&c, sizeof(int));
  cudaMemcpy(f, host, sizeof host, cudaMemcpyHostToDevice);
  vote<<<1, 64>>>(f, c, 40);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
