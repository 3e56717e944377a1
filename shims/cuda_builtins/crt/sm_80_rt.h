/*
 * crt/sm_80_rt.h: the warp reduce functions (__reduce_add_sync and its
 * kin) of compute capability 8.0, __nv_associate_access_property and the
 * __nv_memcpy_async_shared_global_4, _8 and _16 built-ins behind
 * cuda::memcpy_async.
 * Real code includes it by its crt/ path, as the toolkit's own headers do;
 * nvcc 13 builds such code with a warning that the header is internal.
 * cuemu's definitions are in the header(s) below, so the toolkit's own,
 * which would define them again, is not read.
 */
#ifndef CUEMU_CRT_SM_80_RT_H
#define CUEMU_CRT_SM_80_RT_H

/* nvcc 13 warns when a program includes this internal header itself (the
 * toolkit's own headers define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
 * around theirs); cuemu-nvcc gives the same warning, and the header it
 * forwards to gives none of its own. */
#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
#warning "crt/sm_80_rt.h is an internal header file and must not be used directly.  Please use cuda_runtime_api.h or cuda_runtime.h instead."
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#define CUEMU_CRT_SM_80_RT_INTERNAL
#endif

#include "../cuemu_warp.h"
#include "../cuemu_address_space.h"
#include "../cuemu_async_copy_builtins.h"

#ifdef CUEMU_CRT_SM_80_RT_INTERNAL
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#undef CUEMU_CRT_SM_80_RT_INTERNAL
#endif

#endif /* CUEMU_CRT_SM_80_RT_H */
