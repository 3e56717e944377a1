// shadow_lib.cu: a shared library of tests/programs/shadow with a
// __device__ variable of its own, which shadow_dlopen.cu loads and unloads
// (tests/programs_shadow.sh).
#include <cuda_runtime.h>

__device__ int lib_value = 5;

__global__ void lib_bump() { lib_value += 1; }

// 0 when the library's host object keeps its initial value and the symbol
// calls reach its device object after a launch.
extern "C" int shadow_lib_check() {
  lib_bump<<<1, 1>>>();
  int value = 0;
  if (cudaDeviceSynchronize() != cudaSuccess ||
      cudaMemcpyFromSymbol(&value, lib_value, sizeof value) != cudaSuccess)
    return 1;
  return lib_value == 5 && value == 6 ? 0 : 2;
}
