// race_shared_dynamic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared RAW line 11 line 12
#include <cstdio>
#include <cuda_runtime.h>

/* The same missing barrier, in dynamic shared memory. */
__global__ void dyn_shift(int *out) {
  extern __shared__ int buf[];
  unsigned t = threadIdx.x;
  buf[t] = (int)t;
  out[t] = t ? buf[t - 1] : 0;
}

int main() {
  int *d;
  cudaMalloc(&d, 96 * sizeof(int));
  dyn_shift<<<1, 96, 96 * sizeof(int)>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
