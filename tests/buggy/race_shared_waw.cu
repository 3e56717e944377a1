// race_shared_waw.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAW line 10
#include <cstdio>
#include <cuda_runtime.h>

/* Every thread writes the same flag word. */
__global__ void last_writer_wins(int *out) {
  __shared__ int winner;
  winner = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = winner;
}

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  last_writer_wins<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
