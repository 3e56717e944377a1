/*
 * use_after_free.cu: a kernel that uses device memory after cudaFree, or
 * after cudaDeviceReset, faults and is told so (the memory stays
 * inaccessible for a while after it is freed), instead of corrupting the
 * host's memory. Built with the checkers (--check=mem), memcheck reports
 * it first, and the error is then cudaErrorLaunchFailure, as under
 * compute-sanitizer. Prints PASS when all is well.
 */
#include <cstdio>

#include <cuda_runtime.h>

#include "check.cuh"

__global__ void write_all(char *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 'A';
}

/* The error of a kernel that used freed memory. */
static bool use_after_free_error(cudaError_t e) {
  return e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure;
}

int main() {
  const int n = 1 << 16;
  char *p = nullptr;
  CHECK(cudaMalloc(&p, n) == cudaSuccess);
  CHECK(cudaFree(p) == cudaSuccess);
  write_all<<<n / 256, 256>>>(p, n);
  CHECK(use_after_free_error(cudaDeviceSynchronize()));
  CHECK(cudaDeviceReset() == cudaSuccess);

  CHECK(cudaMalloc(&p, n) == cudaSuccess);
  CHECK(cudaDeviceReset() == cudaSuccess);
  write_all<<<n / 256, 256>>>(p, n);
  CHECK(use_after_free_error(cudaDeviceSynchronize()));
  CHECK(cudaDeviceReset() == cudaSuccess);
  std::fflush(stdout);
  return finish();
}
