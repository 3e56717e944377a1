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

/* What `--list-gpu-arch` (compute_XX) and `--list-gpu-code` (sm_XX) list;
 * with both, each line is in --generate-code's form. */
enum { CUEMU_GPU_LIST_ARCH = 1, CUEMU_GPU_LIST_CODE = 2 };

/* Prints the architectures of CUDA 13 as nvcc's --list-gpu-arch and
 * --list-gpu-code do (LIST: CUEMU_GPU_LIST_* or'ed), one a line, in nvcc's
 * order and without the "a" and "f" suffixes. */
void cuemu__gpu_arch_list(FILE *out, int list);

#endif /* CUEMU_GPU_ARCH_H */
