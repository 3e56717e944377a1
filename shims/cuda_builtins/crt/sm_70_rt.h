/*
 * crt/sm_70_rt.h: the warp match functions (__match_any_sync,
 * __match_all_sync), __nanosleep and the 16-bit atomicCAS of compute
 * capability 7.0.
 * Real code includes it by its crt/ path, as the toolkit's own headers do;
 * nvcc 13 builds such code with a warning that the header is internal.
 * cuemu's definitions are in the header(s) below, so the toolkit's own,
 * which would define them again, is not read.
 */
#ifndef CUEMU_CRT_SM_70_RT_H
#define CUEMU_CRT_SM_70_RT_H

/* nvcc 13 warns when a program includes this internal header itself (the
 * toolkit's own headers define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
 * around theirs); cuemu-nvcc gives the same warning, and the header it
 * forwards to gives none of its own. */
#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
#warning "crt/sm_70_rt.h is an internal header file and must not be used directly.  Please use cuda_runtime_api.h or cuda_runtime.h instead."
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#define CUEMU_CRT_SM_70_RT_INTERNAL
#endif

#include "../cuemu_warp.h"
#include "../cuemu_timing.h"
#include "../cuemu_atomics.h"

#ifdef CUEMU_CRT_SM_70_RT_INTERNAL
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#undef CUEMU_CRT_SM_70_RT_INTERNAL
#endif

#endif /* CUEMU_CRT_SM_70_RT_H */
