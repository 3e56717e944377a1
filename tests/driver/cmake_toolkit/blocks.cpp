/* blocks.cpp: host C++ compiled by the C++ compiler (not by the CUDA
 * compiler) that calls the runtime API, finding <cuda_runtime.h> through
 * CUDA::cudart's include folder. */
#include <cuda_runtime.h>

int expected_blocks(int n, int block) { return (n + block - 1) / block; }

int device_count() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : -1;
}
