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
 * line, when nvcc refuses it there: when, reading the user's files in
 * nvcc's order (the main file, then each user's header where it is
 * included), the use comes before any #include but of the user's own
 * headers and of the headers that bring neither (cuda_runtime.h,
 * cuda_fp16.h, curand_kernel.h..., cuda.h for the types). Any other
 * header before it (one of the C or C++ library may bring them), a
 * macro's include or a file that cannot be read keeps it quiet. Returns
 * the number of warnings. */
int cuemu__warn_nvcc_undeclared(const char *text, size_t size,
                                const char *const *skip, int nskip);

#endif /* CUEMU_NVCC_UNDECLARED_H */
