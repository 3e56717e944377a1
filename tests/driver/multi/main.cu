/* main.cu: a program of several files (two .cu, a .cpp and a .c). */
#include <cstdio>

#include "vec.cuh"

/* Internal linkage: the names are kernels.cu's too (see vec.cuh). */
static __device__ int calls;
namespace {
__device__ int seen;
}
/* Without -rdc each file's device code is its own, as with nvcc. */
__device__ int shared_name = 1;
static __global__ void count(int add) {
  atomicAdd(&calls, add);
  seen = 1;
}

static int check_main_private(void) {
  int start = 5, got = 0, flag = 0;
  cudaMemcpyToSymbol(calls, &start, sizeof start);
  count<<<2, 8>>>(1);
  cudaMemcpyFromSymbol(&got, calls, sizeof got);
  cudaMemcpyFromSymbol(&flag, seen, sizeof flag);
  int mine = 0;
  cudaMemcpyFromSymbol(&mine, shared_name, sizeof mine);
  flag += 10 * (mine != 1);
  return (got != 5 + 16) + (flag != 1);
}

int main() {
  const int n = 1000;
  float *x, *y;
  float gx[n], gy[n];
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = gx[i] = (float)i;
    y[i] = gy[i] = 1.0f;
  }
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  launch_scale(y, 0.5f, n);
  cudaDeviceSynchronize();
  saxpy_gold(2.0f, gx, gy, n);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != gy[i] * 0.5f;
  bad += c_answer() != 42;
  bad += check_private_kernels();
  bad += check_main_private();
  bad += cudaGetLastError() != cudaSuccess;
  cudaFree(x);
  cudaFree(y);
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
