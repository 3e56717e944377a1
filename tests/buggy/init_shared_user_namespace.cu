// init_shared_user_namespace.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// ENV: CUEMU_CHECK_SHARED_INIT=1
// EXPECT: init uninitialised shared line 20
#include <cstdio>
#include <cuda_runtime.h>

/* A kernel in a user's namespace named like the shims' own
 * (cooperative_groups_demo): initcheck took its __shared__ array for the
 * shims' thread-local storage and saw no read of unwritten shared memory.
 * Only the first half of the tile is written before everyone reads. */
namespace cooperative_groups_demo {
template <typename T> __global__ void half_filled(T *out) {
  __shared__ T tile[64];
  unsigned t = threadIdx.x;
  if (t < 32)
    tile[t] = (T)t;
  __syncthreads();
  /* The read of tile[32..63], never written. */
  out[t] = tile[t] * 2;
}
} // namespace cooperative_groups_demo

int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  cooperative_groups_demo::half_filled<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
