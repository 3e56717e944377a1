/* query_main.cpp: the main of the program linked to the project's shared
 * library, a plain C++ file that includes cuda_runtime.h from the include
 * folder of CMake's CUDA::cudart (find_package(CUDAToolkit)) and queries
 * the device before the checks of checks.cu. */
#include <cstdio>

#include <cuda_runtime.h>

int histogram_checks();

int main() {
  int count = 0;
  cudaDeviceProp prop;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1 ||
      cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.major < 1 ||
      prop.warpSize != 32) {
    std::printf("FAIL: no device through the CUDA runtime\n");
    return 1;
  }
  return histogram_checks() != 0;
}
