// launch_before_main.cu: kernels launched from the constructor of a global
// object, which C++ runs before main and before the translation unit's own
// registration of its kernels (its last static initializer): a plain kernel
// with static shared memory and a kernel template's instance, each launched
// again from main. Both launches of each must run the kernel (the host pass
// then launches it through a descriptor of its own: cuemu_kernel_thunks.h,
// __cuemu_unmatched_desc).
#include <cstdio>
#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void reverse64(int *p) {
  __shared__ int s[64];
  s[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = s[63 - threadIdx.x];
}

template <typename T> __global__ void ramp(T *p, T first) {
  p[threadIdx.x] = first + static_cast<T>(threadIdx.x);
}


/* What the constructor saw, checked in main. */
struct early_launches {
  int reversed = -1, ramped = -1;
  cudaError_t first = cudaErrorUnknown, second = cudaErrorUnknown;
  early_launches() {
    int *p = nullptr;
    if (cudaMallocManaged(&p, 64 * sizeof(int)) != cudaSuccess)
      return;
    for (int i = 0; i < 64; ++i)
      p[i] = i;
    reverse64<<<1, 64>>>(p);
    first = cudaDeviceSynchronize();
    reversed = p[0];
    ramp<<<1, 32>>>(p, 5);
    second = cudaDeviceSynchronize();
    ramped = p[31];
    cudaFree(p);
  }
};
early_launches early;

int main() {
  CHECK(early.first == cudaSuccess);
  CHECK(early.reversed == 63);
  CHECK(early.second == cudaSuccess);
  CHECK(early.ramped == 36);
  int *p = nullptr;
  CHECK(cudaMallocManaged(&p, 64 * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < 64; ++i)
    p[i] = 2 * i;
  reverse64<<<1, 64>>>(p);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(p[0] == 126 && p[63] == 0);
  ramp<<<1, 32>>>(p, 10);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(p[0] == 10 && p[31] == 41);
  cudaFree(p);
  return finish();
}
