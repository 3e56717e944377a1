/*
 * cuemu_drv_stream_ctx.c: the driver API's ties between streams, events
 * and contexts (see cuemu_driver_api.h): the context a stream was created
 * in (cuStreamGetCtx), and the context-wide event calls cuCtxRecordEvent
 * and cuCtxWaitEvent.
 *
 * A stream is the runtime's; the driver notes the created context that was
 * current when cuStreamCreate made one, with the stream's identifier
 * (cuStreamGetId, unique in the process), so that a later stream at the
 * same address is not taken for it. Any other stream belongs to the
 * primary context of its device, as the runtime's streams do on a GPU.
 */
#include <pthread.h>
#include <stdlib.h>

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_host_ids.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_config.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_stream_queue.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* The special streams of cuda.h: CU_STREAM_LEGACY, CU_STREAM_PER_THREAD. */
#define STREAM_LEGACY ((void *)0x1)
#define STREAM_PER_THREAD ((void *)0x2)
/* CU_STREAM_NON_BLOCKING. */
#define STREAM_NON_BLOCKING_FLAG 0x1u

/* The streams made while a created context was current. */
typedef struct noted_stream {
  void *stream;
  unsigned long long id;
  void *context;
} noted_stream;
static noted_stream *noted;
static size_t noted_count, noted_capacity;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void note(void *stream, void *context) {
  unsigned long long id = 0;
  if (cuemu_rt_stream_get_id(stream, &id))
    return;
  pthread_mutex_lock(&lock);
  size_t i;
  for (i = 0; i < noted_count && noted[i].stream != stream; ++i)
    ;
  if (i == noted_count && noted_count == noted_capacity) {
    size_t cap = noted_capacity ? 2 * noted_capacity : 16;
    noted_stream *grown = realloc(noted, cap * sizeof *grown);
    if (grown) {
      noted = grown;
      noted_capacity = cap;
    }
  }
  if (i < noted_capacity) {
    noted[i] = (noted_stream){stream, id, context};
    if (i == noted_count)
      noted_count++;
  }
  pthread_mutex_unlock(&lock);
}

int cuemu_drv_stream_create(void **stream, unsigned flags, int priority) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  int saved = cuemu_drv_enter();
  e = cuemu_drv_result(cuemu_rt_stream_create(stream, flags, priority), saved);
  if (!e) {
    void *c = cuemu__drv_current();
    int device = 0;
    if (!cuemu__drv_context_device(c, &device) &&
        c != cuemu__drv_primary_context(device))
      note(*stream, c);
    /* A stream of a green context: its launches use the partition's SMs
     * only (cuemu_device_launch.c, cuemu_launch_run.c). */
    cuemu_handle_state state;
    unsigned sms = cuemu__drv_green_sms(c);
    if (sms && cuemu__handle_get(CUEMU_HANDLE_STREAM, *stream, &state)) {
      state.sms = sms;
      cuemu__handle_set(CUEMU_HANDLE_STREAM, *stream, &state);
    }
  }
  return e;
}

/* The events made while a created context was current, with that context
 * (event handles are never reused); the others belong to the primary
 * context of their device. */
static noted_stream *noted_events;
static size_t noted_events_count, noted_events_capacity;

void cuemu__drv_note_event(void *event) {
  void *c = cuemu__drv_current();
  int device = 0;
  if (!c || cuemu__drv_context_device(c, &device) ||
      c == cuemu__drv_primary_context(device))
    return;
  pthread_mutex_lock(&lock);
  if (noted_events_count == noted_events_capacity) {
    size_t cap = noted_events_capacity ? 2 * noted_events_capacity : 16;
    noted_stream *grown = realloc(noted_events, cap * sizeof *grown);
    if (grown) {
      noted_events = grown;
      noted_events_capacity = cap;
    }
  }
  if (noted_events_count < noted_events_capacity)
    noted_events[noted_events_count++] = (noted_stream){event, 0, c};
  pthread_mutex_unlock(&lock);
}

