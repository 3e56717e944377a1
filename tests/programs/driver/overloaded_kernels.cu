// overloaded_kernels.cu: __global__ functions overloaded by parameter types
// are separate kernels: a launch picks the overload its arguments select
// (as a call would), and each is registered on its own, so that
// cudaFuncGetAttributes and cudaLaunchKernel through a function pointer
// cast to the overload's type reach that overload.
#include <cuda_runtime.h>

#include "../check.cuh"
#include "overloaded_kernels.cuh"

namespace ops {
__global__ void __launch_bounds__(64) fill(float *o, float v) {
  o[blockIdx.x * blockDim.x + threadIdx.x] = v + threadIdx.x;
}
__global__ void __launch_bounds__(128) fill(double *o, int n, double s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (unsigned)n)
    o[i] = s * i;
}
} // namespace ops

__global__ void scale(int *x, int f) { x[threadIdx.x] *= f; }
__global__ void scale(int *x, Pair p) { x[threadIdx.x] = x[threadIdx.x] * p.a + p.b; }

// A third overload seen only here, without parameters.
__device__ int touched;
__global__ void scale() { touched = 42; }

int main() {
  float *f;
  double *d;
  int *x;
  CHECK(cudaMallocManaged(&f, 64 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&d, 128 * sizeof(double)) == cudaSuccess);
  CHECK(cudaMallocManaged(&x, 32 * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < 128; ++i)
    d[i] = -1.0;
  for (int i = 0; i < 32; ++i)
    x[i] = i;

  ops::fill<<<1, 64>>>(f, 0.5f);
  ops::fill<<<2, 64>>>(d, 100, 0.25);
  scale<<<1, 32>>>(x, 3);
  scale<<<1, 32>>>(x, Pair{2, 1});
  scale<<<1, 1>>>();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 64; ++i)
    CHECK(f[i] == 0.5f + i);
  for (int i = 0; i < 128; ++i)
    CHECK(d[i] == (i < 100 ? 0.25 * i : -1.0));
  for (int i = 0; i < 32; ++i)
    CHECK(x[i] == i * 3 * 2 + 1);
  int t = 0;
  CHECK(cudaMemcpyFromSymbol(&t, touched, sizeof t) == cudaSuccess);
  CHECK(t == 42);

  // Each overload is its own function: its own attributes.
  void (*pf)(float *, float) = ops::fill;
  void (*pd)(double *, int, double) = ops::fill;
  cudaFuncAttributes af, ad;
  CHECK(cudaFuncGetAttributes(&af, pf) == cudaSuccess);
  CHECK(cudaFuncGetAttributes(&ad, (const void *)pd) == cudaSuccess);
  CHECK(af.maxThreadsPerBlock == 64);
  CHECK(ad.maxThreadsPerBlock == 128);
  CHECK(af.numRegs >= 0);
  // Its bounds are checked at launch: 128 threads are too many for the
  // float overload only.
  ops::fill<<<1, 128>>>(f, 1.0f);
  CHECK(cudaGetLastError() == cudaErrorLaunchOutOfResources);
  ops::fill<<<1, 128>>>(d, 128, 1.0);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(d[127] == 127.0);

  // cudaLaunchKernel through a pointer cast to the overload's type.
  int n = 10;
  double step = 2.0;
  void *args[] = {&d, &n, &step};
  CHECK(cudaLaunchKernel((const void *)static_cast<void (*)(double *, int, double)>(ops::fill),
                         dim3(1), dim3(32), args, 0, 0) == cudaSuccess);
  int factor = 5;
  void *sargs[] = {&x, &factor};
  CHECK(cudaLaunchKernel(static_cast<void (*)(int *, int)>(scale), dim3(1), dim3(32),
                         sargs, 0, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 10; ++i)
    CHECK(d[i] == 2.0 * i);
  CHECK(d[10] == 10.0);
  for (int i = 0; i < 32; ++i)
    CHECK(x[i] == (i * 6 + 1) * 5);
  cudaFree(f);
  cudaFree(d);
  cudaFree(x);
  return finish();
}
