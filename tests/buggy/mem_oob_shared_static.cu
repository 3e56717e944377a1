// mem_oob_shared_static.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds shared line 11
#include <cstdio>
#include <cuda_runtime.h>

/* A static shared array indexed one past its end. */
__global__ void halo(float *out) {
  __shared__ float tile[32];
  unsigned t = threadIdx.x;
  tile[t + 1] = (float)t;
  __syncthreads();
  out[t] = tile[t];
}

int main() {
  float *d;
  cudaMalloc(&d, 32 * sizeof(float));
  halo<<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
