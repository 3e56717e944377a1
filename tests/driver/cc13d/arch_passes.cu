// arch_passes.cu: which device pass's code a launch runs. nvcc compiles one
// device pass per virtual architecture of the build (each -gencode
// arch=compute_X), each with its own __CUDA_ARCH__, and the driver picks an
// image when the program loads: a cubin of the device's major version at a
// minor one no higher, else the PTX of the highest architecture no newer
// than the device. Built with -gencode arch=compute_80,code=sm_80 and
// -gencode arch=compute_90,code=sm_90, a 8.0 or 8.6 device runs the code
// of __CUDA_ARCH__ 800 and a 9.0 one that of 900; a 10.0 device runs
// neither ("no kernel image is available for execution on the device").
// The __device__ and __constant__ variables are one object whichever pass's
// code reads or writes them (bias, set by cudaMemcpyToSymbol, is added).
// A kernel template's instance (which_pass_of<int>) runs the same pass's
// code as the kernel, also launched with deduced template arguments and
// parameters of several types (which_pass_plus<int>: its arguments reach
// the picked pass's code as they reach the first pass's; they were read
// from the wrong places, "invalid memory access", found by trialzip). cudaFuncGetAttributes and cuFuncGetAttribute report the picked image's
// ptxVersion (the virtual architecture it was made from) and binaryVersion
// (the cubin's, else the device's: the driver compiles the PTX).
// tests/cuda_arch_passes.sh.
#include <cstdio>
#include <cuda.h>

__device__ int launches;
__constant__ int bias;

__host__ __device__ int pass_arch()
{
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return 0;
#endif
}

__global__ void which_pass(int *out)
{
  out[0] = pass_arch() + bias;
  atomicAdd(&launches, 1);
}

// A kernel template's instances follow the same pick.
template <typename T> __global__ void which_pass_of(T *out)
{
  out[1] = static_cast<T>(pass_arch());
}

template <typename T> __global__ void which_pass_plus(int n, T *out, T add)
{
  out[2] = static_cast<T>(pass_arch()) + add + static_cast<T>(n);
}

int main()
{
  int *d, arch = -1, count = -1, five = 5;
  cudaMemcpyToSymbol(bias, &five, sizeof five);
  cudaMalloc(&d, 3 * sizeof(int));
  cudaMemset(d, 0xff, 3 * sizeof(int));
  which_pass<<<1, 1>>>(d);
  cudaError_t launch = cudaGetLastError();
  cudaDeviceSynchronize();
  which_pass<<<1, 1>>>(d);
  which_pass_of<<<1, 1>>>(d);
  which_pass_plus<<<1, 1>>>(3, d, 8);
  cudaDeviceSynchronize();
  int both[3];
  cudaMemcpy(both, d, sizeof both, cudaMemcpyDeviceToHost);
  arch = both[0];
  cudaMemcpyFromSymbol(&count, launches, sizeof count);
  cudaFuncAttributes attr;
  attr.ptxVersion = attr.binaryVersion = -1;
  cudaFuncGetAttributes(&attr, which_pass);
  int ptx = -1, binary = -1;
  CUfunction f;
  if (cudaGetFuncBySymbol(&f, (const void *)which_pass) == cudaSuccess) {
    cuFuncGetAttribute(&ptx, CU_FUNC_ATTRIBUTE_PTX_VERSION, f);
    cuFuncGetAttribute(&binary, CU_FUNC_ATTRIBUTE_BINARY_VERSION, f);
  }
  cudaGetLastError();
  if (launch != cudaSuccess) /* no image: not compared */
    attr.ptxVersion = attr.binaryVersion = ptx = binary = -1;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("device %d.%d host %d kernel %d template %d/%d launches %d (%s) "
         "ptx %d/%d binary %d/%d\n",
         prop.major, prop.minor, pass_arch(), arch, both[1], both[2], count,
         cudaGetErrorName(launch), attr.ptxVersion, ptx, attr.binaryVersion,
         binary);
  cudaFree(d);
  return 0;
}
