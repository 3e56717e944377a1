/*
 * cuemu_gpu_arch.h: the GPU architecture names of CUDA 13's nvcc and NVRTC
 * (-arch, -code, -gencode values such as sm_90, compute_90a, lto_100f).
 */
#ifndef CUEMU_GPU_ARCH_H
#define CUEMU_GPU_ARCH_H

#include <stddef.h>
#include <stdio.h>

/* The compute capability of an architecture name, times ten (sm_90: 900),
 * or 0 when CUDA 13 does not know the name. The name ends at `n` bytes
 * (names inside a list such as "[sm_90,compute_90]"). */
int cuemu__gpu_arch_value(const char *name, size_t n);

/* Prints the compute capabilities without suffixes, one a line after
 * `prefix` ("compute_" or "sm_"), as nvcc --list-gpu-arch and
 * --list-gpu-code print them (Makefiles read them to choose their SMS). */
void cuemu__gpu_arch_list(FILE *out, const char *prefix);

#endif /* CUEMU_GPU_ARCH_H */