/* The created context an object was made in (a green context's context
 * counts as its device's primary one, as cuStreamGetCtx_v2 gives it), or
 * NULL for a primary context. */
static void *created_context(void *c) {
  int device = 0;
  if (!c || cuemu__drv_green_of_context(c) ||
      cuemu__drv_context_device(c, &device) ||
      c == cuemu__drv_primary_context(device))
    return NULL;
  return c;
}

static void *event_context(void *event) {
  void *found = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < noted_events_count && !found; ++i)
    if (noted_events[i].stream == event)
      found = noted_events[i].context;
  pthread_mutex_unlock(&lock);
  return created_context(found);
}

static void *stream_context(void *stream) {
  if (!stream || stream == STREAM_LEGACY || stream == STREAM_PER_THREAD)
    return created_context(cuemu__drv_current());
  unsigned long long id = 0;
  if (cuemu_rt_stream_get_id(stream, &id))
    return NULL;
  void *found = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < noted_count && !found; ++i)
    if (noted[i].stream == stream && noted[i].id == id)
      found = noted[i].context;
  pthread_mutex_unlock(&lock);
  return created_context(found);
}

int cuemu__drv_event_in_context(void *event, void *stream, void *ctx) {
  if (!ctx && !noted_events_count && !noted_count &&
      !created_context(cuemu__drv_current()))
    return 1; /* only primary contexts: the device decides */
  return event_context(event) ==
         (ctx ? created_context(ctx) : stream_context(stream));
}

void *cuemu__drv_stream_context(void *stream) {
  if (cuemu__handle_is_default_stream(stream))
    return cuemu__drv_current();
  pthread_mutex_lock(&lock);
  size_t count = noted_count;
  pthread_mutex_unlock(&lock);
  unsigned long long id = 0;
  void *found = NULL;
  if (count && !cuemu_rt_stream_get_id(stream, &id)) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < noted_count && !found; ++i)
      if (noted[i].stream == stream && noted[i].id == id)
        found = noted[i].context;
    pthread_mutex_unlock(&lock);
  }
  return found ? found
               : cuemu__drv_primary_context(cuemu__handle_stream_device(stream));
}

/* For cuStreamGetCtx_v2 and cuStreamGetGreenCtx (green not NULL): a
 * green context's converted context is given as its green context and
 * the primary context of its device. */
static int green_parts(void **ctx, void **green) {
  void *g = green ? cuemu__drv_green_of_context(*ctx) : NULL;
  if (g) {
    int device = 0;
    cuemu__drv_context_device(*ctx, &device);
    *green = g;
    *ctx = cuemu__drv_primary_context(device);
  }
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_stream_get_ctx(void *stream, void **ctx, void **green) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!ctx)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (green)
    *green = NULL;
  if (!stream || stream == STREAM_LEGACY || stream == STREAM_PER_THREAD) {
    *ctx = cuemu__drv_current();
    return green_parts(ctx, green);
  }
  int saved = cuemu_drv_enter();
  int device = 0;
  unsigned long long id = 0;
  e = cuemu_drv_result(cuemu_rt_stream_get_device(stream, &device), saved);
  /* cuemu_drv_result() ends the driver's call into the runtime: the
   * second call enters again, or it would count as the program's own use
   * of the runtime API (and every thread without a context would then get
   * the primary one). */
  if (!e)
    e = cuemu_drv_result(cuemu_rt_stream_get_id(stream, &id),
                         cuemu_drv_enter());
  if (e)
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  void *found = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < noted_count && !found; ++i)
    if (noted[i].stream == stream && noted[i].id == id)
      found = noted[i].context;
  pthread_mutex_unlock(&lock);
  *ctx = found ? found : cuemu__drv_primary_context(device);
  return green_parts(ctx, green);
}

int cuemu_drv_stream_get_green_ctx(void *stream, void **green) {
  if (!green)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  void *ctx = NULL;
  return cuemu_drv_stream_get_ctx(stream, &ctx, green);
}

