// mem_misaligned_heap.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem misaligned write device heap line 16
#include <cstdio>
#include <cuda_runtime.h>

/* Each thread packs a 2-byte tag and a 4-byte count into a record of its
 * own, allocated with malloc in the kernel, and stores the count right
 * after the tag: at an address that is 2 mod 4, inside the record. A GPU
 * stops at such a store (misaligned address). */
__global__ void pack(int *out, int n) {
  unsigned t = threadIdx.x;
  char *record = static_cast<char *>(malloc(8));
  *reinterpret_cast<short *>(record) = (short)t;
  if ((int)t < n)
    *reinterpret_cast<int *>(record + 2) = n;
  out[t] = record[0];
  free(record);
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  pack<<<1, 32>>>(out, 32);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  cudaFree(out);
  return 0;
}
