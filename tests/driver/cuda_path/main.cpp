// main.cpp: a host-compiler file that uses the CUDA runtime.
#include <cstdio>
#include <cuda_runtime.h>
#include "kern.cuh"
int main() {
  float *x; cudaMallocManaged(&x, 1000 * sizeof(float));
  for (int i = 0; i < 1000; ++i) x[i] = i;
  cudaError_t e = square_all(x, 1000);
  int bad = e != cudaSuccess;
  for (int i = 0; i < 1000; ++i) bad += x[i] != (float)i * i;
  printf("%s (%s)\n", bad ? "FAIL" : "PASS", cudaGetErrorString(e));
  return bad != 0;
}
