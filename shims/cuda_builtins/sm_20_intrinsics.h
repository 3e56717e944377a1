/*
 * sm_20_intrinsics.h: a CUDA header that programs include by this name for
 * __syncthreads_count, __syncthreads_and and __syncthreads_or,
 * __threadfence_system, the legacy votes and the address-space predicates.
 * nvcc 13 builds such a program with no warning (this header is not one of
 * those it calls internal); cuemu's definitions are in the header(s) below,
 * so the toolkit's own, which would define them again, is not read.
 */
#ifndef CUEMU_SM_20_INTRINSICS_H
#define CUEMU_SM_20_INTRINSICS_H

#include "cuemu_sync.h"
#include "cuemu_memory.h"
#include "cuemu_warp.h"
#include "cuemu_address_space.h"

#endif /* CUEMU_SM_20_INTRINSICS_H */
