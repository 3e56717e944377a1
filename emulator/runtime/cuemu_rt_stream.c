/*
 * cuemu_rt_stream.c: streams of the CUDA runtime API. A stream's handle
 * holds its flags and priority (device/cuemu_handles.h); its pending work
 * is in its queue (cuemu_rt_stream_queue.h, docs/streams.md).
 */
#include <stdlib.h>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "core/cuemu_allocations.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_pinned_guard.h"
#include "runtime/cuemu_rt_pool_deps.h"
#include "runtime/cuemu_rt_stream_queue.h"

int cuemu__rt_check_sticky_stream(void *s) {
  int e = cuemu__rt_check_sticky();
  if (e)
    return e;
  return cuemu__rt_stream_valid(s);
}

int cuemu_rt_stream_create(void **stream, unsigned flags, int priority) {
  if (!stream || flags > 1u)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* Kernel code creates only non-blocking streams (the device runtime). */
  if (cuemu_thread_in_kernel() && flags != 1u)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = cuemu__rt_check_sticky();
  if (e)
    return e;
  if (priority > CUEMU_RT_STREAM_LEAST_PRIORITY)
    priority = CUEMU_RT_STREAM_LEAST_PRIORITY;
  if (priority < CUEMU_RT_STREAM_GREATEST_PRIORITY)
    priority = CUEMU_RT_STREAM_GREATEST_PRIORITY;
  cuemu_handle_state state = {flags, priority, 0, 0, 0, 0};
  if (cuemu__handle_create(CUEMU_HANDLE_STREAM, &state, stream) !=
      CUEMU_SUCCESS)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  cuemu__allocation_written(stream, sizeof *stream);
  return cudaSuccess;
}

int cuemu_rt_stream_destroy(void *s) {
  /* Destroying a default stream is an invalid handle for CUDA too. The
   * stream's pending work is finished first (CUDA lets it finish after
   * the call returns: waiting is one of the orders it allows). */
  if (cuemu__handle_is_default_stream(s) ||
      !cuemu__handle_get(CUEMU_HANDLE_STREAM, s, NULL))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  int drained = cuemu__stream_drain(s);
  cuemu__stream_forget(s);
  if (!cuemu__handle_destroy(CUEMU_HANDLE_STREAM, s))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  cuemu__rt_stream_config_forget(s);
  cuemu__pool_deps_forget(s);
  return drained ? drained : cuemu__rt_check_sticky();
}

/* Synchronizing with a capturing stream is an error (cuemu_rt_capture.h).
 * cudaStreamSynchronize waits for the stream (cuemu__rt_check_stream);
 * the sticky error is checked after the wait, as a kernel that failed
 * makes it. */
static int check_sync(void *s, int query) {
  int e = cuemu__rt_stream_valid(s);
  if (e)
    return e;
  e = cuemu__rt_capture_stream_sync(s);
  if (e != CUEMU__RT_NOT_CAPTURED)
    return e;
  /* cudaStreamQuery: cudaErrorNotReady while work is pending, which is
   * not left as the last error (cuemu_rt_error). */
  if (query && cuemu__stream_busy(s))
    return cuemu_rt_error(cudaErrorNotReady);
  e = cuemu__rt_check_stream(s);
  cuemu__rt_sync_point();
  return e ? e : cuemu__rt_check_sticky();
}

int cuemu_rt_stream_synchronize(void *s) { return check_sync(s, 0); }

int cuemu_rt_stream_query(void *s) { return check_sync(s, 1); }

/* Reads a stream's flags and priority (defaults for the default
 * streams); returns a CUDA code. */
static int read_stream(void *s, unsigned *flags, int *priority) {
  int e = cuemu__rt_check_sticky_stream(s);
  if (e)
    return e;
  cuemu_handle_state state = {0, 0, 0, 0, 0, 0};
  cuemu__handle_get(CUEMU_HANDLE_STREAM, s, &state); /* a default: zeros */
  *flags = state.flags;
  *priority = state.priority;
  return cudaSuccess;
}

int cuemu_rt_stream_get_flags(void *s, unsigned *flags) {
  int priority;
  if (!flags)
    return cuemu_rt_error(cudaErrorInvalidValue);
  return read_stream(s, flags, &priority);
}

int cuemu_rt_stream_get_priority(void *s, int *priority) {
  unsigned flags;
  if (!priority)
    return cuemu_rt_error(cudaErrorInvalidValue);
  return read_stream(s, &flags, priority);
}

