/*
 * cuemu_rt_managed_guard.h: the host's accesses to managed memory while a
 * kernel of a device without concurrent managed access (CUEMU_DEVICE's
 * cma=0) may run, reported as the fault a GPU gives them (see
 * cuemu_rt_managed_guard.c, docs/runtime.md).
 */
#ifndef CUEMU_RT_MANAGED_GUARD_H
#define CUEMU_RT_MANAGED_GUARD_H

#include <stddef.h>

/* A managed allocation made (attached globally: `global`) or freed. */
void cuemu__managed_guard_add(void *base, size_t size, int global);
void cuemu__managed_guard_remove(void *base, size_t size);
/* Around a launch from the host into a stream of `device`: the calling
 * thread may touch managed memory until the launch is issued, then not
 * until its next synchronisation, when the device lacks concurrent
 * managed access. */
void cuemu__managed_guard_before_launch(void);
void cuemu__managed_guard_after_launch(int device, const char *kernel);
/* After a launch from the host into `stream` (a kernel, or a graph with
 * kernel nodes, named `kernel`), issued or, with synchronous streams
 * (CUEMU_STREAMS=sync), run: cuemu__managed_guard_after_launch on the
 * stream's device; nothing on an execution thread or in kernel code. */
void cuemu__managed_guard_launched(void *stream, const char *kernel);
/* A __managed__ variable registered (its pages get the key) or forgotten
 * (its module unloaded). */
void cuemu__managed_guard_variable(const void *p, size_t size);
void cuemu__managed_guard_variable_gone(const void *p);
/* A synchronisation of the calling thread: managed memory is its again,
 * and every other host thread's at its next touch. */
void cuemu__managed_guard_sync(void);

#endif
