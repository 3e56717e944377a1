// arch_list.cu: __CUDA_ARCH_LIST__, nvcc's list of the virtual
// architectures a unit is compiled for, in both passes: the host prints
// its list, a kernel the device pass's list and its __CUDA_ARCH__.
// tests/driver_arch_list.sh builds it with two -gencode options and
// expects "host 800,900 device 800,900 arch 900".
#include <cstdio>
#include <cuda_runtime.h>

#define TEXT(...) #__VA_ARGS__
#define LIST_TEXT(...) TEXT(__VA_ARGS__)

#ifndef __CUDA_ARCH_LIST__
#error "__CUDA_ARCH_LIST__ is not defined"
#endif

// The list's values, as code that tests it would use them.
__device__ const int device_list[] = {__CUDA_ARCH_LIST__};

__global__ void describe(int *out) {
#ifdef __CUDA_ARCH__
  const int n = sizeof device_list / sizeof *device_list;
  out[0] = n;
  for (int i = 0; i < n && i < 8; ++i)
    out[1 + i] = device_list[i];
  out[9] = __CUDA_ARCH__;
#endif
}

int main() {
  int *out;
  if (cudaMallocManaged(&out, 10 * sizeof *out) != cudaSuccess)
    return 1;
  describe<<<1, 1>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  std::printf("host %s device ", LIST_TEXT(__CUDA_ARCH_LIST__));
  for (int i = 0; i < out[0] && i < 8; ++i)
    std::printf("%s%d", i ? "," : "", out[1 + i]);
  std::printf(" arch %d\n", out[9]);
  cudaFree(out);
  return 0;
}
