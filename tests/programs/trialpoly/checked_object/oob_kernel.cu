/* oob_kernel.cu: a deliberately buggy kernel, compiled alone with
 * --check=mem -c and linked by the host compiler or by cuemu-nvcc without
 * --check (tests/programs_trialpoly.sh): the checker must still report the
 * write past the end. */
#include <cstdio>
#include <cuda_runtime.h>

/* The bounds test is off by one. */
__global__ void fill_past_end(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    a[i] = i;
}

int run_fill(void) {
  int *d;
  cudaMalloc(&d, 100 * sizeof(int));
  fill_past_end<<<1, 128>>>(d, 100);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  cudaFree(d);
  return e == cudaSuccess ? 0 : 1;
}
