// init_global_hot_gap.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// The unwritten word is read after many written ones of the same
// allocations, so the checked code's inline test (the allocation touched
// last, its "written" map: emulator/compile/cuemu_gcc_plugin_check.cc) is
// what must send it to the whole check.
// CHECK: init
// EXPECT: init uninitialised global line 23
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kWords = 256;
constexpr int kHole = 201;

/* One thread writes every word of `buf` but one, copies each written word
 * to `out` (two arrays in turn), then sums them all: the last loop reads
 * the hole. */
__global__ void fill_then_sum(unsigned *buf, unsigned *out) {
  for (int i = 0; i < kWords; ++i)
    if (i != kHole)
      buf[i] = 3u * i;
  unsigned sum = 0;
  for (int i = 0; i < kWords; ++i) {
    sum += buf[i];
    out[i] = sum;
  }
}

int main() {
  unsigned *buf, *out;
  cudaMalloc(&buf, kWords * sizeof(unsigned));
  cudaMalloc(&out, kWords * sizeof(unsigned));
  fill_then_sum<<<1, 1>>>(buf, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
