/*
 * cuemu_rt_ipc_event.c: interprocess events. An event made with
 * cudaEventInterprocess keeps its state in pages of an anonymous file of
 * its own, which every process that holds the event maps: the ticket of
 * its most recent record, issued in whichever process, and which records
 * have run. cudaIpcGetEventHandle names the file (the exporter's process
 * and descriptor, and the file's identity, a random number in its first
 * words) and cudaIpcOpenEventHandle maps it, so that the opened event
 * names the exporter's: cudaEventQuery, cudaEventSynchronize and
 * cudaStreamWaitEvent in one process see the most recent record another
 * process made, as CUDA's IPC events do (docs/driver-api.md, IPC).
 *
 * A record takes the next ticket when it is issued (cudaEventRecord, a
 * graph's launch for its record nodes) and marks it done when it runs; a
 * wait waits for the ticket that was the most recent when it was issued.
 * Which records have run is exact: every ticket up to a floor has run,
 * and a bit per ticket says which of the WINDOW tickets after it have.
 * A record that runs while WINDOW records before it still wait (the
 * oldest of them blocked that long) waits for the floor to move, as long
 * as CUEMU_EXT_WAIT_SECONDS allows, and then reports and takes the floor
 * past the oldest: those count as run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cuemu/cuemu_runtime.h>

#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_ipc_event.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* Tickets after the floor whose runs are marked one by one. */
#define WINDOW (1u << 17)

/* The shared words of an event's file. */
typedef struct ipc_words {
  uint64_t identity;          /* random; a handle carries it too */
  _Atomic uint64_t latest;    /* the most recent record's ticket (0: none) */
  _Atomic uint32_t sequence;  /* bumped at each completion (a futex) */
  pthread_mutex_t mutex;      /* process-shared and robust: floor, marks */
  uint64_t floor;             /* every record up to this ticket has run */
  uint64_t marks[WINDOW / 64]; /* bit t % WINDOW: record t, floor < t <=
                                  floor + WINDOW, has run */
} ipc_words;

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

/* The bytes of an event's file and of its mappings: whole pages. */
static size_t bytes(void) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return (sizeof(ipc_words) + page - 1) / page * page;
}

static void lock_words(ipc_words *w) {
  /* A process that died holding it left the words whole: each change is
   * made before the floor or a mark says so. */
  if (pthread_mutex_lock(&w->mutex) == EOWNERDEAD)
    pthread_mutex_consistent(&w->mutex);
}

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

#define FILE_NAME "cuemu-ipc-event"

static ipc_words *map_words(int fd) {
  void *p = mmap(NULL, bytes(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? NULL : p;
}

static uint64_t new_identity(int fd) {
  uint64_t id = 0;
  if (getrandom(&id, sizeof id, 0) != (ssize_t)sizeof id) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    id = ((uint64_t)now.tv_sec << 32) ^ (uint64_t)now.tv_nsec ^
         ((uint64_t)getpid() << 16) ^ (uint64_t)fd;
  }
  return id ? id : 1;
}

int cuemu__ipc_event_create(void *event) {
  int fd = memfd_create(FILE_NAME, MFD_CLOEXEC);
  if (fd < 0)
    return cudaErrorMemoryAllocation;
  ipc_words *w = ftruncate(fd, (off_t)bytes()) == 0 ? map_words(fd) : NULL;
  if (!w) {
    close(fd);
    return cudaErrorMemoryAllocation;
  }
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
  pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(&w->mutex, &attr);
  pthread_mutexattr_destroy(&attr);
  w->identity = new_identity(fd);
  int err = add(event, w, fd, 0, -1);
  if (err) {
    munmap(w, bytes());
    close(fd);
  }
  return err;
}

/* Whether `fd` (this process's) is an event's file: a memory file of
 * ours, of an event's size. */
static int is_event_file(int fd) {
  char path[64], target[128];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(path, target, sizeof target - 1);
  if (n < 0)
    return 0;
  target[n] = '\0';
  struct stat st;
  return strncmp(target, "/memfd:" FILE_NAME, sizeof "/memfd:" FILE_NAME - 1) ==
             0 &&
         fstat(fd, &st) == 0 && (size_t)st.st_size == bytes();
}

int cuemu__ipc_event_open(void *event, uint32_t pid, int32_t fd,
                          uint64_t identity) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%u/fd/%d", (unsigned)pid, (int)fd);
  /* The exporter gone, or its event destroyed: nothing to open, or
   * another file at that descriptor since (checked by its identity). */
  int own = open(path, O_RDWR | O_CLOEXEC);
  ipc_words *w = own >= 0 && is_event_file(own) ? map_words(own) : NULL;
  if (own >= 0)
    close(own);
  if (w && w->identity != identity) {
    munmap(w, bytes());
    w = NULL;
  }
  if (!w)
    return cuemu__graph_fail(
        cudaErrorMapBufferObjectFailed,
        "cudaIpcOpenEventHandle: the handle's event is gone (process %u "
        "exited or destroyed it): an interprocess event lives as long as "
        "its exporter's event",
        (unsigned)pid);
  int err = add(event, w, -1, pid, fd);
  if (err)
    munmap(w, bytes());
  return err;
}

