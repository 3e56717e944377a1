/*
 * common_functions.h: an internal CUDA header that real code still includes
 * by this name; nvcc 13 builds such code. CUDA's brings the C library
 * headers whose functions device code may call (memset, memcpy, clock,
 * printf, malloc, assert) and the math API.
 */
#ifndef CUEMU_COMMON_FUNCTIONS_H
#define CUEMU_COMMON_FUNCTIONS_H

/* nvcc 13 warns when a program includes this internal header itself (the
 * toolkit's own headers define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
 * around theirs); cuemu-nvcc gives the same warning. */
#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
#warning "common_functions.h is an internal header file and must not be used directly.  This file will be removed in a future CUDA release.  Please use cuda_runtime_api.h or cuda_runtime.h instead."
#endif

#include <string.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>
#ifdef __cplusplus
#include <new>
#endif

#include "cuemu_intrinsics.h"
#include "cuemu_math.h"

#endif /* CUEMU_COMMON_FUNCTIONS_H */
