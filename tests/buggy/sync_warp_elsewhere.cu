// sync_warp_elsewhere.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: sync
// EXPECT: sync line 12 line 14
#include <cstdio>
#include <cuda_runtime.h>

/* Two halves of a warp wait at different collectives (a shuffle and a
 * vote), each naming the whole warp. */
__global__ void two_ballots(unsigned *out) {
  unsigned t = threadIdx.x;
  if (t < 16)
    out[t] = __shfl_sync(0xffffffffu, t, 0);
  else
    out[t] = __ballot_sync(0xffffffffu, 0);
}

int main() {
  unsigned *d;
  cudaMalloc(&d, 32 * sizeof(unsigned));
  two_ballots<<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
