// race_global_byte_in_word.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAW +6 line 16 line 18
#include <cstdio>
#include <cuda_runtime.h>

/* Racecheck keeps one record per 4-byte word of global memory while the
 * word is accessed whole, and one per byte once a narrower access comes:
 * thread 0 stores word 1 of the status array whole, thread 1 then sets one
 * byte of the same word (byte 6 of the array) with no barrier in between.
 * The report names that byte and both lines. */
__global__ void mark(unsigned *status, const unsigned char *flags) {
  unsigned t = threadIdx.x;
  unsigned char *bytes = reinterpret_cast<unsigned char *>(status);
  if (t == 0)
    status[1] = 0x01010101u;
  if (t == 1 && flags[t])
    bytes[6] = 0;
}

int main() {
  unsigned *status;
  unsigned char *flags;
  cudaMalloc(&status, 16 * sizeof(unsigned));
  cudaMalloc(&flags, 32);
  cudaMemset(flags, 1, 32);
  mark<<<1, 32>>>(status, flags);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
