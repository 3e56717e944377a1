// debug_levels.cu: prints whether the device code of this unit was compiled
// with optimisation, as GCC and Clang say it with their __OPTIMIZE__ macro
// (defined from -O1 on). Checked by tests/driver_debug_levels.sh: nvcc's -g
// is the host code's debug build only ("--debug (-g): Generate debug
// information for host code"), so the device code stays optimised; -G turns
// the device code's optimisation off.
#include <cstdio>

__global__ void probe(int *out) {
#ifdef __OPTIMIZE__
  *out = 1;
#else
  *out = 0;
#endif
}

int main() {
  int *d = nullptr;
  int device = -1;
  if (cudaMalloc(&d, sizeof(int)) != cudaSuccess)
    return 1;
  probe<<<1, 1>>>(d);
  if (cudaMemcpy(&device, d, sizeof(int), cudaMemcpyDeviceToHost) !=
      cudaSuccess)
    return 1;
  cudaFree(d);
  printf("device %d\n", device);
  return 0;
}
