/*
 * cuemu_rt_event.c: events of the CUDA runtime API. An event holds the
 * host time at which its last record ran (in its stream's order, on the
 * stream's execution thread when streams are asynchronous:
 * docs/streams.md); handles are the device's (device/cuemu_handles.h).
 */
#include <time.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "device/cuemu_handles.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_ipc_event.h"
#include "runtime/cuemu_rt_pinned_guard.h"
#include "runtime/cuemu_rt_pool_deps.h"
#include "runtime/cuemu_rt_stream_queue.h"

#define EVENT_BLOCKING_SYNC 0x1u
#define EVENT_DISABLE_TIMING 0x2u
#define EVENT_INTERPROCESS 0x4u

/* The sticky error, else the event's validity; records a failure. */
static int check(void *e) {
  int err = cuemu__rt_check_sticky();
  if (err)
    return err;
  return cuemu__handle_get(CUEMU_HANDLE_EVENT, e, NULL)
             ? cudaSuccess
             : cuemu_rt_error(cudaErrorInvalidResourceHandle);
}

/* An event with `flags`; an interprocess one gets shared counters of its
 * own unless `opened` (cudaIpcOpenEventHandle's, which takes the
 * exporter's). */
static int create(void **event, unsigned flags, int opened) {
  if (!event ||
      (flags & ~(EVENT_BLOCKING_SYNC | EVENT_DISABLE_TIMING |
                 EVENT_INTERPROCESS)) ||
      ((flags & EVENT_INTERPROCESS) && !(flags & EVENT_DISABLE_TIMING)))
    return cuemu_rt_error(cudaErrorInvalidValue);
  int err = cuemu__rt_check_sticky();
  if (err)
    return err;
  cuemu_handle_state state = {flags, 0, 0, 0, 0, 0};
  if (cuemu__handle_create(CUEMU_HANDLE_EVENT, &state, event) !=
      CUEMU_SUCCESS)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  /* An interprocess event counts its records where other processes see
   * them (cuemu_rt_ipc_event.c); an opened one gets the exporter's. */
  if ((flags & EVENT_INTERPROCESS) && !opened &&
      (err = cuemu__ipc_event_create(*event)) != 0) {
    cuemu__handle_destroy(CUEMU_HANDLE_EVENT, *event);
    return cuemu_rt_error(err);
  }
  cuemu__drv_note_event(*event); /* its context, for cudaEventRecord */
  return cudaSuccess;
}

int cuemu_rt_event_create(void **event, unsigned flags) {
  return create(event, flags, 0);
}

int cuemu__rt_event_create_opened(void **event) {
  return create(event, EVENT_DISABLE_TIMING | EVENT_INTERPROCESS, 1);
}

int cuemu_rt_event_destroy(void *e) {
  if (!cuemu__handle_destroy(CUEMU_HANDLE_EVENT, e))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  cuemu__pool_deps_forget(e);
  cuemu__stream_forget_event(e);
  cuemu__ipc_event_destroy(e);
  return cuemu__rt_check_sticky();
}

int cuemu_rt_event_record(void *e, void *stream) {
  int err = check(e);
  if (err)
    return err;
  err = cuemu__rt_stream_valid(stream);
  if (err)
    return err;
  /* The event and the stream belong to one device and, as CUDA's
   * reference requires ("hEvent and hStream must be from the same
   * context"), one context; a graph's record node, run in the stream its
   * graph was launched into, was checked when it was made. */
  cuemu_handle_state event;
  cuemu__handle_get(CUEMU_HANDLE_EVENT, e, &event);
  if (event.device != cuemu__handle_stream_device(stream) ||
      (!cuemu__stream_executing() &&
       !cuemu__drv_event_in_context(e, stream, NULL)))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  err = cuemu__rt_capture_event_record(e, stream, 0);
  if (err != CUEMU__RT_NOT_CAPTURED)
    return err;
  cuemu__pool_deps_record(e, cuemu__pool_deps_stream(stream));
  /* A graph's record node on an execution thread was issued with the
   * graph's launch (cuemu_rt_graph_exec.c), with its ticket. */
  unsigned long long ticket = cuemu__stream_executing()
                                  ? cuemu__stream_running_ticket(e)
                                  : cuemu__ipc_event_issue(e);
  if (cuemu__stream_inline())
    return cuemu__rt_event_stamp(e, ticket);
  return cuemu__stream_defer_record(e, stream, ticket);
}

