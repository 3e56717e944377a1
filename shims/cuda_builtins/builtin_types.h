/*
 * builtin_types.h: the types CUDA declares before any other header; here
 * that is the vector types, uint3 and dim3.
 */
#ifndef CUEMU_BUILTIN_TYPES_H
#define CUEMU_BUILTIN_TYPES_H

#include "device_types.h"
#include "vector_types.h"

#endif /* CUEMU_BUILTIN_TYPES_H */
