// lambda_passes.cu: a lambda under #ifdef __CUDA_ARCH__ before the extended
// lambdas handed to a kernel template in the same function. g++ numbers
// the later lambdas differently in the device and the host pass, so
// cuemu-cc could not match the kernel template's instances (the host
// pass's second instance would have been matched with the device pass's
// first, running the other lambda); it refuses the file, naming both
// lambdas (tests/driver.sh). nvcc accepts it.
#include <cuda_runtime.h>

template <typename F> __global__ void apply(float *x, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = f(x[i]);
}

template <typename F> cudaError_t run_apply(float *x, int n, F f) {
  void (*kernel)(float *, int, F) = apply<F>;
  void *args[] = {&x, &n, &f};
  return cudaLaunchKernel((const void *)kernel, dim3((n + 63) / 64), dim3(64),
                          args, 0, 0);
}

cudaError_t scale_then_shift(float *x, int n, float s) {
#ifdef __CUDA_ARCH__
  auto identity = [] __device__(float v) { return v; };
  (void)identity;
#endif
  cudaError_t e = run_apply(x, n, [=] __device__(float v) { return v * s; });
  if (e != cudaSuccess)
    return e;
  return run_apply(x, n, [=] __device__(float v) { return v + 1.0f; });
}

int main() {
  float *x;
  cudaMallocManaged(&x, 100 * sizeof(float));
  for (int i = 0; i < 100; ++i)
    x[i] = (float)i;
  cudaError_t e = scale_then_shift(x, 100, 2.0f);
  int bad = e != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess;
  for (int i = 0; i < 100; ++i)
    bad += x[i] != 2.0f * i + 1.0f;
  return bad != 0;
}
