// mem_oob_slab_neighbour_write.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// ENV: CUEMU_MAX_MAP_COUNT=800
// EXPECT: mem out-of-bounds write global line 17 neighbour-intact
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

/* Past the budget of guarded allocations (100 with CUEMU_MAX_MAP_COUNT at
 * 800), small allocations are pieces of one shared slab, one after the
 * other. The kernel's bounds test is off by one, so thread n writes just
 * past the end of a 256-byte piece. The report must name it as out of
 * bounds (not as a write to the next piece), and the next piece must keep
 * its bytes. */
__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = 7;
}

int main() {
  const int n = 64; /* 256 bytes */
  int *p[200];
  for (int i = 0; i < 200; ++i) {
    cudaMallocManaged(&p[i], n * sizeof(int));
    for (int k = 0; k < n; ++k)
      p[i][k] = 0;
  }
  /* The two pieces nearest each other above the budget. */
  int *lo = p[150], *hi = p[151];
  if ((uintptr_t)hi < (uintptr_t)lo) {
    int *t = lo;
    lo = hi;
    hi = t;
  }
  fill<<<1, 128>>>(lo, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  /* Managed memory stays readable from the host after the launch failed. */
  int changed = 0;
  for (int i = 0; i < n; ++i)
    changed += hi[i] != 0;
  printf("%s (%d of %d ints changed; %ld bytes apart)\n",
         changed ? "neighbour-changed" : "neighbour-intact", changed, n,
         (long)((char *)hi - (char *)lo));
  return 0;
}
