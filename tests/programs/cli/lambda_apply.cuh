// lambda_apply.cuh: a kernel template that applies a function object, in a
// header that says it is a system header (as CUB's and Thrust's kernels
// are): cuemu-cc matches its host pass's instances to the device pass's by
// their symbols, which name the lambda by its number (lambda_passes.cu).
#pragma GCC system_header
#ifndef LAMBDA_APPLY_CUH
#define LAMBDA_APPLY_CUH

template <typename F> __global__ void apply(float *x, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = f(x[i]);
}

template <typename F> void run_apply(float *x, int n, F f) {
  apply<<<(n + 63) / 64, 64>>>(x, n, f);
}

#endif
