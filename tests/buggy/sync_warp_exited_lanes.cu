// sync_warp_exited_lanes.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: sync
// EXPECT: sync exited cudaSuccess line 14
#include <cstdio>
#include <cuda_runtime.h>

/* Lanes 24..31 return, then the warp shuffles with a full mask: lane 23
 * reads lane 24, which has exited (undefined on a GPU, where the kernel
 * completes: the report is made and the launch goes on). */
__global__ void partial_shuffle(int *out) {
  unsigned t = threadIdx.x;
  if (t >= 24)
    return;
  int v = __shfl_down_sync(0xffffffffu, (int)t, 1);
  out[t] = v;
}

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  partial_shuffle<<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
