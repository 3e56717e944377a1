/*
 * crt/host_defines.h: CUDA's qualifier and attribute macros (__global__,
 * __device__, __host__, __forceinline__, __align__, ...).
 * Real code includes it by its crt/ path, as the toolkit's own headers do;
 * nvcc 13 builds such code with a warning that the header is internal.
 * cuemu's definitions are in the header(s) below, so the toolkit's own,
 * which would define them again, is not read.
 */
#ifndef CUEMU_CRT_HOST_DEFINES_H
#define CUEMU_CRT_HOST_DEFINES_H

/* nvcc 13 warns when a program includes this internal header itself (the
 * toolkit's own headers define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
 * around theirs); cuemu-nvcc gives the same warning, and the header it
 * forwards to gives none of its own. */
#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
#warning "crt/host_defines.h is an internal header file and must not be used directly.  Please use cuda_runtime_api.h or cuda_runtime.h instead."
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#define CUEMU_CRT_HOST_DEFINES_INTERNAL
#endif

#include "../host_defines.h"

#ifdef CUEMU_CRT_HOST_DEFINES_INTERNAL
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#undef CUEMU_CRT_HOST_DEFINES_INTERNAL
#endif

#endif /* CUEMU_CRT_HOST_DEFINES_H */
