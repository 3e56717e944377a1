// mem_oob_shared_next_array.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds index 32 __shared__ line 16
#include <cstdio>
#include <cuda_runtime.h>

/* Two static shared arrays side by side: the block has 64 threads but the
 * first array only 32 slots, so threads 32..63 index past its end, where
 * the next array (or padding) lies: a valid address, so only the array's
 * bound tells. */
__global__ void staged(const int *in, int *out) {
  __shared__ int first[32];
  __shared__ int second[32];
  unsigned t = threadIdx.x;
  second[t % 32] = 0;
  first[t] = in[t];
  __syncthreads();
  out[t] = first[t % 32] + second[t % 32];
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(in, 0, 64 * sizeof(int));
  staged<<<1, 64>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
