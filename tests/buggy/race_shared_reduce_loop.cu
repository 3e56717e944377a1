// race_shared_reduce_loop.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared line 15
#include <cstdio>
#include <cuda_runtime.h>

/* The classic tree reduction with the barrier inside the loop forgotten. */
__global__ void reduce_no_sync(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    /* missing __syncthreads() */
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 512 * sizeof(float));
  cudaMalloc(&out, 2 * sizeof(float));
  cudaMemset(in, 0, 512 * sizeof(float));
  reduce_no_sync<<<2, 256>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
