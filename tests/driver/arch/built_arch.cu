// built_arch.cu: cudaFuncAttributes reports the architecture the program
// was built for (nvcc's -arch/-gencode), not the device's: ptxVersion is
// the PTX's (BUILT_ARCH, given with -D), binaryVersion the code the device
// runs (argv[1]: the built one on a device of that major version, else
// the device's, which compiles the PTX). tests/driver.sh builds it with
// -arch=sm_80 and runs it on an sm_80 and an sm_90 device.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "../../programs/check.cuh"

#ifndef BUILT_ARCH
#define BUILT_ARCH 90
#endif

__global__ void arch_of(int *out) {
#ifdef __CUDA_ARCH__
  *out = __CUDA_ARCH__;
#endif
}

template <typename T> __global__ void twice(T *x) { x[threadIdx.x] *= 2; }

int main(int argc, char **argv) {
  int binary = argc > 1 ? std::atoi(argv[1]) : BUILT_ARCH;
  int *arch;
  float *x;
  CHECK(cudaMallocManaged(&arch, sizeof *arch) == cudaSuccess);
  CHECK(cudaMallocManaged(&x, 32 * sizeof *x) == cudaSuccess);
  arch_of<<<1, 1>>>(arch);
  for (int i = 0; i < 32; ++i)
    x[i] = i;
  twice<<<1, 32>>>(x);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*arch == BUILT_ARCH * 10);
  CHECK(x[31] == 62.0f);

  cudaFuncAttributes a, t;
  CHECK(cudaFuncGetAttributes(&a, arch_of) == cudaSuccess);
  CHECK(cudaFuncGetAttributes(&t, twice<float>) == cudaSuccess);
  CHECK(a.ptxVersion == BUILT_ARCH);
  CHECK(a.binaryVersion == binary);
  CHECK(t.ptxVersion == BUILT_ARCH);
  CHECK(t.binaryVersion == binary);
  if (check_failures)
    std::fprintf(stderr, "ptxVersion %d binaryVersion %d (%d %d)\n",
                 a.ptxVersion, a.binaryVersion, t.ptxVersion,
                 t.binaryVersion);
  return finish();
}
