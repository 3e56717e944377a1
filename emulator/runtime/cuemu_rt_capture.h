/*
 * cuemu_rt_capture.h: the hooks by which the stream operations of the
 * runtime API take part in stream capture (cuemu_rt_graph_capture.c). Each
 * operation on a stream asks its hook first: the hook returns
 * CUEMU__RT_NOT_CAPTURED when the operation should run as usual, or else a
 * CUDA code: cudaSuccess when the operation was recorded as a node of the
 * capture, or the error CUDA gives for it during a capture (already
 * recorded with cuemu_rt_error(); where CUDA does, the capture is
 * invalidated). Internal to libcuemu; host code, any thread.
 *
 * Stream-ordered allocation (cudaMallocAsync / cudaFreeAsync, written
 * elsewhere) joins with cuemu__rt_capture_alloc() and
 * cuemu__rt_capture_free(): called first, they make memory allocation and
 * free nodes of a capturing stream (see below).
 */
#ifndef CUEMU_RT_CAPTURE_H
#define CUEMU_RT_CAPTURE_H

#include <stddef.h>

#include "device/cuemu_device_launch.h"

#define CUEMU__RT_NOT_CAPTURED (-1)

/* A runtime launch (<<<>>>, cudaLaunchKernel, cudaLaunchCooperativeKernel)
 * into r->stream: validated as a launch would be, then recorded as a kernel
 * node holding a copy of the arguments (the descriptor's parameter sizes). */
int cuemu__rt_capture_launch(const cuemu_launch_request *r);

/* cudaLaunchHostFunc: a host node. */
int cuemu__rt_capture_host_func(void *stream, void (*fn)(void *), void *data);

/* cudaMemcpyToSymbolAsync / FromSymbolAsync: a memcpy node of `count`
 * bytes (cudaMemcpyDefault). */
int cuemu__rt_capture_copy(void *stream, void *dst, const void *src,
                           size_t count);

/* Work on a stream that is one node (a copy in cudaMemcpy3DParms terms,
 * arrays included; a memset of 1, 2 or 4-byte elements; an external
 * semaphore signal or wait): that node, its parameters checked and copied
 * as cudaGraphAddNode's. */
struct cuemu_rt_graph_node_params;
/* Non-zero when `p` is host memory that CUDA does not know (pageable): a
 * copy from or to it runs when issued, after its stream's earlier work. */
int cuemu__rt_pageable(const void *p);

int cuemu__rt_capture_node(void *stream,
                           const struct cuemu_rt_graph_node_params *params);

/* cudaGraphLaunch: a child-graph node holding a copy of `graph`. */
struct cuemu_rt_graph;
int cuemu__rt_capture_graph(void *stream, struct cuemu_rt_graph *graph);

/* cudaEventRecord(WithFlags): flags 0 marks the event as recorded in the
 * capture (for streams that wait on it), 1 (cudaEventRecordExternal) makes
 * an event record node. Recording outside a capture forgets the mark. */
int cuemu__rt_capture_event_record(void *event, void *stream, unsigned flags);

/* cudaStreamWaitEvent: joins the stream to the capture the event was
 * recorded in (a fork), or adds an event wait node (flags 1,
 * cudaEventWaitExternal). */
int cuemu__rt_capture_wait_event(void *stream, void *event, unsigned flags);

/* cudaStreamSynchronize, cudaStreamQuery, cudaStreamAddCallback on
 * `stream`: cudaErrorStreamCaptureUnsupported when it captures (the capture
 * is invalidated), cudaErrorStreamCaptureImplicit for the legacy default
 * stream while a blocking stream captures; else CUEMU__RT_NOT_CAPTURED. */
int cuemu__rt_capture_stream_sync(void *stream);

/* A call CUDA calls potentially unsafe during capture (a synchronous copy
 * or memset, cudaMalloc, cudaFree): returns
 * cudaErrorStreamCaptureUnsupported (and invalidates the captures that
 * forbid it) when the calling thread's capture mode forbids it; with
 * `legacy` (the call uses stream 0), cudaErrorStreamCaptureImplicit while
 * a blocking stream captures, or under per-thread default streams
 * cudaErrorStreamCaptureUnsupported while the thread's own default stream
 * captures (invalidated); else 0.
 * Not checked for libcuemu's own calls on behalf of a stream operation. */
int cuemu__rt_capture_unsafe_call(int legacy);

/* cudaDeviceSynchronize: cudaErrorStreamCaptureUnsupported while any
 * stream (of any thread) captures in global or thread-local mode (those
 * captures are invalidated); else 0 (relaxed captures allow it). */
int cuemu__rt_capture_device_sync(void);

/* cudaEventQuery, cudaEventSynchronize, cudaEventElapsedTime:
 * cudaErrorCapturedEvent when the event was last recorded in a capture,
 * else 0. */
int cuemu__rt_capture_event_check(void *event);

/* Stream-ordered allocation on a capturing stream: cudaMallocAsync becomes
 * a memory allocation node, whose memory (`size` bytes, device memory of
 * the runtime, *ptr) the graph allocates now and owns, as CUDA's graphs
 * own theirs; cudaFreeAsync becomes a memory free node of `ptr`. Call them
 * before allocating or freeing anything: on CUEMU__RT_NOT_CAPTURED, do the
 * usual. */
int cuemu__rt_capture_alloc(void *stream, size_t size, void **ptr);
int cuemu__rt_capture_free(void *stream, void *ptr);

#endif /* CUEMU_RT_CAPTURE_H */
