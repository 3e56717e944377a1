// sort.cu: an odd-even transposition sort of one block.
// NVCC_OPTIONS: -I../include
#include "kern.h"

__global__ void odd_even_sort(int* keys, int n) {
  for (int phase = 0; phase < n; ++phase) {
    int i = 2 * threadIdx.x + (phase & 1);
    if (i + 1 < n && keys[i] > keys[i + 1]) {
      int t = keys[i];
      keys[i] = keys[i + 1];
      keys[i + 1] = t;
    }
    __syncthreads();
  }
}

cudaError_t kern::sort_small(int* d_keys, int n) {
  if (n > 2048) return cudaErrorInvalidValue;
  odd_even_sort<<<1, (n + 1) / 2>>>(d_keys, n);
  return cudaDeviceSynchronize();
}
