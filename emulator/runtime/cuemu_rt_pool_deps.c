/*
 * cuemu_rt_pool_deps.c: the event dependencies between streams that the
 * pools' reuse policy follows (see cuemu_rt_pool_deps.h). Two small
 * tables: each recorded event's stream and free number, and for each
 * pair of streams the latest free number of the one that the other has
 * waited for.
 */
#include "runtime/cuemu_rt_pool_deps.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime/cuemu_rt_default_stream.h"
#include "runtime/cuemu_rt_internal.h"

typedef struct record {
  void *event, *stream;
  unsigned long long seq;
} record;

typedef struct follow {
  void *waiter, *source;
  unsigned long long seq;
} follow;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long frees;
static record *records;
static size_t record_count, record_capacity;
static follow *follows;
static size_t follow_count, follow_capacity;

void *cuemu__pool_deps_stream(void *stream) {
  static __thread char per_thread; /* its address names the thread's */
  stream = cuemu__stream_resolve(stream);
  if ((uintptr_t)stream == 1)      /* cudaStreamLegacy */
    return NULL;
  if ((uintptr_t)stream == 2) /* cudaStreamPerThread */
    return &per_thread;
  return stream;
}

unsigned long long cuemu__pool_deps_free(void) {
  pthread_mutex_lock(&lock);
  unsigned long long seq = ++frees;
  pthread_mutex_unlock(&lock);
  return seq;
}

void cuemu__pool_deps_record(void *event, void *stream) {
  pthread_mutex_lock(&lock);
  size_t i = 0;
  while (i < record_count && records[i].event != event)
    ++i;
  if (i < record_count ||
      cuemu__rt_reserve_one((void **)&records, &record_count, &record_capacity,
                            sizeof *records)) {
    if (i == record_count)
      ++record_count;
    records[i] = (record){event, stream, frees};
  }
  pthread_mutex_unlock(&lock);
}

void cuemu__pool_deps_wait(void *stream, void *event) {
  pthread_mutex_lock(&lock);
  for (size_t r = 0; r < record_count; ++r) {
    if (records[r].event != event)
      continue;
    size_t i = 0;
    while (i < follow_count && (follows[i].waiter != stream ||
                                follows[i].source != records[r].stream))
      ++i;
    if (i < follow_count) {
      if (records[r].seq > follows[i].seq)
        follows[i].seq = records[r].seq;
    } else if (cuemu__rt_reserve_one((void **)&follows, &follow_count,
                                     &follow_capacity, sizeof *follows)) {
      follows[follow_count++] =
          (follow){stream, records[r].stream, records[r].seq};
    }
    break;
  }
  pthread_mutex_unlock(&lock);
}

int cuemu__pool_deps_follows(void *stream, void *freed_on,
                             unsigned long long seq) {
  if (stream == freed_on)
    return 1;
  int known = 0;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < follow_count && !known; ++i)
    known = follows[i].waiter == stream && follows[i].source == freed_on &&
            follows[i].seq >= seq;
  pthread_mutex_unlock(&lock);
  return known;
}

void cuemu__pool_deps_forget(void *handle) {
  pthread_mutex_lock(&lock);
  size_t j = 0;
  for (size_t i = 0; i < record_count; ++i)
    if (records[i].event != handle && records[i].stream != handle)
      records[j++] = records[i];
  record_count = j;
  j = 0;
  for (size_t i = 0; i < follow_count; ++i)
    if (follows[i].waiter != handle && follows[i].source != handle)
      follows[j++] = follows[i];
  follow_count = j;
  pthread_mutex_unlock(&lock);
}

void cuemu__pool_deps_reset(void) {
  pthread_mutex_lock(&lock);
  record_count = follow_count = 0;
  pthread_mutex_unlock(&lock);
}
