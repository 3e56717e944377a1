/*
 * cuemu_rt_ipc_event.c: interprocess events. An event made with
 * cudaEventInterprocess keeps its state in a page of an anonymous file of
 * its own, which every process that holds the event maps: the ticket of
 * its most recent record, issued in whichever process, and which records
 * have run. cudaIpcGetEventHandle names the file (the exporter's process
 * and descriptor) and cudaIpcOpenEventHandle maps it, so that the opened
 * event names the exporter's: cudaEventQuery, cudaEventSynchronize and
 * cudaStreamWaitEvent in one process see the most recent record another
 * process made, as CUDA's IPC events do (docs/driver-api.md, IPC).
 *
 * A record takes the next ticket when it is issued (cudaEventRecord, a
 * graph's launch for its record nodes) and marks it done when it runs; a
 * wait waits for the ticket that was the most recent when it was issued.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cuemu/cuemu_runtime.h>

#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_ipc_event.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* Records whose done marks share a slot: a record counts as run once
 * one SLOTS records later has run. */
#define SLOTS 64

/* The shared words of an event's file. */
typedef struct ipc_words {
  _Atomic uint64_t latest;      /* the most recent record's ticket (0: none) */
  _Atomic uint64_t done[SLOTS]; /* done[t % SLOTS] >= t: record t has run */
  _Atomic uint32_t sequence;    /* bumped at each completion (a futex) */
} ipc_words;

_Static_assert(sizeof(ipc_words) <= 4096, "the words fit in a page");

typedef struct shared_event {
  void *event;
  ipc_words *words;
  int fd;       /* the exporter's descriptor; -1 in an importer */
  uint32_t pid; /* an importer's: the exporter's handle, which it gives */
  int32_t from_fd;
} shared_event;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static shared_event *events;
static size_t nevents, cap;
static atomic_size_t live; /* nevents, read without the lock */

static size_t page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

static int add(void *event, ipc_words *words, int fd, uint32_t pid,
               int32_t from_fd) {
  pthread_mutex_lock(&lock);
  int ok = cuemu__rt_reserve_one((void **)&events, &nevents, &cap,
                                 sizeof *events);
  if (ok) {
    events[nevents++] = (shared_event){event, words, fd, pid, from_fd};
    atomic_store(&live, nevents);
  }
  pthread_mutex_unlock(&lock);
  return ok ? 0 : cudaErrorMemoryAllocation;
}

/* The event's entry (copied), and whether it has one. */
static int entry_of(void *event, shared_event *out) {
  if (!atomic_load(&live))
    return 0;
  int found = 0;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < nevents && !found; ++i)
    if (events[i].event == event) {
      *out = events[i];
      found = 1;
    }
  pthread_mutex_unlock(&lock);
  return found;
}

/* The event's words, NULL when it has none. */
static ipc_words *words_of(void *event) {
  shared_event e;
  return entry_of(event, &e) ? e.words : NULL;
}

static ipc_words *map_words(int fd) {
  void *p = mmap(NULL, page(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? NULL : p;
}

int cuemu__ipc_event_create(void *event) {
  int fd = memfd_create("cuemu-ipc-event", MFD_CLOEXEC);
  if (fd < 0)
    return cudaErrorMemoryAllocation;
  ipc_words *w = ftruncate(fd, (off_t)page()) == 0 ? map_words(fd) : NULL;
  if (!w) {
    close(fd);
    return cudaErrorMemoryAllocation;
  }
  int err = add(event, w, fd, 0, -1);
  if (err) {
    munmap(w, page());
    close(fd);
  }
  return err;
}

int cuemu__ipc_event_open(void *event, uint32_t pid, int32_t fd) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%u/fd/%d", (unsigned)pid, (int)fd);
  int own = open(path, O_RDWR | O_CLOEXEC);
  if (own < 0)
    return cudaErrorInvalidValue; /* the exporter or its event is gone */
  ipc_words *w = map_words(own);
  close(own);
  if (!w)
    return cudaErrorInvalidValue;
  int err = add(event, w, -1, pid, fd);
  if (err)
    munmap(w, page());
  return err;
}

int cuemu__ipc_event_name(void *event, uint32_t *pid, int32_t *fd) {
  shared_event e;
  if (!entry_of(event, &e))
    return 0;
  *pid = e.fd >= 0 ? (uint32_t)getpid() : e.pid;
  *fd = e.fd >= 0 ? e.fd : e.from_fd;
  return 1;
}

int cuemu__ipc_event_shared(void *event) { return words_of(event) != NULL; }

void cuemu__ipc_event_destroy(void *event) {
  shared_event e = {NULL, NULL, -1, 0, -1};
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < nevents; ++i)
    if (events[i].event == event) {
      e = events[i];
      events[i] = events[--nevents];
      atomic_store(&live, nevents);
      break;
    }
  pthread_mutex_unlock(&lock);
  /* The page stays mapped: a wait queued before the destruction may still
   * read it (CUDA lets a program destroy an event that work waits for). */
  if (e.fd >= 0)
    close(e.fd);
}

