// mem_oob_shared_dynamic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds shared line 11
#include <cstdio>
#include <cuda_runtime.h>

/* The launch gives less dynamic shared memory than the kernel uses. */
__global__ void needs_more(int *out) {
  extern __shared__ int buf[];
  unsigned t = threadIdx.x;
  buf[2 * t] = (int)t;
  __syncthreads();
  out[t] = buf[t];
}

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  needs_more<<<1, 64, 64 * sizeof(int)>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