int cuemu__rt_event_stamp(void *e, unsigned long long ticket) {
  cuemu__ipc_event_complete(e, ticket);
  /* A record issued before the event's most recent one, which ends after
   * it, leaves the event as it is. */
  if (!cuemu__stream_record_is_latest(e))
    return cudaSuccess;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  cuemu_handle_state state;
  int live = cuemu__handle_get(CUEMU_HANDLE_EVENT, e, &state);
  if (live) {
    state.recorded = 1;
    state.ns = (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
    live = cuemu__handle_set(CUEMU_HANDLE_EVENT, e, &state);
  }
  return live ? cudaSuccess
              : cuemu_rt_error(cudaErrorInvalidResourceHandle);
}

/* An event never recorded has captured no work, which is cudaSuccess. */
int cuemu_rt_event_synchronize(void *e) {
  int err = check(e);
  if (!err)
    err = cuemu__rt_capture_event_check(e);
  if (!err)
    err = cuemu__stream_event_wait(e, 1);
  if (!err && (err = cuemu__ipc_event_synchronize(e)) != 0)
    err = cuemu_rt_error(err);
  cuemu__rt_sync_point();
  return err ? err : cuemu__rt_check_sticky();
}

int cuemu_rt_event_query(void *e) {
  int err = check(e);
  if (!err)
    err = cuemu__rt_capture_event_check(e);
  if (!err && (cuemu__stream_event_wait(e, 0) || cuemu__ipc_event_pending(e)))
    return cuemu_rt_error(cudaErrorNotReady); /* not the last error */
  /* The host knows now that the work before the record is done. */
  if (!err)
    cuemu__pinned_guard_sync();
  return err;
}

int cuemu_rt_stream_wait_event(void *stream, void *e, unsigned flags) {
  if (flags > 1u)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int err = check(e);
  if (err || (err = cuemu__rt_stream_valid(stream)) != 0)
    return err;
  err = cuemu__rt_capture_wait_event(stream, e, flags);
  if (err != CUEMU__RT_NOT_CAPTURED)
    return err;
  cuemu__pool_deps_wait(cuemu__pool_deps_stream(stream), e);
  /* An interprocess event: the records of every process that holds it. */
  if (cuemu__ipc_event_shared(e))
    return (err = cuemu__ipc_event_stream_wait(e, stream)) != 0
               ? cuemu_rt_error(err)
               : cudaSuccess;
  if (cuemu__stream_executing()) /* a graph's node, in its stream */
    return cuemu__stream_event_wait(e, 1);
  return cuemu__stream_inline() ? cudaSuccess
                                : cuemu__stream_defer_wait_event(stream, e);
}

int cuemu_rt_event_elapsed_time(float *ms, void *start, void *end) {
  if (!ms)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int err = cuemu__rt_check_sticky();
  if (err)
    return err;
  /* An event whose record is still pending: recorded, not yet done. */
  int pending_a = cuemu__stream_event_wait(start, 0);
  int pending_b = cuemu__stream_event_wait(end, 0);
  cuemu_handle_state a, b;
  int ok = cuemu__handle_get(CUEMU_HANDLE_EVENT, start, &a) &&
           cuemu__handle_get(CUEMU_HANDLE_EVENT, end, &b) &&
           (a.recorded || pending_a) && (b.recorded || pending_b) &&
           !((a.flags | b.flags) & EVENT_DISABLE_TIMING) &&
           a.device == b.device; /* events of two devices: an error */
  if (ok && (pending_a || pending_b))
    return cuemu_rt_error(cudaErrorNotReady); /* not the last error */
  if (ok)
    *ms = (float)((double)(b.ns - a.ns) / 1e6);
  return ok ? cudaSuccess
            : cuemu_rt_error(cudaErrorInvalidResourceHandle);
}
