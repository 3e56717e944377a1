/*
 * common_functions.h: an internal CUDA header that real code still includes
 * by this name; nvcc 13 builds such code. CUDA's brings the C library
 * headers whose functions device code may call (memset, memcpy, clock,
 * printf, malloc, assert) and the math API.
 */
#ifndef CUEMU_COMMON_FUNCTIONS_H
#define CUEMU_COMMON_FUNCTIONS_H

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
