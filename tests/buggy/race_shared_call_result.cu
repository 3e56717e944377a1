// race_shared_call_result.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared line 22 line 21
#include <cstdio>
#include <cuda_runtime.h>

/* A vec3 returned in registers by a call that is not inlined, stored
 * straight into shared memory: g++'s instrumentation does not see the
 * store of a call's result, so the write that races was lost. Either
 * direction is the race: clang++ copies the result with memcpy, which the
 * lockstep steps like a store (the warp's stores, then its loads: RAW, as
 * on a GPU); g++'s lanes run in turn (WAR). */
struct vec3 {
  float x, y, z;
};
__device__ __noinline__ vec3 shade(unsigned t) { return vec3{(float)t, 1.0f, 2.0f}; }

__global__ void neighbours(float *out) {
  __shared__ vec3 row[64];
  unsigned t = threadIdx.x;
  row[t] = shade(t);
  out[t] = row[t ^ 1u].x; /* no __syncthreads() */
}

int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  neighbours<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
