// mem_shadow_kernel_arg.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// EXPECT: mem host memory write line 12
#include <cstdio>
#include <cuda_runtime.h>

/* Host code gives the kernel the address of a __device__ variable, which is
 * its host object (shadow) there, as with nvcc: no device memory. */
__device__ int error_count;

__global__ void count_errors(int *count) {
  count[threadIdx.x] = 1;
}

int main() {
  count_errors<<<1, 32>>>(&error_count);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
