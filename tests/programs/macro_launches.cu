// macro_launches.cu: kernel launches written inside macro bodies, as
// samples do (a LAUNCH macro, a multi-line macro with line splices, and a
// macro taking the kernel as a parameter).
#include <cstdio>

#include "check.cuh"

__global__ void add(int *data, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += value;
}

template <int N> __global__ void add_n(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += N;
}

#define LAUNCH_ADD(ptr, n, v) add<<<((n) + 127) / 128, 128>>>(ptr, n, v)
#define LAUNCH_ANY(kernel, ptr, n)                                             \
  do {                                                                         \
    kernel<<<((n) + 63) / 64, 64, 0, 0>>>(ptr, n);                            \
  } while (0)

int main() {
  const int n = 1000;
  int *data;
  CHECK(cudaMallocManaged(&data, n * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    data[i] = i;
  LAUNCH_ADD(data, n, 5);
  LAUNCH_ANY(add_n<3>, data, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < n; ++i)
    CHECK(data[i] == i + 8);
  CHECK(cudaFree(data) == cudaSuccess);
  return finish();
}
