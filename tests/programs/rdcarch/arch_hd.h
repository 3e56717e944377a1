// arch_hd.h: non-inline __host__ __device__ functions of the
// relocatable-device-code project, declared for the .cu units and for the
// host compiler's main.cpp alike (ARCH_HD is empty without nvcc).
// tests/programs_rdcarch.sh.
#ifndef ARCH_HD_H
#define ARCH_HD_H

#ifdef __CUDACC__
#define ARCH_HD __host__ __device__
#else
#define ARCH_HD
#endif

// Defined in arch_info.cu: the running code's __CUDA_ARCH__ branch (900 or
// 800) in device code, -1 in host code. arch_kernels.cu's kernel calls its
// device code, and its host code the host code.
ARCH_HD int host_device_arch();

// Defined in main.cpp, a host-only file: arch_kernels.cu's host code calls
// it (nvcc's device code never names it).
ARCH_HD int host_only_mark();

// A class whose __host__ __device__ member arch_info.cu defines:
// scale + host_device_arch().
struct ArchProbe {
  int scale;
  ARCH_HD int branch() const;
};

#endif
