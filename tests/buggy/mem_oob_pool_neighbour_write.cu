// mem_oob_pool_neighbour_write.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds write global line 16
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

/* Two stream-ordered allocations from the device's memory pool, made one
 * after the other, each filling its pages: the kernel's bounds test is off
 * by one, so thread n writes just past the end of the lower one, where the
 * other may begin. It must be reported as out of bounds of the lower one
 * (and so not made), not taken for a write to its neighbour. */
__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    a[i] = 7;
}

int main() {
  const int n = 1024;
  cudaStream_t s;
  cudaStreamCreate(&s);
  int *x, *y;
  cudaMallocAsync(&x, n * sizeof(int), s);
  cudaMallocAsync(&y, n * sizeof(int), s);
  int *lo = (uintptr_t)x < (uintptr_t)y ? x : y;
  fill<<<(n + 128) / 128, 128, 0, s>>>(lo, n);
  printf("%s\n", cudaGetErrorName(cudaStreamSynchronize(s)));
  return 0;
}
