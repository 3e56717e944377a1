// mem_use_after_free.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem use after cudaFree line 8
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *a, float s) {
  a[threadIdx.x] *= s;
}

int main() {
  float *d;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemset(d, 0, 32 * sizeof(float));
  cudaFree(d);
  /* The buffer was freed above. */
  scale<<<1, 32>>>(d, 2.0f);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
