// app.cu: an application of libops.so (tests/driver.sh): it calls the
// library's host functions and launches the library's kernels itself
// (with nvcc 13, the library is built with
// -device-entity-has-hidden-visibility=false for that).
#include <cuda_runtime.h>

#include "../../programs/check.cuh"
#include "ops.cuh"

int main() {
  const int n = 300;
  float *x;
  unsigned *calls;
  CHECK(cudaMallocManaged(&x, n * sizeof *x) == cudaSuccess);
  CHECK(cudaMallocManaged(&calls, sizeof *calls) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    x[i] = (float)i;
  CHECK(run_double_all(x, n) == 0);
  double_all<<<(n + 127) / 128, 128>>>(x, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  count_calls<<<1, 1>>>(calls);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < n; ++i)
    CHECK(x[i] == 4.0f * i);
  CHECK(*calls == 2u * n);
  CHECK(calls_so_far() == 2u * n);
  cudaFree(x);
  cudaFree(calls);
  return finish();
}
