// race_shared_fence_no_observer.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAW line 19 line 23
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned int ready[2];

/* A chained carry, as in a domino-style single-pass scan: thread 0 of
 * block 1 waits for block 0's flag, stores the carry in shared memory,
 * fences and raises its own flag; the other threads take the else branch
 * and clear the carry. Nothing orders the clearing writes with thread 0's:
 * the fence orders nothing for threads that never poll a flag after it. */
__global__ void carry_chain(float *out) {
  __shared__ float carry;
  if (threadIdx.x == 0 && blockIdx.x > 0) {
    while (atomicAdd(&ready[blockIdx.x - 1], 0) == 0) {
    }
    carry = 5.0f;
    __threadfence();
    atomicAdd(&ready[blockIdx.x], 1);
  } else {
    carry = 0.0f;
  }
  if (threadIdx.x == 0 && blockIdx.x == 0)
    atomicAdd(&ready[0], 1);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = carry;
}

int main() {
  float *out;
  cudaMalloc(&out, 2 * sizeof(float));
  carry_chain<<<2, 32>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
