/*
 * cuemu_rt_stream.c: streams of the CUDA runtime API. Every operation runs
 * when it is issued (see cuemu_runtime_streams.h), so a stream holds only
 * its flags and priority; handles are numbers that are never reused.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "runtime/cuemu_rt_streams_internal.h"

/* Handles: stream i (from 1) is ((i << 4) | TAG); 0, 1 and 2 are the
 * default streams (0, cudaStreamLegacy, cudaStreamPerThread). */
#define STREAM_TAG 0x3u
#define STREAM_LEGACY ((void *)(uintptr_t)1)
#define STREAM_PER_THREAD ((void *)(uintptr_t)2)

typedef struct stream_entry {
  unsigned flags;
  int priority;
  int live;
} stream_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static stream_entry *streams; /* streams[i - 1] is stream i */
static size_t count, capacity;

static int is_default(void *s) {
  return s == NULL || s == STREAM_LEGACY || s == STREAM_PER_THREAD;
}

/* The entry of a live created stream, or NULL. Called with the lock. */
static stream_entry *find(void *s) {
  uintptr_t h = (uintptr_t)s;
  if ((h & 0xfu) != STREAM_TAG)
    return NULL;
  uintptr_t i = h >> 4;
  if (i == 0 || i > count || !streams[i - 1].live)
    return NULL;
  return &streams[i - 1];
}

int cuemu__rt_stream_check(void *s) {
  if (is_default(s))
    return cudaSuccess;
  pthread_mutex_lock(&lock);
  int ok = find(s) != NULL;
  pthread_mutex_unlock(&lock);
  return ok ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

int cuemu__rt_sticky_check(void) {
  int sticky = cuemu_rt_sticky();
  return sticky ? cuemu_rt_error(sticky) : 0;
}

/* The sticky error, else the stream's validity; records a failure. */
static int check(void *s) {
  int e = cuemu__rt_sticky_check();
  if (e)
    return e;
  return cuemu_rt_error(cuemu__rt_stream_check(s));
}

int cuemu_rt_stream_create(void **stream, unsigned flags, int priority) {
  if (!stream || flags > 1u)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = cuemu__rt_sticky_check();
  if (e)
    return e;
  if (priority > CUEMU_RT_STREAM_LEAST_PRIORITY)
    priority = CUEMU_RT_STREAM_LEAST_PRIORITY;
  if (priority < CUEMU_RT_STREAM_GREATEST_PRIORITY)
    priority = CUEMU_RT_STREAM_GREATEST_PRIORITY;
  pthread_mutex_lock(&lock);
  if (count == capacity) {
    size_t n = capacity ? capacity * 2 : 16;
    stream_entry *grown = realloc(streams, n * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&lock);
      return cuemu_rt_error(cudaErrorMemoryAllocation);
    }
    streams = grown;
    capacity = n;
  }
  stream_entry *entry = &streams[count++];
  entry->flags = flags;
  entry->priority = priority;
  entry->live = 1;
  *stream = (void *)(((uintptr_t)count << 4) | STREAM_TAG);
  pthread_mutex_unlock(&lock);
  return cudaSuccess;
}

int cuemu_rt_stream_destroy(void *s) {
  /* Destroying a default stream is an invalid handle for CUDA too. */
  if (is_default(s))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  pthread_mutex_lock(&lock);
  stream_entry *entry = find(s);
  if (entry)
    entry->live = 0; /* nothing is pending: it goes at once */
  pthread_mutex_unlock(&lock);
  if (!entry)
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  return cuemu__rt_sticky_check();
}

int cuemu_rt_stream_synchronize(void *s) { return check(s); }

int cuemu_rt_stream_query(void *s) { return check(s); }

/* Reads a stream's flags and priority (defaults for the default
 * streams); returns a CUDA code. */
static int read_stream(void *s, unsigned *flags, int *priority) {
  int e = check(s);
  if (e)
    return e;
  pthread_mutex_lock(&lock);
  stream_entry *entry = find(s);
  *flags = entry ? entry->flags : 0;
  *priority = entry ? entry->priority : 0;
  pthread_mutex_unlock(&lock);
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

int cuemu_rt_device_stream_priority_range(int *least, int *greatest) {
  if (least)
    *least = CUEMU_RT_STREAM_LEAST_PRIORITY;
  if (greatest)
    *greatest = CUEMU_RT_STREAM_GREATEST_PRIORITY;
  return cuemu__rt_sticky_check();
}

int cuemu_rt_launch_host_func(void *s, void (*fn)(void *), void *data) {
  if (!fn)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = check(s);
  if (e)
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
  int e = cuemu_rt_error(cuemu__rt_stream_check(s));
  if (e)
    return e;
  /* A callback runs after an error too, and is told the stream's error. */
  trampoline(s, cuemu_rt_sticky(), callback, data);
  return cuemu__rt_sticky_check();
}
