// race_shared_read_seqcst_atomic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAR atomic line 23 line 26
#include <cstdio>
#include <cuda/std/atomic>
#include <cuda_runtime.h>

/* A block histogram in shared memory, filled with atomic_ref::fetch_add
 * (sequentially consistent), whose first threads then add their bin to the
 * global histogram, without the __syncthreads() that must come between:
 * thread 0 reads its bin with a plain load while later threads are still
 * adding to it. The sequentially consistent add that follows the read (a
 * fence.sc and an atomic on a GPU) orders the read before nothing the
 * other threads do: they observe no write of thread 0's made after it. */
__global__ void histogram(const int *bins, int *hist) {
  __shared__ int local[4];
  unsigned t = threadIdx.x;
  if (t < 4)
    local[t] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  cuda::std::atomic_ref<int> bin(local[bins[i]]);
  bin.fetch_add(1);
  if (t < 4) {
    cuda::std::atomic_ref<int> total(hist[t]);
    total.fetch_add(local[t]);
  }
}

int main() {
  const int n = 128;
  int h[n];
  for (int i = 0; i < n; ++i)
    h[i] = i % 4;
  int *bins, *hist;
  cudaMalloc(&bins, sizeof h);
  cudaMalloc(&hist, 4 * sizeof(int));
  cudaMemcpy(bins, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(hist, 0, 4 * sizeof(int));
  histogram<<<2, 64>>>(bins, hist);
  int r[4];
  cudaMemcpy(r, hist, sizeof r, cudaMemcpyDeviceToHost);
  printf("histogram: %d %d %d %d\n", r[0], r[1], r[2], r[3]);
  cudaFree(bins);
  cudaFree(hist);
  return 0;
}
