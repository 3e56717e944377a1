/*
 * cuemu_builtin_vars.h: threadIdx, blockIdx, blockDim, gridDim and warpSize.
 *
 * They are libcuemu's thread-local variables (see cuemu_device.h), declared
 * here with CUDA's types. blockDim and gridDim are uint3 rather than dim3
 * (dim3 converts from uint3) because thread-local storage needs a trivial
 * type. Unlike CUDA, assigning to threadIdx compiles; do not.
 */
#ifndef CUEMU_BUILTIN_VARS_H
#define CUEMU_BUILTIN_VARS_H

#include <cuemu/cuemu_device.h>

#include "cuemu_optimized.h"
#include "vector_types.h"

/* blockIdx, blockDim and gridDim are declared const, as CUDA has them
 * (kernel code cannot assign them): a thread's values never change while
 * it runs, and a thunk runs the threads of one block. So the compiler may
 * keep them across calls, in particular across a __syncthreads() that most
 * threads never reach, whose condition then stays invariant in the thunk's
 * loop over threads (which is unswitched: the barrier-free copy runs as a
 * barrier-free kernel does). And in a checked build (cuemu-cc --check=race,
 * mem or init: -fsanitize=thread, see cuemu_check_entry.h) the
 * instrumentation leaves reads of read-only objects alone. Not threadIdx,
 * which the thunks write between the threads they run. */
#if defined(__SANITIZE_THREAD__)
#define CUEMU_CHECKED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUEMU_CHECKED_BUILD 1
#endif
#endif

/* A checked build compiled by g++ for x86-64 declares threadIdx const as
 * well, so that the instrumentation leaves the kernel's reads of it alone,
 * and the thunks write it with an assembler store, which it does not see
 * (cuemu::set_thread_idx in cuemu_kernel_thunks.h): g++ orders the kernel's
 * reads after that store, which names threadIdx as its output. The value is
 * the same before and after any call the thread makes (a barrier switches
 * threads, and the scheduler writes each thread's value back before it
 * resumes), so a copy kept across a call is right. Not with clang++, whose
 * optimiser takes memory of a constant global for memory nothing writes. */
#if defined(CUEMU_CHECKED_BUILD) && defined(__x86_64__) && \
    !defined(__clang__) && defined(__GNUC__)
#define CUEMU_THREAD_IDX_CONST 1
#endif

extern "C" {
#ifdef CUEMU_THREAD_IDX_CONST
extern __thread const uint3 threadIdx CUEMU_TLS_IE;
#else
extern __thread uint3 threadIdx CUEMU_TLS_IE;
#endif
extern __thread const uint3 blockIdx CUEMU_TLS_IE;
extern __thread const uint3 blockDim CUEMU_TLS_IE;
extern __thread const uint3 gridDim CUEMU_TLS_IE;
extern const int warpSize;
}

#if !CUEMU_OPTIMIZED && defined(__CUDACC__)
/* In a debug build (-g -O0), every CUDA unit's debugging information
 * declares the four variables, used or not, so that gdb can parse
 * `break k.cu:12 if blockIdx.x == 2` before libcuemu, which defines them,
 * is loaded (docs/debugging.md). Not host code (no __CUDACC__), which has
 * no built-in variables and may be linked without libcuemu: a CPU back end
 * that includes <cuda_runtime.h> for the vector types alone, compiled by
 * the host compiler with the toolkit's include folder. */
__attribute__((used)) static unsigned cuemu_debug_builtin_vars() {
  return threadIdx.x + blockIdx.x + blockDim.x + gridDim.x;
}
#endif

#endif /* CUEMU_BUILTIN_VARS_H */
