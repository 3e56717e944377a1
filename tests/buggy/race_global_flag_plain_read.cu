// race_global_flag_plain_read.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW line 17 line 21
#include <cstdio>
#include <cuda_runtime.h>

/* Block 1 raises a flag through a volatile pointer after a fence; block 0
 * first polls it the same way, then reads it once more through a plain
 * pointer: a plain access and a volatile one of the same location in two
 * blocks, with nothing between them but the fence that the flag itself
 * comes after, race (only two volatile, or atomic, accesses do not). */
__global__ void handoff(volatile int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 1) {
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    out[0] = *(const int *)flag;
  }
}

int main() {
  int *flag, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  cudaMalloc(&out, sizeof(int));
  handoff<<<2, 32>>>(flag, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
