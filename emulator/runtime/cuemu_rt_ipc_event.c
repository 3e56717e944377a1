/*
 * cuemu_rt_ipc_event.c: interprocess events. An event made with
 * cudaEventInterprocess keeps two counters in a page of an anonymous file
 * of its own: the records issued and the records that have run, in every
 * process that holds the event. cudaIpcGetEventHandle names the file (the
 * exporter's process and descriptor) and cudaIpcOpenEventHandle maps it,
 * so that a wait in one process (cudaStreamWaitEvent, cudaEventSynchronize)
 * waits for the records another process issued before it, as CUDA's IPC
 * events do (docs/driver-api.md, IPC). Records counted, not named: a
 * record that runs before one issued earlier stands for it.
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

/* The shared words of an event's file. */
typedef struct ipc_words {
  _Atomic uint64_t issued, completed;
  _Atomic uint32_t sequence; /* bumped at each completion (a futex) */
} ipc_words;

typedef struct shared_event {
  void *event;
  ipc_words *words;
  int fd; /* the exporter's descriptor; -1 in an importer */
} shared_event;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static shared_event *events;
static size_t nevents, cap;
static atomic_size_t live; /* nevents, read without the lock */

static size_t page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

static int add(void *event, ipc_words *words, int fd) {
  pthread_mutex_lock(&lock);
  int ok = cuemu__rt_reserve_one((void **)&events, &nevents, &cap,
                                 sizeof *events);
  if (ok) {
    events[nevents++] = (shared_event){event, words, fd};
    atomic_store(&live, nevents);
  }
  pthread_mutex_unlock(&lock);
  return ok ? 0 : cudaErrorMemoryAllocation;
}

/* The event's words, NULL when it has none. */
static ipc_words *words_of(void *event, int *fd) {
  if (!atomic_load(&live))
    return NULL;
  ipc_words *w = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < nevents && !w; ++i)
    if (events[i].event == event) {
      w = events[i].words;
      if (fd)
        *fd = events[i].fd;
    }
  pthread_mutex_unlock(&lock);
  return w;
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
  int err = add(event, w, fd);
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
  int err = add(event, w, -1);
  if (err)
    munmap(w, page());
  return err;
}

int cuemu__ipc_event_fd(void *event) {
  int fd = -1;
  return words_of(event, &fd) ? fd : -1;
}

int cuemu__ipc_event_shared(void *event) {
  return words_of(event, NULL) != NULL;
}

void cuemu__ipc_event_destroy(void *event) {
  shared_event e = {NULL, NULL, -1};
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

void cuemu__ipc_event_issue(void *event) {
  ipc_words *w = words_of(event, NULL);
  if (w)
    atomic_fetch_add(&w->issued, 1);
}

void cuemu__ipc_event_complete(void *event) {
  ipc_words *w = words_of(event, NULL);
  if (!w)
    return;
  uint64_t done = atomic_fetch_add(&w->completed, 1) + 1;
  /* A record that was not issued through cudaEventRecord (a graph's
   * record node) counts as issued too. */
  uint64_t issued = atomic_load(&w->issued);
  while (issued < done &&
         !atomic_compare_exchange_weak(&w->issued, &issued, done))
    ;
  atomic_fetch_add(&w->sequence, 1);
  syscall(SYS_futex, &w->sequence, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

int cuemu__ipc_event_pending(void *event) {
  ipc_words *w = words_of(event, NULL);
  return w && atomic_load(&w->completed) < atomic_load(&w->issued);
}

/* Waits until `target` records of the event have run, in whichever
 * process; CUEMU_EXT_WAIT_SECONDS ends a wait that nothing satisfies. */
static int wait_for(ipc_words *w, uint64_t target, const char *what) {
  long limit = cuemu__rt_wait_limit();
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    uint32_t seq = atomic_load(&w->sequence);
    if (atomic_load(&w->completed) >= target)
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
  ipc_words *w = words_of(event, NULL);
  return w ? wait_for(w, atomic_load(&w->issued), "cudaEventSynchronize")
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
  ipc_words *w = words_of(event, NULL);
  if (!w)
    return 0;
  uint64_t target = atomic_load(&w->issued);
  if (atomic_load(&w->completed) >= target)
    return 0;
  if (cuemu__stream_inline() || cuemu__stream_executing())
    return wait_for(w, target, "cudaStreamWaitEvent");
  stream_wait *sw = malloc(sizeof *sw);
  if (!sw)
    return cudaErrorMemoryAllocation;
  *sw = (stream_wait){w, target};
  return cuemu__stream_defer_call(stream, run_stream_wait, sw);
}
