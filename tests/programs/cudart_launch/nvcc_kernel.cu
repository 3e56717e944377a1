/* nvcc_kernel.cu: a program that tests/cudart_launch.sh builds with
 * NVIDIA's nvcc and the shared libcudart (-cudart shared) and runs with
 * cuemu's toolkit first in LD_LIBRARY_PATH: its kernels are GPU code, so
 * cuemu's libcudart.so.13 must end it with a message, not crash. */
#include <cstdio>

__global__ void set_one(int *p) { *p = 1; }

int main() {
  int *d = nullptr;
  cudaMalloc(&d, sizeof(int));
  set_one<<<1, 1>>>(d);
  std::printf("%d\n", (int)cudaDeviceSynchronize());
  return 0;
}
