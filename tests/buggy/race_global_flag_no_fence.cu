// race_global_flag_no_fence.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW line 15 line 20
#include <cstdio>
#include <cuda_runtime.h>

/* Block 1 writes the data and raises a volatile flag that block 0 polls,
 * with no __threadfence() between the two stores: block 0 may see the flag
 * and still read the old data. (Two volatile accesses of the flag never
 * race; the data's write is what nothing orders.) */
__global__ void handoff(volatile int *flag, int *data, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 1) {
    data[0] = 42;
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    out[0] = data[0];
  }
}

int main() {
  int *flag, *data, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  cudaMalloc(&data, sizeof(int));
  cudaMalloc(&out, sizeof(int));
  handoff<<<2, 32>>>(flag, data, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
