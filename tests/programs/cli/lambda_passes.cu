// lambda_passes.cu: lambdas that only one of nvcc's two passes compiles
// (under #ifdef __CUDA_ARCH__ or #ifndef __CUDA_ARCH__), before extended
// lambdas of the same function and parameter types that are handed to a
// kernel template. g++ numbers a function's lambdas of one signature in
// order, so without care the device and host passes would name the later
// lambdas differently and a launch would run another lambda's code or
// none (a launch through the instance's address: lambda_apply.cuh). Each
// function below is checked against values worked out on the
// host.
// CUEMU_OPTIONS: --expt-extended-lambda
// NVCC_OPTIONS: --expt-extended-lambda
#include <cuda_runtime.h>

#include "../check.cuh"
#include "lambda_apply.cuh"

// A device-pass-only lambda before two extended lambdas.
cudaError_t scale_then_shift(float *x, int n, float s) {
#ifdef __CUDA_ARCH__
  auto identity = [] __device__(float v) { return v; };
  (void)identity;
#endif
  cudaError_t e =
      run_apply_by_address(x, n, [=] __device__(float v) { return v * s; });
  if (e != cudaSuccess)
    return e;
  return run_apply_by_address(x, n,
                              [=] __device__(float v) { return v + 1.0f; });
}

// A host-pass-only lambda (two of them) before the extended ones.
void shift_then_square(float *x, int n) {
#ifndef __CUDA_ARCH__
  auto twice = [](float v) { return 2.0f * v; };
  auto thrice = [](float v) { return 3.0f * v; };
  (void)twice;
  (void)thrice;
#endif
  run_apply(x, n, [] __device__(float v) { return v - 1.0f; });
  CHECK(run_apply_by_address(x, n, [] __device__(float v) { return v * v; }) ==
        cudaSuccess);
}

// Each pass has its own lambda in an #if/#else, then lambdas of another
// signature (not shifted) and of the same one.
void negate_then_halve(float *x, int n) {
#ifdef __CUDA_ARCH__
  auto pick = [] __device__(float v) { return v; };
#else
  auto pick = [](float v) { return v; };
  auto other = [](float v) { return -v; };
  (void)other;
#endif
  (void)pick;
  auto unused = [](int v) { return v; };
  (void)unused;
  run_apply(x, n, [] __host__ __device__(float v) { return -v; });
  CHECK(run_apply_by_address(x, n, [] __host__ __device__(float v) {
          return v / 2.0f;
        }) == cudaSuccess);
}

// A device-only lambda inside another lambda's body is numbered in that
// body, and shifts nothing outside it.
void nested(float *x, int n) {
  auto outer = [](float v) {
#ifdef __CUDA_ARCH__
    auto inner = [](float w) { return w; };
    (void)inner;
#endif
    return v;
  };
  (void)outer;
  CHECK(run_apply_by_address(x, n, [] __device__(float v) {
          return v + 10.0f;
        }) == cudaSuccess);
}

// A device-pass-only lambda of another signature, whose parameter type only
// the device pass has: g++ 12 numbers all the lambdas of a function in one
// sequence, and no lambda of that type can be made up in the host pass.
void other_signature(float *x, int n) {
#ifdef __CUDA_ARCH__
  struct device_only {
    int v;
  };
  auto probe = [](device_only d) { return d.v; };
  (void)probe;
#endif
  CHECK(run_apply_by_address(x, n, [] __device__(float v) {
          return v * 3.0f;
        }) == cudaSuccess);
}

int main() {
  const int n = 100;
  float *x;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    x[i] = (float)i;
  CHECK(scale_then_shift(x, n, 2.0f) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != 2.0f * i + 1.0f;
  CHECK(bad == 0);

  shift_then_square(x, n); // (2i + 1 - 1)^2 = 4i^2
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != 4.0f * i * i;
  CHECK(bad == 0);

  negate_then_halve(x, n); // -2i^2
  nested(x, n);            // -2i^2 + 10
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != -2.0f * i * i + 10.0f;
  CHECK(bad == 0);

  other_signature(x, n); // 3 (-2i^2 + 10)
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != 3.0f * (-2.0f * i * i + 10.0f);
  CHECK(bad == 0);
  CHECK(cudaFree(x) == cudaSuccess);
  return finish();
}
