/*
 * oob_write.cu: a kernel that writes one element past its allocation;
 * built with nvcc's -sanitize memcheck, cuemu's memory checker reports it
 * (tests/driver_nvcc13_options.sh).
 */
#include <cstdio>

__global__ void shifted(int *p) { p[threadIdx.x + 1] = 1; }

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  shifted<<<1, 32>>>(d);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(d);
  return 0;
}