int cuemu_rt_stream_get_device(void *s, int *device) {
  if (!device)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = cuemu__rt_check_sticky_stream(s);
  if (e)
    return e;
  *device = cuemu__handle_stream_device(s);
  return cudaSuccess;
}

int cuemu_rt_device_stream_priority_range(int *least, int *greatest) {
  if (least)
    *least = CUEMU_RT_STREAM_LEAST_PRIORITY;
  if (greatest)
    *greatest = CUEMU_RT_STREAM_GREATEST_PRIORITY;
  return cuemu__rt_check_sticky();
}

/* A host function that runs on the stream's execution thread. */
static int defer_host(void *s, void (*fn)(void *), void *data) {
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_HOST};
  p.u.host.fn = fn;
  p.u.host.data = data;
  return cuemu__stream_defer_node(s, &p);
}

/* A cudaLaunchHostFunc's call, made where it runs. */
typedef struct host_call {
  void (*fn)(void *);
  void *data;
} host_call;

/* The kernels' printf output comes out before a host function runs, as
 * before a stream callback: the programming guide's "Formatted Output"
 * lists "prior to executing a stream callback added by
 * cudaStreamAddCallback", and cudaLaunchHostFunc, the call that replaces
 * it, is documented to start as a synchronisation of an event recorded
 * just before it, which is a point of that list too (docs/streams.md). */
static void run_host_call(void *arg) {
  host_call c = *(host_call *)arg;
  free(arg);
  cuemu__rt_sync_point();
  c.fn(c.data);
}

int cuemu_rt_launch_host_func(void *s, void (*fn)(void *), void *data) {
  if (!fn)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = cuemu__rt_check_sticky();
  if (e || (e = cuemu__rt_stream_valid(s)) != 0)
    return e;
  e = cuemu__rt_capture_host_func(s, fn, data);
  if (e != CUEMU__RT_NOT_CAPTURED)
    return e;
  if (!cuemu__stream_inline()) {
    host_call *c = malloc(sizeof *c);
    if (!c)
      return cuemu_rt_error(cudaErrorMemoryAllocation);
    *c = (host_call){fn, data};
    e = defer_host(s, run_host_call, c);
    if (e)
      free(c);
    return e;
  }
  cuemu__rt_sync_point();
  fn(data);
  return cudaSuccess;
}

/* A cudaStreamAddCallback's call, made where it runs. */
typedef struct stream_callback {
  void (*trampoline)(void *, int, void *, void *);
  void *stream, *callback, *data;
} stream_callback;

static void run_callback(void *arg) {
  stream_callback c = *(stream_callback *)arg;
  free(arg);
  /* A callback runs after an error too, and is told the stream's error;
   * CUDA prints the kernels' output before a callback runs. */
  cuemu__rt_sync_point();
  /* It may tell the host that the work before it is done (racecheck of
   * pinned memory, as for a host node: cuemu_rt_pinned_guard.h). */
  cuemu__pinned_guard_sync();
  c.trampoline(c.stream, cuemu_rt_sticky(), c.callback, c.data);
}

/* A queued callback: an item of its own, not a host node, since a graph's
 * nodes (and so a host function of cudaLaunchHostFunc) do not run once
 * the device's error is sticky, where a callback must run and be told the
 * error (tests/programs/trialbook/callback_after_fault.cu). */
static int call_callback(void *arg, void *stream) {
  (void)stream;
  run_callback(arg);
  return cudaSuccess;
}

int cuemu_rt_stream_add_callback(void *s,
                                 void (*trampoline)(void *, int, void *,
                                                    void *),
                                 void *callback, void *data, unsigned flags) {
  if (!trampoline || !callback || flags != 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = cuemu__rt_stream_valid(s);
  if (e)
    return e;
  e = cuemu__rt_capture_stream_sync(s);
  if (e != CUEMU__RT_NOT_CAPTURED)
    return e;
  stream_callback *c = malloc(sizeof *c);
  if (!c)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  *c = (stream_callback){trampoline, s, callback, data};
  if (!cuemu__stream_inline()) {
    e = cuemu__stream_defer_call(s, call_callback, c);
    if (e)
      free(c);
    return e ? e : cuemu__rt_check_sticky();
  }
  run_callback(c);
  return cuemu__rt_check_sticky();
}
