// host_pass_bodies.cu: device code that nvcc's host compiler never sees,
// built with -Xcompiler -Wall,-Wextra,-Werror: kernel templates whose
// parameters have no name, are packs or arrays (host_pass_kernels.cuh),
// and __device__ lambdas of host functions and of a function template,
// each with code that g++ warns about. nvcc builds it, so must cuemu-nvcc;
// each launch is then checked against values worked out on the host.
// CUEMU_OPTIONS: --extended-lambda -Xcompiler -Wall,-Wextra,-Werror
// NVCC_OPTIONS: --extended-lambda -Xcompiler -Wall,-Wextra,-Werror
#include <cuda_runtime.h>

#include "../check.cuh"
#include "host_pass_kernels.cuh"

// __device__ lambdas of a host function: the first compares a captured
// unsigned with an int, the second is generic.
static void scale_twice(float *x, int n, unsigned times, float by) {
  apply<<<2, 32>>>(x, n, [=] __device__(float v) {
    for (int i = 0; i < times; ++i)
      v *= by;
    return v;
  });
  apply<<<2, 32>>>(x, n, [=] __device__(auto v) {
    for (int i = 0; i < times / times; ++i)
      v += 1.0f;
    return v;
  });
}

// A __device__ lambda of a function template.
template <typename T> static void subtract(float *x, int n, T amount) {
  apply<<<1, 64>>>(x, n, [=] __device__(float v) {
    unsigned count = 1;
    for (int i = 0; i < count; ++i)
      v -= amount;
    return v;
  });
}

int main() {
  const int n = 64;
  float *x, *table;
  int *idx, (*rows)[4];
  CHECK(cudaMallocManaged(&x, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&table, 4 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&idx, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&rows, n * sizeof(int[4])) == cudaSuccess);
  for (int i = 0; i < 4; ++i)
    table[i] = 10.0f * (float)(i + 1);
  for (int i = 0; i < n; ++i) {
    idx[i] = (i * 3) % 4;
    for (int j = 0; j < 4; ++j)
      rows[i][j] = i + j;
  }

  fill_unnamed<<<1, n>>>(x, 99, 2.5f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != 2.5f;
  CHECK(bad == 0);

  sum_pack<<<1, n>>>(x, 1, 2.0, 3.0f); // 6 + 3
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != 9.0f;
  CHECK(bad == 0);

  count_pack<<<1, n>>>(x, 'a', 2u, 3l, 4.0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != 4.0f;
  CHECK(bad == 0);

  gather<float, 4><<<1, n>>>(x, table, idx, rows);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != 10.0f * (float)((i * 3) % 4 + 1) + (float)(i + i % 4);
  CHECK(bad == 0);

  offset<<<1, n>>>(x, static_cast<float (*)(float)>(nullptr), 7.0f, 0.5f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != 10.0f * (float)((i * 3) % 4 + 1) + (float)(i + i % 4) + 0.5f;
  CHECK(bad == 0);

  for (int i = 0; i < n; ++i)
    x[i] = (float)i;
  scale_twice(x, n, 2u, 3.0f); // 9 i + 1
  subtract(x, n, 1.0f);        // 9 i
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != 9.0f * (float)i;
  CHECK(bad == 0);

  CHECK(cudaFree(x) == cudaSuccess);
  CHECK(cudaFree(table) == cudaSuccess);
  CHECK(cudaFree(idx) == cudaSuccess);
  CHECK(cudaFree(rows) == cudaSuccess);
  return finish();
}
