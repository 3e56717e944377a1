/*
 * math_functions.h: CUDA's math API (which includes the integer min and
 * max overloads); real code includes this name.
 */
#ifndef CUEMU_MATH_FUNCTIONS_H
#define CUEMU_MATH_FUNCTIONS_H

#include "cuemu_intrinsics.h"
#include "cuemu_math.h"

#endif /* CUEMU_MATH_FUNCTIONS_H */
