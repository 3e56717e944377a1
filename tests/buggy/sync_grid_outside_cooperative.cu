// sync_grid_outside_cooperative.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: sync
// EXPECT: sync cooperative line 14
#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

/* grid.sync() in a kernel launched with <<<>>>, not cooperatively. */
__global__ void two_phase(int *a) {
  cg::grid_group g = cg::this_grid();
  a[g.thread_rank()] = 1;
  g.sync();
  a[g.thread_rank()] += 1;
}

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  two_phase<<<2, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
