#include "kernels.cuh"
__global__ void init_kernel(int *p, int n, int base) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = base + i;
}
__global__ void add_kernel(int *dst, const int *a, const int *b, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    dst[i] = a[i] + b[i];
}
__global__ void check_kernel(const int *p, int n, int base, int *errors) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (p[i] != base + i) atomicAdd(errors, 1);
}
