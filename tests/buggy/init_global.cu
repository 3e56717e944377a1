// init_global.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init uninitialised global line 9
#include <cstdio>
#include <cuda_runtime.h>

/* The input is allocated but never copied to. */
__global__ void add_one(const int *in, int *out) {
  out[threadIdx.x] = in[threadIdx.x] + 1;
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  add_one<<<1, 32>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
