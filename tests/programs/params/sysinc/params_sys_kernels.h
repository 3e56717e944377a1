/*
 * params_sys_kernels.h: kernels with internal linkage in a header that the
 * program includes as a system header (-isystem), as header-only CUDA
 * libraries write them: static kernels, a static kernel template, a kernel
 * in an unnamed namespace, a static kernel declared before its definition.
 */
#ifndef PARAMS_SYS_KERNELS_H
#define PARAMS_SYS_KERNELS_H

static __global__ void sys_scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

template <typename T> static __global__ void sys_fill(T *x, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = v;
}

/* A library's kernel template that takes a functor by value. */
template <typename F_> __global__ void sys_apply(F_ f, int *out) {
  out[threadIdx.x] = f(int(threadIdx.x));
}

namespace {
__global__ void sys_add_ten(int *x) { x[threadIdx.x] += 10; }
} // namespace

namespace syslib {
static __global__ void add_hundred(int *x);
static __global__ void __launch_bounds__(64) add_hundred(int *x) {
  x[threadIdx.x] += 100;
}
namespace {
template <int K> __global__ void add_k(int *x) { x[threadIdx.x] += K; }
} // namespace
} // namespace syslib

#endif
