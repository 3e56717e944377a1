// mem_misaligned.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem misaligned read line 10
#include <cstdio>
#include <cuda_runtime.h>

/* Reads ints at byte offsets that are not multiples of 4. */
__global__ void unpack(const char *bytes, int *out) {
  unsigned t = threadIdx.x;
  out[t] = *reinterpret_cast<const int *>(bytes + 1 + 4 * t);
}

int main() {
  char *b;
  int *o;
  cudaMalloc(&b, 4 * 33);
  cudaMalloc(&o, 32 * sizeof(int));
  cudaMemset(b, 0, 4 * 33);
  unpack<<<1, 32>>>(b, o);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