int cuemu_drv_green_ctx_stream_create(void **stream, void *green,
                                      unsigned flags, int priority) {
  int e = cuemu_drv_check_context();
  if (e && e != DRV_CUDA_ERROR_INVALID_CONTEXT)
    return e;
  void *ctx = NULL, *popped = NULL;
  e = cuemu_drv_ctx_from_green_ctx(&ctx, green);
  if (e)
    return e;
  if (!stream || !(flags & STREAM_NON_BLOCKING_FLAG))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  /* In the green context, whatever is current. */
  e = cuemu_drv_ctx_push_current(ctx);
  if (e)
    return e;
  e = cuemu_drv_stream_create(stream, flags, priority);
  cuemu_drv_ctx_pop_current(&popped);
  return e;
}

/* The checks of cuCtxRecordEvent and cuCtxWaitEvent: the context's
 * device in *device. */
static int ctx_event_call(void *ctx, void *event, int *device) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!ctx)
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  e = cuemu__drv_context_device(ctx, device);
  if (e)
    return e;
  return event ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_INVALID_HANDLE;
}

/* The private stream of each device that holds cuCtxRecordEvent's
 * records (non-blocking, so that it orders nothing else). */
static void *record_streams[CUEMU_MAX_DEVICES];

static void *record_stream(int device) {
  pthread_mutex_lock(&lock);
  void *s = record_streams[device];
  if (!s || !cuemu__handle_stream_valid(s)) {
    int current = cuemu__device_current();
    cuemu__device_select(device);
    s = NULL;
    if (cuemu_rt_stream_create(&s, STREAM_NON_BLOCKING_FLAG, 0) != cudaSuccess)
      s = NULL;
    cuemu__device_select(current);
    record_streams[device] = s;
  }
  pthread_mutex_unlock(&lock);
  return s;
}

int cuemu_drv_ctx_record_event(void *ctx, void *event) {
  int device = 0;
  int e = ctx_event_call(ctx, event, &device);
  if (e)
    return e;
  int saved = cuemu_drv_enter();
  cuemu_handle_state state;
  if (!cuemu__handle_get(CUEMU_HANDLE_EVENT, event, &state))
    return cuemu_drv_result(cudaErrorInvalidResourceHandle, saved);
  /* The event and the context are one context's. */
  if (state.device != device || !cuemu__drv_event_in_context(event, NULL, ctx))
    return cuemu_drv_result(cudaErrorInvalidResourceHandle, saved);
  /* The record completes when the work issued so far to every stream of
   * the context completes; the host does not wait for it. */
  void *stream = cuemu__stream_inline() ? NULL : record_stream(device);
  if (stream)
    return cuemu_drv_result(
        cuemu__stream_defer_record_device(event, stream, device), saved);
  /* Streams that run on the issuing thread (CUEMU_STREAMS=sync) have no
   * work pending: the record is complete at once. */
  cuemu__stream_wait_device(device);
  /* In the context, whatever is current (the event is the context's). */
  void *popped = NULL;
  e = cuemu_drv_ctx_push_current(ctx);
  if (e) {
    cuemu_drv_result(cudaSuccess, saved);
    return e;
  }
  e = cuemu_rt_event_record(event, STREAM_LEGACY);
  cuemu_drv_ctx_pop_current(&popped);
  return cuemu_drv_result(e, saved);
}

int cuemu_drv_ctx_wait_event(void *ctx, void *event) {
  int device = 0;
  int e = ctx_event_call(ctx, event, &device);
  if (e)
    return e;
  int saved = cuemu_drv_enter();
  cuemu_handle_state state;
  if (!cuemu__handle_get(CUEMU_HANDLE_EVENT, event, &state))
    return cuemu_drv_result(cudaErrorInvalidResourceHandle, saved);
  /* All later work of the context waits for the event's work, on the
   * device: the host goes on (it waits only where too many such waits are
   * pending). */
  if (cuemu__stream_device_wait_event(device, event) == cudaSuccess)
    return cuemu_drv_result(cudaSuccess, saved);
  return cuemu_drv_result(cuemu_rt_event_synchronize(event), saved);
}
