/*
 * device_double_functions.h: CUDA's double-precision intrinsics
 * (__double_as_longlong, __fma_rn, __dadd_rn, ...), an internal header that
 * real code still includes by this name; nvcc 13 builds such code.
 */
#ifndef CUEMU_DEVICE_DOUBLE_FUNCTIONS_H
#define CUEMU_DEVICE_DOUBLE_FUNCTIONS_H

#include "cuemu_intrinsics.h"

#endif /* CUEMU_DEVICE_DOUBLE_FUNCTIONS_H */
