// race_shared_user_namespace.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared RAW line 17 line 19
#include <cstdio>
#include <cuda_runtime.h>

/* A user's namespace whose name holds the shims' own namespace's name: its
 * kernel's __shared__ array is shared memory all the same (the checkers
 * skipped every thread-local variable whose name held "cuemu" or
 * "cooperative_groups", and found no race here). Each thread reads its
 * left neighbour's element without a barrier after the writes. */
namespace mycuemu_tests {
namespace cooperative_groups_demo {
__global__ void shift_left(float *out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x;
  tile[t] = (float)t * 2.0f;
  /* missing __syncthreads() */
  out[t] = t ? tile[t - 1] : 0.0f;
}
} // namespace cooperative_groups_demo
} // namespace mycuemu_tests

int main() {
  float *d;
  cudaMalloc(&d, 128 * sizeof(float));
  mycuemu_tests::cooperative_groups_demo::shift_left<<<1, 128>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
