// mem_oob_warp_code.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds read global line 16
#include <cstdio>
#include <cuda_runtime.h>

/* A warp sum whose loads run one warp past the input: the last warp of
 * the grid reads past the end before its lanes shuffle. */
__inline__ __device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}
__global__ void sums(const float *in, float *out) {
  unsigned lane = threadIdx.x % 32, warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float v = in[(warp + 1) * 32 + lane];
  v = warp_sum(v);
  if (lane == 0)
    out[warp] = v;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 128 * sizeof(float));
  cudaMalloc(&out, 4 * sizeof(float));
  cudaMemset(in, 0, 128 * sizeof(float));
  sums<<<1, 128>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
