// cccl_gnuc_version.cu: a unit that includes CUB, built with -ccbin g++,
// whose headers check the host compiler's version as GCC's macros give it
// (a hash-table library's `#if GCC_VERSION < 60300 #error g++ version >=
// 6.3.0 required`). nvcc, with g++ 12 as its host compiler, defines g++'s
// __GNUC__, __GNUC_MINOR__ and __GNUC_PATCHLEVEL__ in both passes;
// cuemu-nvcc compiles such a unit with clang++ in g++'s place
// (docs/cccl.md), whose own macros say GCC 4.2.1, and the check failed.
// The kernel reads the version that the device pass sees.
// CUEMU_OPTIONS: -ccbin g++
#include <cub/cub.cuh>

#include "../check.cuh"

#define HOST_GCC_VERSION                                                       \
  (__GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__)

#if HOST_GCC_VERSION < 60300
#error g++ version >= 6.3.0 required
#endif

__global__ void read_version(int *version) {
  if (threadIdx.x == 0)
    *version = HOST_GCC_VERSION;
}

int main() {
  int *version = nullptr;
  CHECK(cudaMallocManaged(&version, sizeof *version) == cudaSuccess);
  *version = 0;
  read_version<<<1, 32>>>(version);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*version == HOST_GCC_VERSION);
  CHECK(*version >= 60300);
  CHECK(cudaFree(version) == cudaSuccess);
  return finish();
}
