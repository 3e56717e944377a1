// race_schedule_blocks.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// ENV: CUEMU_CHECK_SCHEDULES=1
// EXPECT: race schedule perturbation forward reverse line 34
#include <cstdio>
#include <cuda_runtime.h>

/* Each block halves its own part of the weights; then block 0's first
 * thread adds up all of them, the other blocks' parts included, without
 * waiting for those blocks. Within a block the order of the threads does
 * not matter (a barrier separates the halving from the sum), so only the
 * order of the blocks changes the total: schedule perturbation's second
 * run takes the blocks last first, and the totals differ. */
__global__ void halve_then_total(int *weights, int *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    weights[i] /= 2;
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int sum = 0;
    for (int j = 0; j < n; ++j)
      sum += weights[j];
    *total = sum;
  }
}

int main() {
  const int n = 256;
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = 2 * i;
  int *weights, *total;
  cudaMalloc(&weights, n * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  cudaMemcpy(weights, host, sizeof host, cudaMemcpyHostToDevice);
  halve_then_total<<<4, 64>>>(weights, total, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
