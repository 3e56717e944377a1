/*
 * cuemu_nvcc_undeclared.h: the names that a unit uses without the header
 * that declares them with nvcc, which cuemu's shims declare anyway
 * (docs/nvcc-checks.md, "Names nvcc refuses"). Internal to libcuemu.
 */
#ifndef CUEMU_NVCC_UNDECLARED_H
#define CUEMU_NVCC_UNDECLARED_H

#include <stddef.h>

/* Warns (cuemu__driver_say("warning")) once for each of the unsigned
 * fixed-width types (uint32_t, uintptr_t...: <cstdint>) and of <cstdio>'s
 * names (printf, fprintf, stderr, FILE...) that the preprocessed unit
 * text[0, size) uses in the user's code (outside system headers and the
 * files under the folders `skip[0..nskip)`), naming the first file and
 * line, when nvcc refuses it there: when the user's files include no
 * header but CUDA's that bring neither (cuda_runtime.h, cuda_fp16.h,
 * curand_kernel.h..., cuda.h for the types) and the user's own. When they
 * include any other header (one of the C or C++ library may bring them),
 * or a file cannot be read, it says nothing. Returns the number of
 * warnings. */
int cuemu__warn_nvcc_undeclared(const char *text, size_t size,
                                const char *const *skip, int nskip);

#endif /* CUEMU_NVCC_UNDECLARED_H */
