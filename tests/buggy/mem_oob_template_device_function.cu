// mem_oob_template_device_function.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem out-of-bounds read global line 12
#include <cstdio>
#include <cuda_runtime.h>

/* The out-of-bounds read is in a __device__ function template. */
template <int R>
__device__ float window_sum(const float *x, int i) {
  float s = 0.0f;
  for (int k = -R; k <= R; ++k)
    s += x[i + k];
  return s;
}
__global__ void blur(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = window_sum<2>(x, i);
}

int main() {
  float *x, *y;
  cudaMalloc(&x, 256 * sizeof(float));
  cudaMalloc(&y, 256 * sizeof(float));
  cudaMemset(x, 0, 256 * sizeof(float));
  blur<<<2, 128>>>(x, y, 256);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
