// init_tex_linear_unwritten.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init tex1Dfetch uninitialised line 12
#include <cstdio>
#include <cuda_runtime.h>

/* tex1Dfetch over cudaMalloc memory that nothing wrote: the program copies
 * its input into another buffer than the one the texture reads. */
__global__ void scale(cudaTextureObject_t tex, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * tex1Dfetch<float>(tex, i);
}

int main() {
  const int n = 64;
  float host[n];
  for (int i = 0; i < n; ++i)
    host[i] = (float)i;
  float *in, *other, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&other, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(other, host, sizeof host, cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = in;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, NULL);
  scale<<<1, n>>>(tex, out, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
