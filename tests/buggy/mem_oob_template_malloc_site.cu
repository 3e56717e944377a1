// mem_oob_template_malloc_site.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds write global allocated line 13 line 19
#include <cstdio>
#include <cuda_runtime.h>

/* The bounds test is off by one; the report names the line of the
 * template cudaMalloc (a shim that calls the one of void **), not a line
 * of the shims. */
__global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    a[i] = 1.0f;
}

int main() {
  float *d;
  /* A typed pointer: the template cudaMalloc. */
  cudaMalloc(&d, 64 * sizeof(float));
  fill<<<1, 96>>>(d, 64);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
