// race_shared_war_after_broadcast.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAR line 18 line 20
#include <cstdio>
#include <cuda_runtime.h>

/* Every thread reads the tile's first word (a broadcast); then the last
 * thread overwrites it with no barrier between: the other threads' reads
 * race with that write. The read of each thread after the first is
 * decided without a call into libcuemu (cuemu_check_fast_read_kept): the
 * first reader's record must stay, so that the write, by a thread that
 * read the word itself, still meets a reader it races with. */
__global__ void bump_first(int *out) {
  __shared__ int tile[32];
  if (threadIdx.x == 0)
    tile[0] = 7;
  __syncthreads();
  int v = tile[0];
  if (threadIdx.x == 31)
    tile[0] = v + 1;
  out[threadIdx.x] = v;
}

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  bump_first<<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
