/*
 * host_defines.h: CUDA's qualifier and attribute macros (__global__,
 * __device__, __host__, __forceinline__, __align__, ...), an internal header
 * that older code still includes by this name; nvcc 13 builds such code. The
 * toolkit's own would define the qualifiers again, as attributes cuemu's
 * compile does not know, and a kernel's launch would be refused.
 */
#ifndef CUEMU_HOST_DEFINES_H
#define CUEMU_HOST_DEFINES_H

/* nvcc 13 warns when a program includes this internal header itself (the
 * toolkit's own headers define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
 * around theirs); cuemu-nvcc gives the same warning. */
#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
#warning "host_defines.h is an internal header file and must not be used directly.  This file will be removed in a future CUDA release.  Please use cuda_runtime_api.h or cuda_runtime.h instead."
#endif

#include "cuemu_qualifiers.h"

#endif /* CUEMU_HOST_DEFINES_H */
