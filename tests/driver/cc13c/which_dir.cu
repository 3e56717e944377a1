// which_dir.cu: prints the folder that "which_dir.h" was found in
// (tests/driver_option_quoting.sh makes folders with a backslash, a space
// or quotes in their names, each with a which_dir.h naming itself, and
// passes one with -I in a given spelling).
#include <cstdio>
#include <cuda_runtime.h>

#include "which_dir.h"

__global__ void mark(int *out) { *out = WHICH_LENGTH; }

int main() {
  int *n;
  if (cudaMallocManaged(&n, sizeof *n) != cudaSuccess)
    return 1;
  mark<<<1, 1>>>(n);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  std::printf("[%s] %d\n", WHICH_DIR, *n);
  cudaFree(n);
  return 0;
}
