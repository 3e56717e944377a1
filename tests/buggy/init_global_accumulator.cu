// init_global_accumulator.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init uninitialised global atomic access line 13
#include <cstdio>
#include <cuda_runtime.h>

/* Counters in global memory that nobody clears: the host allocates them and
   forgets the cudaMemset, then each thread counts into one with atomicAdd.
   Trial pub23 found it in a public k-means whose cluster sizes were summed
   into cudaMalloc memory while the coordinate sums beside them were cleared. */
__global__ void count_by_remainder(const int *in, int *counts) {
  int bucket = in[threadIdx.x] % 4;
  atomicAdd(&counts[bucket], 1);
}

int main() {
  int host[32];
  for (int i = 0; i < 32; ++i)
    host[i] = i;
  int *in, *counts;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&counts, 4 * sizeof(int));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  count_by_remainder<<<1, 32>>>(in, counts);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
