// apply.cuh: a kernel template in a header, launched by a host function
// template of the header, calling a __device__ function template that
// cannot compile for int (`v.twice()`).
#pragma once
template <typename T> __device__ T twice(T v) { return v.twice(); }
template <typename T> __global__ void apply(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = twice(p[i]);
}
template <typename T> void run(T *p, int n) { apply<<<(n + 127) / 128, 128>>>(p, n); }
