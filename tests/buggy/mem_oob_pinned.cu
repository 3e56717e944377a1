// mem_oob_pinned.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds read global line 10
#include <cstdio>
#include <cuda_runtime.h>

/* Pinned host memory mapped for the device, read past its end. */
__global__ void gather(const double *h, double *out) {
  unsigned t = threadIdx.x;
  out[t] = h[t * 2];
}

int main() {
  double *h, *d, *o;
  cudaHostAlloc(&h, 64 * sizeof(double), cudaHostAllocMapped);
  for (int i = 0; i < 64; ++i)
    h[i] = i;
  cudaHostGetDevicePointer(&d, h, 0);
  cudaMalloc(&o, 64 * sizeof(double));
  gather<<<1, 64>>>(d, o);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
