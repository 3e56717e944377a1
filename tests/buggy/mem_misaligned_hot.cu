// mem_misaligned_hot.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// The misaligned read comes after aligned ones of the same allocation, so
// the checked code's inline test (the allocation touched last:
// emulator/compile/cuemu_gcc_plugin_check.cc) is what must send it to the
// whole check.
// CHECK: mem
// EXPECT: mem misaligned read line 19
#include <cstdio>
#include <cuda_runtime.h>

/* Each thread sums the aligned words of its slice of `bytes`, then reads
 * one word one byte further on. */
__global__ void sum_slices(const char *bytes, unsigned *out) {
  unsigned t = threadIdx.x;
  const unsigned *words = reinterpret_cast<const unsigned *>(bytes) + 8 * t;
  unsigned sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += words[i];
  sum += *reinterpret_cast<const unsigned *>(bytes + 32 * t + 5);
  out[t] = sum;
}

int main() {
  char *b;
  unsigned *o;
  cudaMalloc(&b, 32 * 32 + 8);
  cudaMalloc(&o, 32 * sizeof(unsigned));
  cudaMemset(b, 0, 32 * 32 + 8);
  sum_slices<<<1, 32>>>(b, o);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
