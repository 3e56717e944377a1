// arch_kernels.cu: a module whose kernel stores the __CUDA_ARCH__ of the
// code that runs, and a __device__ counter that it increments, built with
// -fatbin for several -gencode architectures (tests/drvapi_fat_arch.sh,
// loaded by load_arch.cu).
__device__ int launches;

extern "C" __global__ void report_arch(int *out) {
#ifdef __CUDA_ARCH__
  out[0] = __CUDA_ARCH__;
#else
  out[0] = -1;
#endif
  out[1] = ++launches;
}
