/*
 * cuemu_rt_stream.c: streams of the CUDA runtime API. Every operation runs
 * when it is issued (see cuemu_runtime_streams.h), so a stream holds only
 * its flags and priority; handles are the device's (device/cuemu_handles.h).
 */
#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_pool_deps.h"

int cuemu__rt_check_sticky_stream(void *s) {
  int e = cuemu__rt_check_sticky();
  if (e)
    return e;
  return cuemu__rt_check_stream(s);
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
  cuemu_handle_state state = {flags, priority, 0, 0, 0};
  if (cuemu__handle_create(CUEMU_HANDLE_STREAM, &state, stream) !=
      CUEMU_SUCCESS)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  return cudaSuccess;
}

int cuemu_rt_stream_destroy(void *s) {
  /* Destroying a default stream is an invalid handle for CUDA too. */
  /* Nothing is pending: it goes at once. */
  if (!cuemu__handle_destroy(CUEMU_HANDLE_STREAM, s))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  cuemu__rt_stream_config_forget(s);
  cuemu__pool_deps_forget(s);
  return cuemu__rt_check_sticky();
}

/* Synchronizing with a capturing stream is an error (cuemu_rt_capture.h). */
static int check_sync(void *s) {
  cuemu__rt_sync_point();
  int e = cuemu__rt_check_sticky_stream(s);
  if (e)
    return e;
  e = cuemu__rt_capture_stream_sync(s);
  return e == CUEMU__RT_NOT_CAPTURED ? cudaSuccess : e;
}

int cuemu_rt_stream_synchronize(void *s) { return check_sync(s); }

int cuemu_rt_stream_query(void *s) { return check_sync(s); }

/* Reads a stream's flags and priority (defaults for the default
 * streams); returns a CUDA code. */
static int read_stream(void *s, unsigned *flags, int *priority) {
  int e = cuemu__rt_check_sticky_stream(s);
  if (e)
    return e;
  cuemu_handle_state state = {0, 0, 0, 0, 0};
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

int cuemu_rt_launch_host_func(void *s, void (*fn)(void *), void *data) {
  if (!fn)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = cuemu__rt_check_sticky_stream(s);
  if (e)
    return e;
  e = cuemu__rt_capture_host_func(s, fn, data);
  if (e != CUEMU__RT_NOT_CAPTURED)
    return e;
  fn(data);
  return cudaSuccess;
}

int cuemu_rt_stream_add_callback(void *s,
                                 void (*trampoline)(void *, int, void *,
                                                    void *),
                                 void *callback, void *data, unsigned flags) {
  if (!trampoline || !callback || flags != 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = cuemu__rt_check_stream(s);
  if (e)
    return e;
  e = cuemu__rt_capture_stream_sync(s);
  if (e != CUEMU__RT_NOT_CAPTURED)
    return e;
  /* A callback runs after an error too, and is told the stream's error. */
  cuemu__rt_sync_point(); /* CUDA prints before a callback runs */
  trampoline(s, cuemu_rt_sticky(), callback, data);
  return cuemu__rt_check_sticky();
}
