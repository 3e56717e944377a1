// app.cu: an application of libvecops.so: it launches the library's
// kernel itself and calls the library's host functions, which reach the
// library's __constant__ and __device__ variables.
#include <cuda_runtime.h>

#include "../../programs/check.cuh"
#include "vecops.cuh"

int main() {
  const int n = 1000;
  float *x;
  CHECK(cudaMallocManaged(&x, n * sizeof *x) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    x[i] = (float)(i % 10);
  vec_set_factor(3.0f);
  vec_scale<<<(n + 255) / 256, 256>>>(x, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < n; ++i)
    CHECK(x[i] == 3.0f * (i % 10));
  // 100 runs of 0..9, times 3.
  CHECK(vec_sum(x, n) == 13500.0f);
  CHECK(vec_launches() == 2);

  // The kernel of the library is a kernel of the program.
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, vec_scale) == cudaSuccess);
  int m = 10;
  void *args[] = {&x, &m};
  CHECK(cudaLaunchKernel((const void *)vec_scale, dim3(1), dim3(32), args, 0,
                         0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(x[9] == 81.0f && x[10] == 0.0f);
  CHECK(vec_launches() == 3);
  cudaFree(x);
  return finish();
}
