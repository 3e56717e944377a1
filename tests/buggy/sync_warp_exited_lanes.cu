// sync_warp_exited_lanes.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: sync
// EXPECT: sync exited line 12
#include <cstdio>
#include <cuda_runtime.h>

/* Lanes 24..31 return, then the warp shuffles with a full mask. */
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
