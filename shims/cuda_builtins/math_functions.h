/*
 * math_functions.h: CUDA's math API (which includes the integer min and
 * max overloads); real code includes this name.
 */
#ifndef CUEMU_MATH_FUNCTIONS_H
#define CUEMU_MATH_FUNCTIONS_H

/* nvcc 13 warns when a program includes this internal header itself (the
 * toolkit's own headers define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
 * around theirs); cuemu-nvcc gives the same warning. */
#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
#warning "math_functions.h is an internal header file and must not be used directly.  This file will be removed in a future CUDA release.  Please use cuda_runtime_api.h or cuda_runtime.h instead."
#endif

#include "cuemu_intrinsics.h"
#include "cuemu_math.h"

#endif /* CUEMU_MATH_FUNCTIONS_H */
