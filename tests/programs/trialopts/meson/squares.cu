#include "squares.h"

__global__ void squares(int *out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n)
    out[i] = i * i;
}

extern "C" int squares_on_device(int *host, int n) {
  int *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
    return -1;
  squares<<<(n + 31) / 32, 32>>>(d, n);
  cudaError_t e = cudaMemcpy(host, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return e == cudaSuccess ? 0 : -1;
}
