#include "api.h"

LIB_API int lib_launches = 0;

__global__ void squares(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, i * i);
}

/* An exported host function of a .cu file: its definition exists only in
 * nvcc's host code. */
int lib_sum_squares(int n) {
  int *d = nullptr, h = -1;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  squares<<<(n + 63) / 64, 64>>>(d, n);
  ++lib_launches;
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h;
}