int cuemu__ipc_event_name(void *event, uint32_t *pid, int32_t *fd,
                          uint64_t *identity) {
  shared_event e;
  if (!entry_of(event, &e))
    return 0;
  *pid = e.fd >= 0 ? (uint32_t)getpid() : e.pid;
  *fd = e.fd >= 0 ? e.fd : e.from_fd;
  *identity = e.words->identity;
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

static uint64_t *mark_of(ipc_words *w, uint64_t ticket, uint64_t *bit) {
  *bit = 1ull << (ticket % WINDOW % 64);
  return &w->marks[ticket % WINDOW / 64];
}

/* Whether record `ticket` has run (0: no record). Under the words' lock. */
static int has_run_locked(ipc_words *w, uint64_t ticket) {
  if (ticket <= w->floor)
    return 1;
  uint64_t bit;
  return ticket <= w->floor + WINDOW && (*mark_of(w, ticket, &bit) & bit);
}

static int has_run(ipc_words *w, uint64_t ticket) {
  if (!ticket)
    return 1;
  lock_words(w);
  int run = has_run_locked(w, ticket);
  pthread_mutex_unlock(&w->mutex);
  return run;
}

/* Moves the floor over the marked tickets after it, clearing their marks
 * for the tickets WINDOW later. Under the words' lock. */
static void raise_floor(ipc_words *w) {
  for (;;) {
    uint64_t bit, *mark = mark_of(w, w->floor + 1, &bit);
    if (!(*mark & bit))
      return;
    *mark &= ~bit;
    w->floor++;
  }
}

static void wake(ipc_words *w) {
  atomic_fetch_add(&w->sequence, 1);
  syscall(SYS_futex, &w->sequence, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

/* Waits, the words' lock held (and let go while waiting), until `ticket`
 * is within the window, as long as CUEMU_EXT_WAIT_SECONDS allows; 0 when
 * it is. */
static int wait_for_window(ipc_words *w, uint64_t ticket) {
  long limit = cuemu__rt_wait_limit();
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (ticket > w->floor + WINDOW) {
    uint32_t seq = atomic_load(&w->sequence);
    pthread_mutex_unlock(&w->mutex);
    int late = cuemu__rt_waited_past(&start, limit);
    if (!late) {
      struct timespec tick = {0, 100 * 1000 * 1000};
      syscall(SYS_futex, &w->sequence, FUTEX_WAIT, seq, &tick, NULL, 0);
    }
    lock_words(w);
    if (late)
      return ticket > w->floor + WINDOW;
  }
  return 0;
}

/* Marks record `ticket` run; the caller wakes the waiters. A ticket past
 * the window waits for the floor to move or takes it (this file's top). */
static void mark_run(ipc_words *w, uint64_t ticket) {
  lock_words(w);
  if (wait_for_window(w, ticket)) {
    fprintf(stderr,
            "cuemu: record %llu of an interprocess event ran while record "
            "%llu, %u records before it, had not in %ld s "
            "(CUEMU_EXT_WAIT_SECONDS): the records up to %llu count as run "
            "from now\n",
            (unsigned long long)ticket, (unsigned long long)(w->floor + 1),
            WINDOW, cuemu__rt_wait_limit(),
            (unsigned long long)(ticket - WINDOW));
    while (ticket > w->floor + WINDOW) {
      uint64_t bit, *mark = mark_of(w, w->floor + 1, &bit);
      *mark &= ~bit;
      w->floor++;
      raise_floor(w);
    }
  }
  if (ticket > w->floor) {
    uint64_t bit;
    *mark_of(w, ticket, &bit) |= bit;
    raise_floor(w);
  }
  pthread_mutex_unlock(&w->mutex);
}

void cuemu__ipc_event_complete(void *event, unsigned long long ticket) {
  ipc_words *w = words_of(event);
  if (!w)
    return;
  /* A record that was not issued as one (cuCtxRecordEvent's) is issued
   * as it runs. */
  if (!ticket)
    ticket = atomic_fetch_add(&w->latest, 1) + 1;
  mark_run(w, ticket);
  wake(w);
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
