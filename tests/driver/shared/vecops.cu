// vecops.cu: libvecops.so (tests/driver.sh builds it with
// `-shared -Xcompiler -fPIC`, and with `-c` then `-shared`).
#include <cuda_runtime.h>

#include "vecops.cuh"

__constant__ float scale_factor;
__device__ float sum_result;
__device__ int launch_count;

__global__ void vec_scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= scale_factor;
  if (i == 0)
    atomicAdd(&launch_count, 1);
}

__global__ void vec_reduce(const float *x, int n) {
  __shared__ float partial[128];
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += x[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    sum_result = partial[0];
    atomicAdd(&launch_count, 1);
  }
}

void vec_set_factor(float factor) {
  cudaMemcpyToSymbol(scale_factor, &factor, sizeof factor);
}

float vec_sum(const float *x, int n) {
  vec_reduce<<<1, 128>>>(x, n);
  float s = 0.0f;
  cudaMemcpyFromSymbol(&s, sum_result, sizeof s);
  return s;
}

int vec_launches() {
  int count = 0;
  cudaMemcpyFromSymbol(&count, launch_count, sizeof count);
  return count;
}
