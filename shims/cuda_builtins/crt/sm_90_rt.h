/*
 * crt/sm_90_rt.h: the address predicates __isCtaShared and
 * __isClusterShared, the thread block cluster intrinsics (__clusterDim,
 * __cluster_map_shared_rank, __cluster_barrier_arrive and their kin),
 * __threadfence_cluster and the float2 and float4 atomicAdd of compute
 * capability 9.0.
 * Real code includes it by its crt/ path, as the toolkit's own headers do;
 * nvcc 13 builds such code with a warning that the header is internal.
 * cuemu's definitions are in the header(s) below, so the toolkit's own,
 * which would define them again, is not read.
 * Not given: __clusterDimIsSpecified and __cluster_map_shared_multicast
 * (cuemu_cluster_intrinsics.h says why), and the 16-byte atomicCAS and
 * atomicExch templates, which cuemu does not have.
 */
#ifndef CUEMU_CRT_SM_90_RT_H
#define CUEMU_CRT_SM_90_RT_H

/* nvcc 13 warns when a program includes this internal header itself (the
 * toolkit's own headers define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
 * around theirs); cuemu-nvcc gives the same warning, and the header it
 * forwards to gives none of its own. */
#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
#warning "crt/sm_90_rt.h is an internal header file and must not be used directly.  Please use cuda_runtime_api.h or cuda_runtime.h instead."
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#define CUEMU_CRT_SM_90_RT_INTERNAL
#endif

#include "../cuemu_address_space.h"
#include "../cuemu_cluster_intrinsics.h"
#include "../cuemu_memory.h"
#include "../cuemu_atomics.h"

#ifdef CUEMU_CRT_SM_90_RT_INTERNAL
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#undef CUEMU_CRT_SM_90_RT_INTERNAL
#endif

#endif /* CUEMU_CRT_SM_90_RT_H */
