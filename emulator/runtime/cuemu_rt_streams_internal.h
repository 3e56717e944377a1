/*
 * cuemu_rt_streams_internal.h: what the files of streams, events, launches
 * and symbols share inside libcuemu: the check of a stream handle, the
 * dynamic shared-memory limit of a program's kernel and the sticky error.
 */
#ifndef CUEMU_RT_STREAMS_INTERNAL_H
#define CUEMU_RT_STREAMS_INTERNAL_H

#include <stddef.h>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_rt_types.h>

/* 0 when `stream` is a live stream or a default stream (0,
 * cudaStreamLegacy, cudaStreamPerThread), else
 * cudaErrorInvalidResourceHandle. Records nothing. */
int cuemu__rt_stream_check(void *stream);

/* The dynamic shared-memory limit of a launch of `kernel` by
 * cuemu_program_launch() with `args` (see cuemu_kernel_thunks.h of the shims: a
 * kernel called through a pointer has it in args[param_count]). */
size_t cuemu__rt_kernel_shared_limit(const cuemu_kernel_desc *kernel,
                                     void **args);

/* The sticky error, recorded as the last error too (0 when none). */
int cuemu__rt_sticky_check(void);

#endif /* CUEMU_RT_STREAMS_INTERNAL_H */
