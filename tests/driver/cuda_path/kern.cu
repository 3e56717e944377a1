// kern.cu: the kernel, and the host function that launches it.
#include "kern.cuh"
__global__ void square_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = square(x[i]);
}
cudaError_t square_all(float *x, int n) {
  square_kernel<<<(n + 255) / 256, 256>>>(x, n);
  return cudaDeviceSynchronize();
}
