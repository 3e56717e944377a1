/*
 * device_double_functions.h: CUDA's double-precision intrinsics
 * (__double_as_longlong, __fma_rn, __dadd_rn, ...), an internal header that
 * real code still includes by this name; nvcc 13 builds such code.
 */
#ifndef CUEMU_DEVICE_DOUBLE_FUNCTIONS_H
#define CUEMU_DEVICE_DOUBLE_FUNCTIONS_H

/* nvcc 13 warns when a program includes this internal header itself (the
 * toolkit's own headers define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
 * around theirs); cuemu-nvcc gives the same warning. */
#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
#warning "device_double_functions.h is an internal header file and must not be used directly.  This file will be removed in a future CUDA release.  Please use cuda_runtime_api.h or cuda_runtime.h instead."
#endif

#include "cuemu_intrinsics.h"

#endif /* CUEMU_DEVICE_DOUBLE_FUNCTIONS_H */
