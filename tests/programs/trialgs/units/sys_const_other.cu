// sys_const_other.cu: the second unit of sys_const_whole.cu.
// NVCC_OPTIONS: -isystem sys
#include <rdc_sys_tables.cuh>

__global__ void other_prime(int *out) { out[0] = kSysPrimes[2]; }

int other_unit_prime() {
  int *d = nullptr, h = -1;
  cudaMalloc(&d, sizeof(int));
  other_prime<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h;
}
