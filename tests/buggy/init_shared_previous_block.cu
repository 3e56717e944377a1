// init_shared_previous_block.cu: a deliberately buggy kernel for the checkers
// (tests/checkers.sh). Every block has shared memory of its own, empty when
// it starts, even where the emulator reuses the memory of a block that ran
// before on the same worker.
// CHECK: init
// ENV: CUEMU_CHECK_SHARED_INIT=1
// EXPECT: init uninitialised shared line 18
#include <cstdio>
#include <cuda_runtime.h>

/* Only block 0 fills the tile; every block then reads it. */
__global__ void first_block_fills(float *out) {
  __shared__ float tile[64];
  unsigned t = threadIdx.x;
  if (blockIdx.x == 0)
    tile[t] = (float)t;
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[t];
}

int main() {
  float *d;
  cudaMalloc(&d, 4 * 64 * sizeof(float));
  first_block_fills<<<4, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
