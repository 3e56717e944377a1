/*
 * device_functions.h: CUDA's device intrinsics (integer, conversion and
 * rounded arithmetic); real code includes this name.
 */
#ifndef CUEMU_DEVICE_FUNCTIONS_H
#define CUEMU_DEVICE_FUNCTIONS_H

#include "cuemu_intrinsics.h"
#include "cuemu_math.h"

#endif /* CUEMU_DEVICE_FUNCTIONS_H */
