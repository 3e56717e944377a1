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

/* The suffix of an architecture name that cuemu__gpu_arch_value() knows:
 * 'a' (architecture-specific: sm_90a, compute_100a), 'f' (family-specific:
 * sm_100f), or '\0' (none, or a name CUDA 13 does not know). */
char cuemu__gpu_arch_suffix(const char *name, size_t n);

/* What `--list-gpu-arch` (compute_XX) and `--list-gpu-code` (sm_XX) list;
 * with both, each line is in --generate-code's form. */
enum { CUEMU_GPU_LIST_ARCH = 1, CUEMU_GPU_LIST_CODE = 2 };

/* Prints the architectures of CUDA 13 as nvcc's --list-gpu-arch and
 * --list-gpu-code do (LIST: CUEMU_GPU_LIST_* or'ed), one a line, in nvcc's
 * order and without the "a" and "f" suffixes. */
void cuemu__gpu_arch_list(FILE *out, int list);

/* A set of CUDA 13's architectures (virtual ones: compute_XX), as bits. */
typedef unsigned cuemu_gpu_arch_set;

/* The set holding the architecture of compute capability `value` (times
 * ten, as cuemu__gpu_arch_value() gives it; 0 when CUDA 13 has none). */
cuemu_gpu_arch_set cuemu__gpu_arch_one(int value);

/* What -arch=all (every architecture) and -arch=all-major (those of a
 * major version: 75, 80, 90, 100, 110, 120) compile for. */
cuemu_gpu_arch_set cuemu__gpu_arch_all(int major_only);

/* Writes the value of __CUDA_ARCH_LIST__ for `set` into `buffer`: its
 * compute capabilities times ten, in increasing order, separated by
 * commas ("800,900"), as nvcc 13 defines it. */
void cuemu__gpu_arch_list_macro(cuemu_gpu_arch_set set, char *buffer,
                                size_t size);

/* The macros that nvcc 13 gives the device pass of an architecture-specific
 * or a family-specific target besides __CUDA_ARCH__ (`nvcc --dryrun`), as
 * -D options, for __CUDA_ARCH__ `arch` (900) and `suffix`
 * (cuemu__gpu_arch_suffix()): for sm_90a, -D__CUDA_ARCH_SPECIFIC__=900,
 * -D__CUDA_ARCH_FAMILY_SPECIFIC__=900 and -D__CUDA_ARCH_FEAT_SM90_ALL; for
 * sm_100f, only -D__CUDA_ARCH_FAMILY_SPECIFIC__=1000; for a plain sm_90,
 * none. An unused slot of `out` is "". The host pass has none of them. */
void cuemu__gpu_arch_macros(int arch, int suffix, char out[3][64]);

#endif /* CUEMU_GPU_ARCH_H */
