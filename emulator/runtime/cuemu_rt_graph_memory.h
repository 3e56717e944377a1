/*
 * cuemu_rt_graph_memory.h: the memory of graph memory allocation nodes:
 * its life as CUDA gives it (allocated when the allocation node runs,
 * freed by a free node, cudaFree or cudaFreeAsync), as the allocation
 * table and memcheck see it, and the device's graph memory counters.
 * Internal to libcuemu.
 */
#ifndef CUEMU_RT_GRAPH_MEMORY_H
#define CUEMU_RT_GRAPH_MEMORY_H

#include <stddef.h>

struct cuemu__graph_memory;
struct cuemu_rt_graph;

/* Enters a new node's memory (just allocated by cudaMalloc) in the list of
 * graph memory: from then on it is freed in the allocation table (its
 * storage kept) until the node runs. */
void cuemu__graph_memory_enter(struct cuemu__graph_memory *m);

/* The last node that holds `m` is freed: out of the list; its storage is
 * kept as reserved graph memory until cudaDeviceGraphMemTrim when an
 * executable graph held it, else freed. */
void cuemu__graph_memory_leave(struct cuemu__graph_memory *m);

/* An executable graph holds `m` (instantiated) or no longer does. */
void cuemu__graph_memory_hold(struct cuemu__graph_memory *m, int held);

/* The allocation node of `m` runs: the memory is allocated again, at the
 * same address (and counted as used). */
void cuemu__graph_memory_allocated(struct cuemu__graph_memory *m);

/* A free node runs: frees the graph allocation at ptr (the storage stays,
 * so that the next launch finds it at the same address; memcheck reports a
 * use after this). Returns a CUDA code: cudaErrorInvalidValue when ptr is
 * not an allocated graph allocation. */
int cuemu__graph_memory_free_node(const void *ptr);

/* cudaFree, or cudaFreeAsync run when issued, of ptr outside the graph
 * that allocated it: returns 1 when ptr is the start of an allocated graph
 * allocation, now freed as a free node frees it (in issue order too); 0
 * for any other pointer (one already freed included: a double free, which
 * the caller reports). */
int cuemu__graph_memory_free(const void *ptr);

/* cudaFreeAsync of ptr into an asynchronous stream: when ptr is a graph
 * allocation allocated in issue order, it is freed in issue order now and
 * the free is queued on `stream` (*code: the CUDA code of the call); returns
 * 1 then, else 0 (the caller frees ptr as any other pointer). */
int cuemu__graph_memory_queue_free(void *ptr, void *stream, int *code);

/* Non-zero when the `extent` bytes at p lie inside a graph allocation
 * allocated in issue order (a launch that allocates it was issued, and no
 * free since): stream work issued after that launch may use them though
 * the allocation node has not run yet. */
int cuemu__graph_memory_issued(const void *p, size_t extent);

/* Non-zero when g, a graph inside it or a conditional body has a memory
 * allocation or free node. */
int cuemu__graph_has_memory_nodes(struct cuemu_rt_graph *g);
/* Non-zero when g, or a graph inside it, has a conditional node. */
int cuemu__graph_has_conditional_nodes(struct cuemu_rt_graph *g);

/* When a launch of executable graph g is issued: CUDA's relaunch rule is
 * checked in issue order (an allocation that the graph's previous launch
 * made and that no free issued since has freed fails the launch with
 * cudaErrorInvalidValue, unless auto_free:
 * cudaGraphInstantiateFlagAutoFreeOnLaunch); then the launch's allocations
 * and frees count as issued, by launch number `launch`. Returns a CUDA
 * code. */
int cuemu__graph_memory_issue_launch(struct cuemu_rt_graph *g, int auto_free,
                                     unsigned long long launch);

/* When a launch of g that frees on launch runs: its allocations still
 * allocated are freed first. */
void cuemu__graph_memory_free_on_launch(struct cuemu_rt_graph *g);

/* An upload of executable graph g maps its memory (counted as used from
 * then on); a launch of g is done (it ran, or was not queued after all):
 * its memory is no longer held by a pending launch against a trim. */
void cuemu__graph_memory_upload(struct cuemu_rt_graph *g);
void cuemu__graph_memory_launch_done(struct cuemu_rt_graph *g);
/* Launch number `launch` of g failed when it ran: its allocations whose
 * nodes did not run, and that no launch issued since allocates, are no
 * longer allocated in issue order (so the graph may be launched again). */
void cuemu__graph_memory_launch_failed(struct cuemu_rt_graph *g,
                                       unsigned long long launch);

#endif
