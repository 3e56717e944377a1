// mem_oob_local_array.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds index 8 local line 16
#include <cstdio>
#include <cuda_runtime.h>

/* Each thread keeps a small window in a local array; the window's index
 * runs one past its end for the ninth thread of every block. */
__global__ void windows(const float *in, float *out) {
  float window[8];
  unsigned t = threadIdx.x;
  for (int k = 0; k < 8; ++k)
    window[k] = in[blockIdx.x * blockDim.x + k];
  float sum = 0;
  unsigned slot = t % 9;
  window[slot] = in[blockIdx.x * blockDim.x + t];
  for (int k = 0; k < 8; ++k)
    sum += window[k];
  out[blockIdx.x * blockDim.x + t] = sum;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMemset(in, 0, 64 * sizeof(float));
  windows<<<2, 32>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
