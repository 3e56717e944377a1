/*
 * cuemu_rt_pinned_guard.h: racecheck of the host's accesses to pinned
 * memory that a queued asynchronous copy or memset still writes or reads,
 * before the host has synchronised with it (see cuemu_rt_pinned_guard.c,
 * docs/checkers.md). Internal to libcuemu.
 */
#ifndef CUEMU_RT_PINNED_GUARD_H
#define CUEMU_RT_PINNED_GUARD_H

#include <stddef.h>

struct cuemu_rt_graph_node_params;

/* A copy or memset node about to be queued on an asynchronous stream, by
 * the program's call (`owner`: the queued node's parameters, which name
 * its guards): the pinned host memory it
 * writes or reads is guarded until the host synchronises with it.
 * Returns 1 when it guards some. Host code, any thread. */
int cuemu__pinned_guard_issue(const void *owner,
                              const struct cuemu_rt_graph_node_params *p);

/* The node `owner` was not queued after all: its guards go. */
void cuemu__pinned_guard_cancel(const void *owner);

/* Around the run of the node `owner` (any node: only a queued one has
 * guards): its memory is its own while it runs (_run), then guarded again
 * until the host synchronises (_ran). */
void cuemu__pinned_guard_run(const void *owner);
void cuemu__pinned_guard_ran(const void *owner);
/* For a copy made in parts: whether the node `owner` has guards, and,
 * instead of _run, the part of it that runs now (`bytes` from `offset`
 * of each side), whose bytes alone are its own until the next part or
 * _ran. */
int cuemu__pinned_guard_owns(const void *owner);
void cuemu__pinned_guard_window(const void *owner, size_t offset,
                                size_t bytes);

/* The host has synchronised (a synchronisation call, a query that found
 * the work done, a host function of a stream starting): what has run is
 * the host's again. */
void cuemu__pinned_guard_sync(void);

/* The `size` bytes at `base` are freed, unregistered or newly allocated
 * (a guard may cover the rest of a page that a piece of a slab now
 * holds): the guards there go (size SIZE_MAX from NULL: every guard, at
 * cudaDeviceReset). */
void cuemu__pinned_guard_forget(const void *base, size_t size);

#endif
