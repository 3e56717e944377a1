/*
 * cuemu_rt_event.c: events of the CUDA runtime API. All work issued before
 * a record has finished when the record is issued (see
 * cuemu_runtime_streams.h), so an event holds the host time of its last
 * record; handles are numbers that are never reused.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "runtime/cuemu_rt_streams_internal.h"

/* Handles: event i (from 1) is ((i << 4) | TAG). */
#define EVENT_TAG 0x5u

#define EVENT_BLOCKING_SYNC 0x1u
#define EVENT_DISABLE_TIMING 0x2u
#define EVENT_INTERPROCESS 0x4u

typedef struct event_entry {
  unsigned flags;
  int live;
  int recorded;
  long long ns; /* CLOCK_MONOTONIC at the last record */
} event_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static event_entry *events; /* events[i - 1] is event i */
static size_t count, capacity;

/* The entry of a live event, or NULL. Called with the lock. */
static event_entry *find(void *e) {
  uintptr_t h = (uintptr_t)e;
  if ((h & 0xfu) != EVENT_TAG)
    return NULL;
  uintptr_t i = h >> 4;
  if (i == 0 || i > count || !events[i - 1].live)
    return NULL;
  return &events[i - 1];
}

static int valid(void *e) {
  pthread_mutex_lock(&lock);
  int ok = find(e) != NULL;
  pthread_mutex_unlock(&lock);
  return ok;
}

/* The sticky error, else the event's validity; records a failure. */
static int check(void *e) {
  int err = cuemu__rt_sticky_check();
  if (err)
    return err;
  return valid(e) ? cudaSuccess
                  : cuemu_rt_error(cudaErrorInvalidResourceHandle);
}

int cuemu_rt_event_create(void **event, unsigned flags) {
  if (!event ||
      (flags & ~(EVENT_BLOCKING_SYNC | EVENT_DISABLE_TIMING |
                 EVENT_INTERPROCESS)) ||
      ((flags & EVENT_INTERPROCESS) && !(flags & EVENT_DISABLE_TIMING)))
    return cuemu_rt_error(cudaErrorInvalidValue);
  int err = cuemu__rt_sticky_check();
  if (err)
    return err;
  pthread_mutex_lock(&lock);
  if (count == capacity) {
    size_t n = capacity ? capacity * 2 : 16;
    event_entry *grown = realloc(events, n * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&lock);
      return cuemu_rt_error(cudaErrorMemoryAllocation);
    }
    events = grown;
    capacity = n;
  }
  event_entry *entry = &events[count++];
  entry->flags = flags;
  entry->live = 1;
  entry->recorded = 0;
  entry->ns = 0;
  *event = (void *)(((uintptr_t)count << 4) | EVENT_TAG);
  pthread_mutex_unlock(&lock);
  return cudaSuccess;
}

int cuemu_rt_event_destroy(void *e) {
  pthread_mutex_lock(&lock);
  event_entry *entry = find(e);
  if (entry)
    entry->live = 0;
  pthread_mutex_unlock(&lock);
  if (!entry)
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  return cuemu__rt_sticky_check();
}

int cuemu_rt_event_record(void *e, void *stream) {
  int err = check(e);
  if (err)
    return err;
  err = cuemu_rt_error(cuemu__rt_stream_check(stream));
  if (err)
    return err;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  pthread_mutex_lock(&lock);
  event_entry *entry = find(e);
  if (entry) {
    entry->recorded = 1;
    entry->ns = (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
  }
  pthread_mutex_unlock(&lock);
  return entry ? cudaSuccess
               : cuemu_rt_error(cudaErrorInvalidResourceHandle);
}

/* The work an event captures has always finished; an event never
 * recorded has captured none, which is cudaSuccess too. */
int cuemu_rt_event_synchronize(void *e) { return check(e); }

int cuemu_rt_event_query(void *e) { return check(e); }

int cuemu_rt_stream_wait_event(void *stream, void *e, unsigned flags) {
  if (flags > 1u)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int err = check(e);
  if (err)
    return err;
  return cuemu_rt_error(cuemu__rt_stream_check(stream));
}

int cuemu_rt_event_elapsed_time(float *ms, void *start, void *end) {
  if (!ms)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int err = cuemu__rt_sticky_check();
  if (err)
    return err;
  pthread_mutex_lock(&lock);
  event_entry *a = find(start), *b = find(end);
  int ok = a && b && a->recorded && b->recorded &&
           !((a->flags | b->flags) & EVENT_DISABLE_TIMING);
  if (ok)
    *ms = (float)((double)(b->ns - a->ns) / 1e6);
  pthread_mutex_unlock(&lock);
  return ok ? cudaSuccess
            : cuemu_rt_error(cudaErrorInvalidResourceHandle);
}
