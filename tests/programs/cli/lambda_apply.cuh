// lambda_apply.cuh: a kernel template that applies a function object,
// launched with <<<>>> and through its address with cudaLaunchKernel. An
// instance for a lambda has no linkage: the host pass's address of it is
// matched to the device pass's instance by its symbol, which names the
// lambda by its number (lambda_passes.cu).
#ifndef LAMBDA_APPLY_CUH
#define LAMBDA_APPLY_CUH

#include <cuda_runtime.h>

template <typename F> __global__ void apply(float *x, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = f(x[i]);
}

template <typename F> void run_apply(float *x, int n, F f) {
  apply<<<(n + 63) / 64, 64>>>(x, n, f);
}

template <typename F> cudaError_t run_apply_by_address(float *x, int n, F f) {
  void (*kernel)(float *, int, F) = apply<F>;
  void *args[] = {&x, &n, &f};
  return cudaLaunchKernel((const void *)kernel, dim3((n + 63) / 64), dim3(64),
                          args, 0, 0);
}

#endif
