// o4_cccl.cu: a unit that includes Thrust, built with -O4 (as
// an FFT convolution program's Makefile builds). nvcc takes a level
// above 3 silently; cuemu-nvcc gives the host compilers -O3, the level
// that g++ and clang++ take -O4 for, so that clang++, which compiles the
// units that include CUB or Thrust, prints no "-O4 is equivalent to -O3"
// (tests/driver_makefile_options.sh).
#include <thrust/version.h>
#include <cstdio>

__global__ void store(int *out) { out[0] = THRUST_MAJOR_VERSION; }

int main() {
  int *out = nullptr;
  int major = 0;
  if (cudaMalloc(&out, sizeof(int)) != cudaSuccess)
    return 1;
  store<<<1, 1>>>(out);
  cudaMemcpy(&major, out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(out);
  if (major != THRUST_MAJOR_VERSION) {
    printf("FAIL: %d\n", major);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
