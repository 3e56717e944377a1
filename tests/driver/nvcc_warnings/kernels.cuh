// kernels.cuh: kernels of a header, with and without __launch_bounds__,
// and a host function that launches one without a stream.
#pragma once
#include <cuda_runtime.h>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

__global__ void __launch_bounds__(64) add(int *p, int v) {
  p[threadIdx.x] += v;
}

template <int N>
__global__ void scale(int *p) { p[threadIdx.x] *= N; }

inline void fill_default(int *p, int v) {
  fill<<<1, 32>>>(p, v);
}
