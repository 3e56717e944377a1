/*
 * sm_35_intrinsics.h: a CUDA header that programs include by this name for
 * the intrinsics of sm_32_intrinsics.h, which CUDA's header of this name
 * includes. nvcc 13 builds such a program with no warning (this header is
 * not one of those it calls internal); cuemu's definitions are in the
 * header(s) below, so the toolkit's own, which would define them again, is
 * not read.
 */
#ifndef CUEMU_SM_35_INTRINSICS_H
#define CUEMU_SM_35_INTRINSICS_H

#include "cuemu_memory.h"
#include "cuemu_intrinsics.h"

#endif /* CUEMU_SM_35_INTRINSICS_H */
