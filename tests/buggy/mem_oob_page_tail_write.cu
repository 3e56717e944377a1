// mem_oob_page_tail_write.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds write global line 14
#include <cstdio>
#include <cuda_runtime.h>

/* Scatters `count` values from position `offset` of a buffer of 100 ints;
 * the caller passes an offset meant for a larger buffer, 2000 bytes into a
 * 400-byte one. The writes land in the rest of the buffer's last page,
 * which is mapped and belongs to no allocation: nothing faults, on cuemu
 * as on a GPU, and compute-sanitizer reports the write. */
__global__ void scatter(int *a, int offset, int count) {
  int i = threadIdx.x;
  if (i < count) a[offset + i] = i;
}

int main() {
  int *a;
  cudaMalloc(&a, 100 * sizeof(int));
  scatter<<<1, 32>>>(a, 500, 32);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
