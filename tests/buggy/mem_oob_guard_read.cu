// mem_oob_guard_read.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds read global line 15
#include <cstdio>
#include <cuda_runtime.h>

/* Gathers row `row` of a table of 16 rows of 1024 floats (64 KiB, whole
 * pages); the host asks for row 17, an off-by-two: the first read is 4 KiB
 * past the end, beyond the bytes right after the table, where cuemu maps
 * the table's guard, so the read finds zeros there as it would find
 * whatever a GPU maps there. compute-sanitizer reports it; so must
 * memcheck, though no allocation lies near the address. */
__global__ void gather(const float *table, int row, int width, float *out) {
  int j = threadIdx.x;
  if (j < width) out[j] = table[row * width + j];
}

int main() {
  const int rows = 16, width = 1024;
  float *table, *out;
  cudaMalloc(&table, rows * width * sizeof(float));
  cudaMalloc(&out, width * sizeof(float));
  cudaMemset(table, 0, rows * width * sizeof(float));
  gather<<<1, 256>>>(table, rows + 1, width, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
