// cudaFuncGetAttributes, cudaFuncSetAttribute and the occupancy calls take a
// __global__ function; CUDA answers cudaErrorInvalidDeviceFunction for
// anything else, a host function of a kernel's type included. A runtime-API
// unit test suite checks it with a static host function `void()`; cuemu took
// every typed function pointer for a kernel and answered cudaSuccess with a
// kernel's default attributes.
#include <cstdio>
#include "../check.cuh"

__global__ void noop_kernel(int *p) {
  if (p) *p = 1;
}
template <typename T> __global__ void never_launched(T *p) {
  if (p) *p = T(2);
}
static void host_function(int *p) {
  if (p) *p = 3;
}
static void no_arguments() {}

int main() {
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, host_function) == cudaErrorInvalidDeviceFunction);
  CHECK(cudaFuncGetAttributes(&attr, no_arguments) == cudaErrorInvalidDeviceFunction);
  CHECK(cudaGetLastError() == cudaErrorInvalidDeviceFunction);
  CHECK(cudaFuncSetAttribute(no_arguments, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024) ==
        cudaErrorInvalidDeviceFunction);
  int blocks = -1;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, host_function, 128, 0) ==
        cudaErrorInvalidDeviceFunction);
  int min_grid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, no_arguments) ==
        cudaErrorInvalidDeviceFunction);
  CHECK(cudaGetLastError() == cudaErrorInvalidDeviceFunction);
  CHECK(cudaGetLastError() == cudaSuccess);
  // Kernels, also a template instance that is never launched, still answer.
  CHECK(cudaFuncGetAttributes(&attr, noop_kernel) == cudaSuccess);
  CHECK(attr.maxThreadsPerBlock > 0);
  CHECK(cudaFuncGetAttributes(&attr, never_launched<double>) == cudaSuccess);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, noop_kernel, 128, 0) == cudaSuccess);
  CHECK(blocks > 0);
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, noop_kernel) == cudaSuccess);
  CHECK(block > 0);
  std::printf("host function: cudaErrorInvalidDeviceFunction\n");
  return finish();
}
