// race_global_wide_read.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW +12 line 20 line 21
#include <cstdio>
#include <cuda_runtime.h>

/* An 8-byte read covers two 4-byte words of racecheck's records: the first
 * was written before the barrier, the second (byte 12 of the array) by
 * another thread after it, unordered with the read. The report names the
 * second word's first byte. */
struct pair {
  int key, value;
};

__global__ void publish(pair *slots, long long *out) {
  unsigned t = threadIdx.x;
  if (t == 0)
    slots[1].key = 7;
  __syncthreads();
  if (t == 0) slots[1].value = 42;
  if (t == 1) out[0] = *reinterpret_cast<long long *>(&slots[1]);
}

int main() {
  pair *slots;
  long long *out;
  cudaMalloc(&slots, 4 * sizeof(pair));
  cudaMalloc(&out, sizeof(long long));
  publish<<<1, 32>>>(slots, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
