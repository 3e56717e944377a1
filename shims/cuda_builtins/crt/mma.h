/*
 * crt/mma.h: tensor-core fragments, nvcuda::wmma (the warp matrix
 * functions). Real code includes it by its crt/ path, as the toolkit's own
 * mma.h does; nvcc 13 builds such code with a warning that the header is
 * internal. cuemu's definitions are in the header below, so the toolkit's
 * own, which calls builtins cuemu's compile does not have, is not read.
 */
#ifndef CUEMU_CRT_MMA_H
#define CUEMU_CRT_MMA_H

/* nvcc 13 warns when a program includes this internal header itself (the
 * toolkit's own mma.h defines __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
 * around it); cuemu-nvcc gives the same warning, which names mma.h rather
 * than the runtime's headers. */
#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
#warning "crt/mma.h is an internal header file and must not be used directly.  Please use mma.h instead."
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#define CUEMU_CRT_MMA_INTERNAL
#endif

#include "../mma.h"

#ifdef CUEMU_CRT_MMA_INTERNAL
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#undef CUEMU_CRT_MMA_INTERNAL
#endif

#endif /* CUEMU_CRT_MMA_H */