unsigned long long cuemu__ipc_event_issue(void *event) {
  ipc_words *w = words_of(event);
  return w ? atomic_fetch_add(&w->latest, 1) + 1 : 0;
}

/* Whether record `ticket` has run (0: no record). */
static int has_run(ipc_words *w, uint64_t ticket) {
  return !ticket || atomic_load(&w->done[ticket % SLOTS]) >= ticket;
}

void cuemu__ipc_event_complete(void *event, unsigned long long ticket) {
  ipc_words *w = words_of(event);
  if (!w)
    return;
  /* A record that was not issued as one (cuCtxRecordEvent's) is issued
   * as it runs. */
  if (!ticket)
    ticket = atomic_fetch_add(&w->latest, 1) + 1;
  _Atomic uint64_t *slot = &w->done[ticket % SLOTS];
  uint64_t seen = atomic_load(slot);
  while (seen < ticket && !atomic_compare_exchange_weak(slot, &seen, ticket))
    ;
  atomic_fetch_add(&w->sequence, 1);
  syscall(SYS_futex, &w->sequence, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

int cuemu__ipc_event_pending(void *event) {
  ipc_words *w = words_of(event);
  return w && !has_run(w, atomic_load(&w->latest));
}

/* Waits until record `target` of the event has run, in whichever
 * process; CUEMU_EXT_WAIT_SECONDS ends a wait that nothing satisfies. */
static int wait_for(ipc_words *w, uint64_t target, const char *what) {
  long limit = cuemu__rt_wait_limit();
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    uint32_t seq = atomic_load(&w->sequence);
    if (has_run(w, target))
      return 0;
    if (cuemu__rt_waited_past(&start, limit))
      return cuemu__graph_fail(
          cudaErrorTimeout,
          "%s: the interprocess event's record did not run in %ld s "
          "(CUEMU_EXT_WAIT_SECONDS)",
          what, limit);
    struct timespec tick = {0, 100 * 1000 * 1000};
    syscall(SYS_futex, &w->sequence, FUTEX_WAIT, seq, &tick, NULL, 0);
  }
}

int cuemu__ipc_event_synchronize(void *event) {
  ipc_words *w = words_of(event);
  return w ? wait_for(w, atomic_load(&w->latest), "cudaEventSynchronize")
           : 0;
}

typedef struct stream_wait {
  ipc_words *words;
  uint64_t target;
} stream_wait;

/* On the stream's execution thread: a wait for memory another process
 * writes, which the host's look for waits that cannot finish leaves
 * alone. */
static int run_stream_wait(void *arg, void *stream) {
  (void)stream;
  stream_wait *sw = arg;
  cuemu__stream_waiting_for_memory(2);
  int code = wait_for(sw->words, sw->target, "cudaStreamWaitEvent");
  cuemu__stream_waiting_for_memory(0);
  free(sw);
  return code;
}

int cuemu__ipc_event_stream_wait(void *event, void *stream) {
  ipc_words *w = words_of(event);
  if (!w)
    return 0;
  uint64_t target = atomic_load(&w->latest);
  if (has_run(w, target))
    return 0;
  if (cuemu__stream_inline() || cuemu__stream_executing())
    return wait_for(w, target, "cudaStreamWaitEvent");
  stream_wait *sw = malloc(sizeof *sw);
  if (!sw)
    return cudaErrorMemoryAllocation;
  *sw = (stream_wait){w, target};
  return cuemu__stream_defer_call(stream, run_stream_wait, sw);
}
