// arch_info.cu: device functions and variables of a program built with
// relocatable device code (-dc, CUDA_SEPARABLE_COMPILATION) for two
// architectures, called and read from the kernels of arch_kernels.cu.
// pass_arch() answers which architecture's code runs by `#if
// __CUDA_ARCH__ >= 900`, as real code chooses its paths; `mailbox` (extern
// in arch_kernels.cu) and the unit's static `posts` are variables that the
// code of every architecture shares. host_device_arch() is a non-inline
// __host__ __device__ function: the kernels of arch_kernels.cu call its
// device code, that unit's host code its host code.
// tests/programs_rdcarch.sh.
// NVCC_OPTIONS: -rdc=true
#include "arch_hd.h"
#include "arch_info.cuh"

__device__ int mailbox;
static __device__ int posts;

__device__ int pass_arch()
{
#if __CUDA_ARCH__ >= 900
  return 900;
#else
  return 800;
#endif
}

__device__ void count_post() { atomicAdd(&posts, 1); }

__device__ int post_count() { return posts; }

template <class T> __device__ T scaled_arch(T v) { return v * pass_arch(); }
template __device__ int scaled_arch<int>(int);
template <> __device__ float scaled_arch<float>(float v)
{
  return v + pass_arch();
}

__device__ int ArchPlus::plus(int v) const { return v + pass_arch(); }

ARCH_HD int host_device_arch()
{
#ifdef __CUDA_ARCH__
#if __CUDA_ARCH__ >= 900
  return 900;
#else
  return 800;
#endif
#else
  return -1;
#endif
}

ARCH_HD int ArchProbe::branch() const { return scale + host_device_arch(); }
