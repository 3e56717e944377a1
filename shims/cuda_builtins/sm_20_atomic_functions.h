/*
 * sm_20_atomic_functions.h: a CUDA header that programs include by this name
 * for atomicAdd on float. nvcc 13 builds such a program with no warning
 * (this header is not one of those it calls internal); cuemu's definitions
 * are in the header(s) below, so the toolkit's own, which would define them
 * again, is not read.
 */
#ifndef CUEMU_SM_20_ATOMIC_FUNCTIONS_H
#define CUEMU_SM_20_ATOMIC_FUNCTIONS_H

#include "cuemu_atomics.h"

#endif /* CUEMU_SM_20_ATOMIC_FUNCTIONS_H */
