// launch_before_main.cu: kernels launched from the constructor of a global
// object, which C++ runs before main and before the translation unit's own
// registration of its kernels (its last static initializer): a plain kernel
// with static shared memory and a kernel template's instance, each launched
// again from main. Both launches of each must run the kernel (the host pass
// launches it through a descriptor of its own before the registration:
// cuemu_kernel_thunks.h, __cuemu_unmatched_desc), and a launch from main
// must have the registered one, with the kernel's __launch_bounds__: too
// many threads are refused there, as CUDA refuses them.
#include <cstdio>
#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void reverse64(int *p) {
  __shared__ int s[64];
  s[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = s[63 - threadIdx.x];
}

template <typename T> __global__ void __launch_bounds__(32) ramp(T *p, T first) {
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
  ramp<<<1, 64>>>(p, 20);
  CHECK(cudaGetLastError() != cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(p[0] == 10);
  cudaFree(p);
  return finish();
}
