// main.cu: prints what __FILE__ names in the main file, in a header beside
// it and in a header of an -I folder, in host code and in a kernel
// (tests/driver_file_macro.sh). nvcc gives the paths as the compiler
// reached them: the source as its command line spells it, a quoted include
// relative to that, an -I header by the -I folder's spelling.
#include <cstdio>

#include "local.cuh"
#include "fm/lib.cuh"

__global__ void device_files() { printf("device %s %s\n", __FILE__, local_file()); }

int main() {
  std::printf("host %s %s %s\n", __FILE__, local_file(), lib_file());
  device_files<<<1, 1>>>();
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
