// mem_oob_neighbour_write.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds write global line 15 neighbour-intact
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

/* Two allocations that fill their pages exactly, made one after the other:
 * the kernel's bounds test is off by one, so thread n writes just past the
 * end of the lower one, where the other may begin. The report must come
 * before the write, and the neighbour must keep its bytes. */
__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    a[i] = 7;
}

int main() {
  const int n = 1024;
  int *x, *y;
  cudaMallocManaged(&x, n * sizeof(int));
  cudaMallocManaged(&y, n * sizeof(int));
  for (int i = 0; i < n; ++i)
    x[i] = y[i] = 0;
  int *lo = (uintptr_t)x < (uintptr_t)y ? x : y;
  int *hi = lo == x ? y : x;
  fill<<<(n + 128) / 128, 128>>>(lo, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  /* Managed memory stays readable from the host after the launch failed. */
  int changed = 0;
  for (int i = 0; i < n; ++i)
    changed += hi[i] != 0;
  printf("%s (%d of %d ints changed)\n",
         changed ? "neighbour-changed" : "neighbour-intact", changed, n);
  return 0;
}
