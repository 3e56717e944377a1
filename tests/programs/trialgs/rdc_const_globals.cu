// rdc_const_globals.cu: namespace-scope const __device__ and __constant__
// variables with relocatable device code. A header's `__device__ const`
// table included by two units, and a `__device__ const` of the same name
// defined in each with its own value, have internal linkage, as in C++:
// nvcc gives each unit its own (PTX `__nv_static_..._kUnitTag`) and the link
// succeeds; a const variable declared `extern` first is one object of the
// program. Before: cuemu-nvcc gave every const device variable external
// linkage with -rdc, and the link failed with "multiple definition of
// `kFilterTaps'" (trialgs: the Taming 3DGS rasterizer built by its CMake
// project with CUDA_SEPARABLE_COMPILATION, whose auxiliary.h defines
// `__device__ const float SH_C0`). Also a table of a header found through
// -isystem (before: the same link error; a system header's is left as C++
// has it, each unit's own).
// CUEMU_OPTIONS: -rdc=true -isystem units/sys units/rdc_const_other.cu
// NVCC_OPTIONS: -rdc=true -isystem units/sys
#include <cstdio>

#include "units/rdc_const_tables.cuh"

__device__ const int kUnitTag = 10;

__global__ void main_sum(float *out) {
  out[0] = kFilterTaps[1] * kGain + kUnitTag + kOffset + kSysPrimes[0];
}

int main() {
  float *d = nullptr, mine = -1.0f;
  cudaMalloc(&d, sizeof(float));
  main_sum<<<1, 1>>>(d);
  cudaMemcpy(&mine, d, sizeof mine, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int my_tag = -1, other_tag = -1;
  cudaMemcpyFromSymbol(&my_tag, kUnitTag, sizeof my_tag);
  float other = other_unit_sum(&other_tag);
  // 0.5 * 2 + 10 + 100 + 2 and 0.25 * 2 + 20 + 100 + 5.
  printf("main %g (tag %d), other %g (tag %d)\n", mine, my_tag, other,
         other_tag);
  int ok = mine == 113.0f && my_tag == 10 && other == 125.5f &&
           other_tag == 20;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
