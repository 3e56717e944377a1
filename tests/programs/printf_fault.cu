/*
 * printf_fault.cu: a kernel whose printf reads a string through a bad
 * pointer faults at that line, and the program goes on (never a hang on the
 * C library's stdout lock, with one or several workers); the other threads'
 * output appears when the launch ends. Prints PASS when all is well.
 */
#include <cstdio>

#include <cuda_runtime.h>

#include "check.cuh"

__global__ void print_values(int *p, const int *value) {
  if (threadIdx.x == 3 && blockIdx.x == 40)
    printf("value %d name %s\n", value[0], (const char *)16);
  p[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void print_hello() {
  if (threadIdx.x == 0)
    printf("hello from block %d\n", (int)blockIdx.x);
}

int main() {
  int *p = nullptr, *value = nullptr;
  CHECK(cudaMallocManaged(&p, 64 * 32 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&value, sizeof(int)) == cudaSuccess);
  *value = 7;
  print_values<<<64, 32>>>(p, value);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  CHECK(cudaDeviceReset() == cudaSuccess);
  print_hello<<<2, 32>>>();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  return finish();
}
