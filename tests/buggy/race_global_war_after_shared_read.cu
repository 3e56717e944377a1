// race_global_war_after_shared_read.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAR allocated line 16 line 18 line 26
#include <cstdio>
#include <cuda_runtime.h>

/* Every block reads one word of global memory (a vector all of them
 * read, as in a matrix-vector product); then thread 0 of block 3
 * overwrites it, unordered with the other blocks' reads. The reads of the
 * blocks after the first are decided without a call into libcuemu
 * (cuemu_check_fast_read_kept): the first block's read must stay the
 * recorded one, so that the write, by a thread that read the word itself,
 * still meets a reader it races with. */
__global__ void scale_by_first(const int *in, int *x, int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int first = x[0];
  if (blockIdx.x == 3 && threadIdx.x == 0)
    x[0] = first + 1;
  out[i] = in[i] * first;
}

int main() {
  const int n = 8 * 64;
  int *in, *x, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&x, sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemset(in, 0, n * sizeof(int));
  cudaMemset(x, 0, sizeof(int));
  scale_by_first<<<8, 64>>>(in, x, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
