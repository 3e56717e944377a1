// init_global_partial_copy.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init uninitialised global line 11
#include <cstdio>
#include <cuda_runtime.h>

/* Only half of the input is copied in. */
__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i];
}

int main() {
  float host[128];
  for (int i = 0; i < 128; ++i)
    host[i] = (float)i;
  float *in, *out;
  cudaMalloc(&in, 128 * sizeof(float));
  cudaMalloc(&out, 128 * sizeof(float));
  cudaMemcpy(in, host, 64 * sizeof(float), cudaMemcpyHostToDevice);
  square<<<1, 128>>>(in, out, 128);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
