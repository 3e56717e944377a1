// race_thrust_vector_alloc.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global allocated line 14 line 22
#include <cstdio>
#include <cuda_runtime.h>
#include <thrust/device_vector.h>

/* Block b reads what block b-1 wrote, in memory of a device_vector; the
 * report names the line that made the vector (Thrust's allocator makes
 * its memory), not a line of Thrust or of the shims. */
__global__ void chain(int *partial) {
  unsigned b = blockIdx.x;
  if (threadIdx.x == 0)
    partial[b] = (int)b + 1;
  __syncthreads();
  if (threadIdx.x == 0 && b > 0)
    partial[8 + b] = partial[b - 1];
}

int main() {
  /* Never freed: after the failed launch, its destructor's free would throw. */
  auto *v = new thrust::device_vector<int>(16);
  chain<<<8, 32>>>(thrust::raw_pointer_cast(v->data()));
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
