/*
 * cuemu_rt_stream_queue.c: the queues and execution threads of
 * asynchronous streams (see cuemu_rt_stream_queue.h and docs/streams.md).
 * One mutex guards every queue; an item is a one-node graph (its
 * parameters copied as cudaGraphAddNode copies them), an event record or a
 * wait, and waits before it runs for the tickets of other queues that CUDA's
 * ordering puts before it. Queues are never freed: an item may name
 * another queue's ticket, and a destroyed stream's queue is a few bytes;
 * once idle it leaves the list that every look at the queues walks.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "check/cuemu_check.h"
#include "core/cuemu_printf.h"
#include "core/cuemu_watchdog.h"
#include "device/cuemu_device_launch.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_default_stream.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_managed_guard.h"
#include "runtime/cuemu_rt_pinned_guard.h"
#include "runtime/cuemu_rt_stream_queue.h"

enum { ITEM_NODE, ITEM_RECORD, ITEM_WAIT, ITEM_CALL };

struct queue;

/* A ticket of another queue that an item waits for. */
typedef struct dep {
  struct queue *q;
  unsigned long long ticket;
} dep;

typedef struct item {
  struct item *next;
  int kind;
  cuemu_rt_graph *graph; /* ITEM_NODE */
  int transfer;          /* ITEM_NODE: a copy or a memset */
  /* ITEM_NODE (a copy), ITEM_CALL: the program's call that queued it, for
   * the checkers (cuemu__check_api_issuer). */
  cuemu_check_call issuer;
  void *event; /* ITEM_RECORD; ITEM_CALL: the key it is the record of */
  int (*call)(void *arg, void *stream); /* ITEM_CALL, which owns arg */
  void *arg;
  dep *deps;
  size_t ndeps;
  /* ITEM_CALL: more events it records (a graph launch's record nodes). */
  void **records;
  size_t nrecords;
  unsigned long long seq; /* its place in the issue order of all items */
  /* Interprocess tickets: ITEM_RECORD's record's, ITEM_CALL's records'
   * (NULL, or one per record). */
  unsigned long long ticket, *tickets;
} item;

typedef struct queue {
  struct queue *next;
  struct queue *retired_next; /* in `retired`, once off `queues` */
  uintptr_t stream;   /* the handle; 1 for the legacy default stream */
  const void *thread; /* cudaStreamPerThread: the host thread's */
  int device;
  int legacy, blocking, forgotten, started;
  int exited; /* its execution thread has ended */
  item *head, *tail;
  unsigned long long issued, done;
  /* The item running: since when, whether it waits for memory (1 private,
   * 2 shared with other processes), whether that wait is abandoned. */
  int running, waiting, abandoned, error;
  int spun; /* its kernel was reported as spinning */
  /* The message of the first failure (an error, or a fault that made the
   * device's error sticky) since the queue's errors were last taken:
   * cuemu_last_message() of the stream's thread, which the host thread
   * that takes them gets as its own. */
  char *error_message;
  struct timespec since;
  char what[96];
} queue;

/* The last pending record of an event: the item `ticket` of q, issued
 * as item `seq` of all. */
typedef struct record {
  void *event;
  queue *q;
  unsigned long long ticket, seq;
} record;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static queue *queues;
static queue *retired; /* taken off `queues` by retire(), kept */
static record *records;
static size_t nrecords, records_cap;
static unsigned long long issued_items; /* items issued to any queue */

/* The calling thread runs an item (an execution thread): its queue and
 * the item's place in the issue order. */
static __thread queue *running_queue;
static __thread unsigned long long running_seq;
static __thread const struct item *running_item;
static __thread char per_thread_key;

int cuemu__stream_inline(void) {
  return running_queue || !cuemu__config_streams_async() ||
         cuemu_thread_in_kernel();
}

void cuemu__stream_name_thread(const char *name) {
  pthread_setname_np(pthread_self(), name);
}

int cuemu__stream_host_threads(void) {
  DIR *d = opendir("/proc/self/task");
  if (!d)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char path[64], comm[32] = "";
    snprintf(path, sizeof path, "/proc/self/task/%.20s/comm", e->d_name);
    FILE *f = fopen(path, "re");
    if (!f)
      continue;
    if (!fgets(comm, sizeof comm, f))
      comm[0] = 0;
    fclose(f);
    n += strncmp(comm, "cuemu-", 6) != 0;
  }
  closedir(d);
  return n;
}

/* ---- Queues (the lock held) ---------------------------------------------- */

static queue *find(void *stream, int create) {
  stream = cuemu__stream_resolve(stream);
  uintptr_t s = (uintptr_t)stream;
  int legacy = s <= 1;
  const void *thread = s == 2 ? &per_thread_key : NULL;
  int device = cuemu__handle_is_default_stream(stream)
                   ? cuemu__device_current()
                   : cuemu__handle_stream_device(stream);
  if (legacy)
    s = 1;
  for (queue *q = queues; q; q = q->next)
    if (q->stream == s && q->thread == thread && q->device == device &&
        !q->forgotten)
      return q;
  if (!create)
    return NULL;
  queue *q = calloc(1, sizeof *q);
  if (!q)
    return NULL;
  q->stream = s;
  q->thread = thread;
  q->device = device;
  q->legacy = legacy;
  if (!legacy) {
    cuemu_handle_state state = {0, 0, 0, 0, 0, 0};
    cuemu__handle_get(CUEMU_HANDLE_STREAM, stream, &state);
    q->blocking = !(state.flags & 1u); /* not cudaStreamNonBlocking */
  }
  q->next = queues;
  queues = q;
  return q;
}

static int pending(const queue *q) { return q->done < q->issued; }

/* Takes a destroyed stream's queue off `queues` (the lock held) once
 * nothing is left in it to run, wait for or report: every look at the
 * queues walks the list, and a program that creates and destroys a stream
 * at each step (HeCBench's streamCreateCopyDestroy, a thousand streams)
 * spent most of each copy walking the streams it had destroyed. Its next
 * stays as it is, so that a walk that stands on it (a wait that released
 * the lock) goes on to the queues after it; its memory stays, as items,
 * records and barriers may still name it. */
static void retire(queue *q) {
  if (!q->forgotten || q->head || (q->started && !q->exited) || q->error ||
      q->error_message)
    return;
  for (queue **p = &queues; *p; p = &(*p)->next)
    if (*p == q) {
      *p = q->next;
      q->retired_next = retired;
      retired = q;
      return;
    }
}

static int add_dep(item *it, queue *q) {
  dep *d = realloc(it->deps, (it->ndeps + 1) * sizeof *d);
  if (!d)
    return 0;
  it->deps = d;
  d[it->ndeps++] = (dep){q, q->issued};
  return 1;
}

/* The context waits (cuCtxWaitEvent) of each device: the records that all
 * work issued to the device after the wait waits for, until they are
 * done. */
#define MAX_BARRIERS 64
typedef struct barrier {
  int device;
  queue *q;
  unsigned long long ticket;
} barrier;
static barrier barriers[MAX_BARRIERS];
static size_t nbarriers;

/* Work issued to q waits for the device's barriers (the ones done are
 * dropped); 0 when memory runs out. */
static int add_barrier_deps(item *it, const queue *q) {
  size_t j = 0;
  for (size_t i = 0; i < nbarriers; ++i) {
    barrier *b = &barriers[i];
    if (b->q->done >= b->ticket)
      continue;
    barriers[j++] = *b;
    if (b->device != q->device || b->q == q)
      continue;
    if (!add_dep(it, b->q))
      return 0;
    it->deps[it->ndeps - 1].ticket = b->ticket;
  }
  nbarriers = j;
  return 1;
}

/* CUDA's implicit order around the legacy default stream: its work waits
 * for the work before it in every blocking stream of the device, and a
 * blocking stream's work for the legacy stream's before it. The device's
 * context waits, too. */
static int add_implicit_deps(item *it, const queue *q) {
  if (!add_barrier_deps(it, q))
    return 0;
  for (queue *o = queues; o; o = o->next) {
    if (o == q || o->device != q->device || !pending(o))
      continue;
    if ((q->legacy && o->blocking) || (q->blocking && o->legacy))
      if (!add_dep(it, o))
        return 0;
  }
  return 1;
}

static int deps_met(const item *it) {
  for (size_t i = 0; i < it->ndeps; ++i)
    if (it->deps[i].q->done < it->deps[i].ticket)
      return 0;
  return 1;
}

static void free_item(item *it) {
  if (it->graph)
    cuemu__graph_free(it->graph);
  free(it->deps);
  free(it->records);
  free(it->tickets);
  free(it);
}

/* ---- Execution threads --------------------------------------------------- */

static void describe(queue *q, const item *it) {
  q->what[0] = 0;
  if (it->kind != ITEM_NODE || it->graph->nodes.n == 0)
    return;
  const cuemu_rt_graph_node *n = it->graph->nodes.v[0];
  if (n->p.type == CUEMU_RT_NODE_KERNEL && n->p.u.kernel.desc)
    snprintf(q->what, sizeof q->what, "kernel %s", n->p.u.kernel.desc->name);
  else
    snprintf(q->what, sizeof q->what, "a %s node",
             cuemu__graph_type_name(n->p.type));
}

static void *stream_handle(const queue *q) {
  return q->thread ? (void *)2 : (void *)(q->legacy ? 0 : q->stream);
}

static int run_item(queue *q, item *it) {
  void *stream = stream_handle(q);
  /* initcheck's report of a copy's source (a copy, or a graph's copy node)
   * names the program's call that queued it. */
  cuemu__check_api_run_for(&it->issuer);
  int code = cudaSuccess;
  switch (it->kind) {
  case ITEM_NODE:
    code = cuemu__graph_run(it->graph, stream, 0);
    break;
  case ITEM_RECORD:
    /* An event destroyed since its record was issued is no error. */
    cuemu__rt_event_stamp(it->event, it->ticket);
    break;
  case ITEM_CALL:
    code = it->call(it->arg, stream);
    break;
  default:
    break;
  }
  cuemu__check_api_run_for(NULL);
  return code;
}

static void *execute(void *arg) {
  queue *q = arg;
  cuemu__stream_name_thread("cuemu-stream");
  running_queue = q;
  cuemu__printf_mark_executor(); /* the host prints at the issue */
  cuemu__capture_bypass++; /* items are in their stream's order already */
  cuemu__device_select(q->device);
  pthread_mutex_lock(&lock);
  for (;;) {
    while (!q->head && !q->forgotten)
      pthread_cond_wait(&changed, &lock);
    if (!q->head) {
      q->exited = 1;
      retire(q);
      break;
    }
    item *it = q->head;
    while (!deps_met(it))
      pthread_cond_wait(&changed, &lock);
    q->running = 1;
    clock_gettime(CLOCK_MONOTONIC, &q->since);
    describe(q, it);
    running_seq = it->seq;
    pthread_mutex_unlock(&lock);
    cuemu_status sticky = cuemu__device_sticky();
    running_item = it;
    /* Under schedule perturbation, not while a perturbed launch of another
     * stream runs (cuemu_check_perturb.c). */
    int exclusive = it->transfer && cuemu__config_check_schedules();
    if (exclusive)
      cuemu__check_perturb_exclude(1);
    int code = run_item(q, it);
    if (exclusive)
      cuemu__check_perturb_exclude(0);
    running_item = NULL;
    /* A kernel's fault makes the device's error sticky without failing the
     * item: its message is kept as well. */
    int failed = code || (sticky == CUEMU_SUCCESS &&
                          cuemu__device_sticky() != CUEMU_SUCCESS);
    char *message = failed ? strdup(cuemu_last_message()) : NULL;
    pthread_mutex_lock(&lock);
    q->head = it->next;
    if (!q->head)
      q->tail = NULL;
    q->done++;
    q->running = q->waiting = q->abandoned = q->spun = 0;
    if (code && !q->error)
      q->error = code;
    if (message && !q->error_message)
      q->error_message = message;
    else
      free(message);
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    free_item(it);
    pthread_mutex_lock(&lock);
  }
  pthread_mutex_unlock(&lock);
  return NULL;
}

/* Makes (q, ticket) the pending record of `event`, issued as item `seq`
 * of all; the lock held. */
static void note_record(void *event, queue *q, unsigned long long ticket,
                        unsigned long long seq) {
  size_t i = 0;
  while (i < nrecords && records[i].event != event)
    ++i;
  if (i == nrecords &&
      cuemu__rt_reserve_one((void **)&records, &nrecords, &records_cap,
                            sizeof *records))
    records[nrecords++].event = event;
  if (i < nrecords)
    records[i] = (record){event, q, ticket, seq};
}

unsigned long long cuemu__stream_running_ticket(void *event) {
  const item *it = running_item;
  for (size_t i = 0; it && it->tickets && i < it->nrecords; ++i)
    if (it->records[i] == event)
      return it->tickets[i];
  return 0;
}

int cuemu__stream_record_is_latest(void *event) {
  if (!running_queue)
    return 1;
  pthread_mutex_lock(&lock);
  const record *r = NULL;
  for (size_t i = 0; i < nrecords && !r; ++i)
    if (records[i].event == event)
      r = &records[i];
  int latest = !r || r->seq <= running_seq;
  pthread_mutex_unlock(&lock);
  return latest;
}

/* A child of fork() has none of the execution threads: it starts with no
 * queues (the parent's pending work is the parent's). */
static void forget_after_fork(void) {
  pthread_mutex_init(&lock, NULL);
  pthread_cond_init(&changed, NULL);
  queues = NULL;
  nrecords = 0;
}

/* At exit, before the kernels' last printf records are printed: the work
 * of every stream, so that a launch that the program did not synchronise
 * with prints its lines (cuemu__printf_wait_at_exit). Not on an execution
 * thread (exit() called by a host function of a stream), which would wait
 * for itself. */
static int wait_all(int take, int device);
static void wait_at_exit(void) {
  if (!running_queue)
    wait_all(0, -1);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void) {
  pthread_atfork(NULL, NULL, forget_after_fork);
}

/* Appends `it` to the stream's queue, starting its thread (the lock
 * held); its queue, or NULL when out of memory (`it` freed). An item that
 * carries an event (a record, or a call that notes one) becomes the
 * event's pending record. */
static queue *append(void *stream, item *it) {
  queue *q = find(stream, 1);
  if (!q || !add_implicit_deps(it, q)) {
    free_item(it);
    return NULL;
  }
  if (!q->started) {
    cuemu__printf_wait_at_exit(wait_at_exit);
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, execute, q);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      free_item(it);
      return NULL;
    }
    q->started = 1;
  }
  if (q->tail)
    q->tail->next = it;
  else
    q->head = it;
  q->tail = it;
  q->issued++;
  it->seq = ++issued_items;
  if (it->event)
    note_record(it->event, q, q->issued, it->seq);
  for (size_t i = 0; i < it->nrecords; ++i)
    note_record(it->records[i], q, q->issued, it->seq);
  pthread_cond_broadcast(&changed);
  return q;
}

/* Appends `it` to the stream's queue; a CUDA code. */
static int enqueue(void *stream, item *it) {
  pthread_once(&atfork_once, register_atfork);
  pthread_mutex_lock(&lock);
  queue *q = append(stream, it);
  pthread_mutex_unlock(&lock);
  return q ? cudaSuccess : cuemu_rt_error(cudaErrorMemoryAllocation);
}

int cuemu__stream_defer_node(void *stream,
                             const cuemu_rt_graph_node_params *params) {
  item *it = calloc(1, sizeof *it);
  cuemu_rt_graph *g = cuemu__graph_new();
  if (!it || !g) {
    free(it);
    if (g)
      cuemu__graph_free(g);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  cuemu_rt_graph_node *node;
  cuemu__graph_lock();
  int code = cuemu__graph_add(&node, g, NULL, 0, params);
  cuemu__graph_unlock();
  if (code) {
    cuemu__graph_free(g);
    free(it);
    return code;
  }
  it->kind = ITEM_NODE;
  it->graph = g;
  it->transfer = params->type == CUEMU_RT_NODE_MEMCPY ||
                 params->type == CUEMU_RT_NODE_MEMSET;
  if (params->type == CUEMU_RT_NODE_MEMCPY)
    cuemu__check_api_issuer(&it->issuer);
  /* Its pinned memory is racecheck's until the host synchronises with it
   * (cuemu_rt_pinned_guard.h): the node's parameters name its guards. */
  const void *owner = &node->p;
  int guarded = it->transfer && cuemu__pinned_guard_issue(owner, params);
  code = enqueue(stream, it);
  if (code && guarded)
    cuemu__pinned_guard_cancel(owner);
  return code;
}

/* A new item that calls call(arg, stream), or NULL. */
static item *call_item(int (*call)(void *, void *), void *arg) {
  item *it = calloc(1, sizeof *it);
  if (it) {
    it->kind = ITEM_CALL;
    it->call = call;
    it->arg = arg;
    cuemu__check_api_issuer(&it->issuer);
  }
  return it;
}

int cuemu__stream_defer_call(void *stream, int (*call)(void *, void *),
                             void *arg) {
  item *it = call_item(call, arg);
  return it ? enqueue(stream, it)
            : cuemu_rt_error(cudaErrorMemoryAllocation);
}

static record *record_of(void *event) {
  for (size_t i = 0; i < nrecords; ++i)
    if (records[i].event == event)
      return &records[i];
  return NULL;
}

/* Makes `it` wait for the pending record of `event`, if any (the lock
 * held); 0 when out of memory. */
static int wait_for_record(item *it, void *event) {
  record *r = record_of(event);
  if (!r || r->q->done >= r->ticket)
    return 1;
  if (!add_dep(it, r->q))
    return 0;
  it->deps[it->ndeps - 1].ticket = r->ticket;
  return 1;
}

int cuemu__stream_defer_call_after(void *stream,
                                   int (*call)(void *, void *), void *arg,
                                   void *key) {
  return cuemu__stream_defer_call_recording(stream, call, arg, key, NULL, 0,
                                            NULL);
}

int cuemu__stream_defer_call_recording(void *stream,
                                       int (*call)(void *, void *), void *arg,
                                       void *key, void *const *events,
                                       size_t nevents,
                                       const unsigned long long *tickets) {
  item *it = call_item(call, arg);
  if (it && nevents) {
    it->records = malloc(nevents * sizeof *it->records);
    if (it->records) {
      memcpy(it->records, events, nevents * sizeof *events);
      it->nrecords = nevents;
    }
    if (tickets) {
      it->tickets = malloc(nevents * sizeof *it->tickets);
      if (it->tickets)
        memcpy(it->tickets, tickets, nevents * sizeof *tickets);
    }
  }
  if (!it || (nevents && (!it->records || (tickets && !it->tickets)))) {
    if (it)
      free_item(it);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  pthread_once(&atfork_once, register_atfork);
  pthread_mutex_lock(&lock);
  queue *q = NULL;
  if (wait_for_record(it, key)) {
    it->event = key; /* noted with the call's own ticket */
    q = append(stream, it);
  } else {
    free_item(it);
  }
  pthread_mutex_unlock(&lock);
  return q ? cudaSuccess : cuemu_rt_error(cudaErrorMemoryAllocation);
}

int cuemu__stream_defer_record(void *event, void *stream,
                               unsigned long long ticket) {
  item *it = calloc(1, sizeof *it);
  if (!it)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  it->kind = ITEM_RECORD;
  it->event = event;
  it->ticket = ticket;
  return enqueue(stream, it);
}

int cuemu__stream_defer_record_device(void *event, void *stream,
                                      int device) {
  item *it = calloc(1, sizeof *it);
  if (!it)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  it->kind = ITEM_RECORD;
  it->event = event;
  pthread_once(&atfork_once, register_atfork);
  pthread_mutex_lock(&lock);
  const queue *own = find(stream, 0);
  int ok = 1;
  for (queue *o = queues; o && ok; o = o->next)
    if (o != own && o->device == device && !o->forgotten && pending(o))
      ok = add_dep(it, o);
  queue *q = ok ? append(stream, it) : NULL;
  if (!ok)
    free_item(it);
  pthread_mutex_unlock(&lock);
  return q ? cudaSuccess : cuemu_rt_error(cudaErrorMemoryAllocation);
}

int cuemu__stream_device_wait_event(int device, void *event) {
  pthread_mutex_lock(&lock);
  record *r = record_of(event);
  int code = cudaSuccess;
  if (r && r->q->done < r->ticket) {
    size_t j = 0;
    for (size_t i = 0; i < nbarriers; ++i)
      if (barriers[i].q->done < barriers[i].ticket)
        barriers[j++] = barriers[i];
    nbarriers = j;
    if (nbarriers < MAX_BARRIERS)
      barriers[nbarriers++] = (barrier){device, r->q, r->ticket};
    else
      code = cudaErrorMemoryAllocation; /* the caller waits on the host */
  }
  pthread_mutex_unlock(&lock);
  return code;
}

int cuemu__stream_defer_wait_event(void *stream, void *event) {
  item *it = calloc(1, sizeof *it);
  if (!it)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  it->kind = ITEM_WAIT;
  pthread_mutex_lock(&lock);
  int ok = wait_for_record(it, event);
  pthread_mutex_unlock(&lock);
  if (!ok) {
    free_item(it);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  return enqueue(stream, it);
}

/* ---- Waiting on the host ------------------------------------------------- */

static double seconds_since(const struct timespec *t) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t->tv_sec) +
         (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* Called while the host waits (the lock held): when every stream with
 * work is stuck waiting for memory or for another stream, and the waiting
 * thread is the process's only host thread, nothing left can satisfy the
 * waits: they are abandoned, and fail with a message. A kernel that has
 * run for CUEMU_EXT_WAIT_SECONDS while nothing else can run, and no block
 * or thread of which has ended, or arrived at a block barrier, for as long,
 * is reported and made the sticky error: returns cudaErrorLaunchTimeout
 * then, else 0. A kernel whose blocks or threads keep ending, or whose
 * threads keep arriving at barriers, is long, not spinning (a benchmark's
 * 2-million-block launch ran for minutes here,
 * tests/programs/async/long_kernel_progress.cu; a single block of 128
 * threads making 2 million atomic updates each ran for more than a minute
 * on a loaded machine, tests/programs/trialhec4/long_block_threads_end.cu;
 * one block of 512 threads that each add 2^19 items to a sketch in shared
 * memory before a barrier, cuCollections' HyperLogLog example,
 * tests/programs/async/long_block_barrier_turns.cu). */
/* Whether no block or thread of a running launch has ended for `limit`
 * seconds; a queue's item that is no launch (a host function) has none: 1. */
static int blocks_still_for(long limit) {
  double still = cuemu__watchdog_still_seconds();
  return still < 0 || still >= (double)limit;
}

static int look_for_deadlock(void) {
  int busy = 0, stuck = 0, shared = 0;
  queue *spinning = NULL;
  long limit = cuemu__rt_wait_limit();
  for (queue *q = queues; q; q = q->next) {
    if (!q->head)
      continue;
    if (q->running && q->waiting) {
      stuck++;
      shared |= q->waiting == 2;
    } else if (q->running) {
      busy++;
      if (q->spun || (seconds_since(&q->since) >= (double)limit &&
                      blocks_still_for(limit)))
        spinning = q;
    } else if (!deps_met(q->head)) {
      stuck++;
    } else {
      busy++;
    }
  }
  if ((busy && !spinning) || (!busy && (!stuck || shared)))
    return 0;
  if (cuemu__stream_host_threads() != 1)
    return 0;
  if (busy) {
    if (busy > 1)
      return 0;
    if (spinning->spun++)
      return cudaErrorLaunchTimeout; /* reported already */
    cuemu__graph_fail(cudaErrorLaunchTimeout,
                      "%s has run for %ld s (CUEMU_EXT_WAIT_SECONDS) while "
                      "the host waits for it and no other host thread can "
                      "change anything: it seems to spin on memory that "
                      "nothing will write",
                      spinning->what, limit);
    if (!cuemu__config_quiet())
      fprintf(stderr, "cuemu: %s\n", cuemu_last_message());
    /* As a GPU's watchdog: sticky (the kernel's thread spins on). */
    cuemu__device_stick(CUEMU_DEADLOCK);
    return cudaErrorLaunchTimeout;
  }
  for (queue *q = queues; q; q = q->next)
    if (q->head && q->running && q->waiting)
      q->abandoned = 1;
  pthread_cond_broadcast(&changed);
  return 0;
}

/* Waits (the lock held) until queue q has done `ticket` items. */
static int wait_ticket(queue *q, unsigned long long ticket) {
  while (q->done < ticket) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += 20 * 1000 * 1000;
    if (t.tv_nsec >= 1000000000) {
      t.tv_sec++;
      t.tv_nsec -= 1000000000;
    }
    if (pthread_cond_timedwait(&changed, &lock, &t) != 0) {
      int code = look_for_deadlock();
      if (code)
        return code;
    }
  }
  return 0;
}

/* The first error of a queue since it was last asked; cleared. */
static int take_error(queue *q) {
  int e = q->error;
  q->error = 0;
  if (q->error_message)
    cuemu__report(CUEMU_SUCCESS, "%s", q->error_message);
  free(q->error_message);
  q->error_message = NULL;
  return e;
}

/* Waits (the lock held) for q's work so far and, as an operation that
 * runs now in q's place must, for the work CUDA orders before it in other
 * streams: every blocking stream's for the legacy stream, the legacy
 * stream's for a blocking one. */
static int drain_queue(queue *q) {
  int code = 0;
  /* Work the host does in the stream's order (a synchronous copy) follows
   * the device's context waits as well. */
  barrier waits[MAX_BARRIERS];
  size_t nwaits = 0;
  for (size_t i = 0; i < nbarriers; ++i)
    if (barriers[i].device == q->device && barriers[i].q != q)
      waits[nwaits++] = barriers[i];
  for (size_t i = 0; i < nwaits && !code; ++i)
    code = wait_ticket(waits[i].q, waits[i].ticket);
  for (queue *o = queues; o && !code; o = o->next)
    if (o != q && o->device == q->device && pending(o) &&
        ((q->legacy && o->blocking) || (q->blocking && o->legacy)))
      code = wait_ticket(o, o->issued);
  if (!code)
    code = wait_ticket(q, q->issued);
  int e = take_error(q);
  return code ? code : e;
}

int cuemu__stream_drain(void *stream) {
  if (cuemu__stream_inline())
    return 0;
  pthread_mutex_lock(&lock);
  queue *q = find(stream, 1);
  int code = q ? drain_queue(q) : 0;
  pthread_mutex_unlock(&lock);
  return code ? cuemu_rt_error(code) : 0;
}

static int wait_all(int take, int device) {
  if (cuemu__stream_inline())
    return 0;
  pthread_mutex_lock(&lock);
  int code = 0;
  for (queue *q = queues; q; q = q->next) {
    if (device >= 0 && q->device != device)
      continue;
    int e = wait_ticket(q, q->issued);
    int f = take ? take_error(q) : 0;
    if (!code)
      code = e ? e : f;
    retire(q);
  }
  pthread_mutex_unlock(&lock);
  return code ? cuemu_rt_error(code) : 0;
}

int cuemu__stream_drain_all(void) {
  return wait_all(1, cuemu__device_current());
}

int cuemu__stream_drain_device(int device) { return wait_all(1, device); }

void cuemu__stream_wait_all(void) { wait_all(0, cuemu__device_current()); }

void cuemu__stream_wait_every_device(void) { wait_all(0, -1); }

void cuemu__stream_wait_device(int device) { wait_all(0, device); }

int cuemu__stream_busy(void *stream) {
  if (cuemu__stream_inline())
    return 0;
  pthread_mutex_lock(&lock);
  queue *q = find(stream, 0);
  int busy = q && pending(q);
  pthread_mutex_unlock(&lock);
  return busy;
}

int cuemu__stream_event_wait(void *event, int wait) {
  if (running_queue && wait) {
    /* A graph's event wait node on an execution thread. */
    pthread_mutex_lock(&lock);
    record *r = record_of(event);
    while (r && r->q != running_queue && r->q->done < r->ticket) {
      pthread_cond_wait(&changed, &lock);
      r = record_of(event);
    }
    pthread_mutex_unlock(&lock);
    return 0;
  }
  /* A query on an execution thread (a host function asking about an event
   * recorded after it in its stream) looks at the records as the host
   * does; the inline mode has none pending. */
  if (cuemu__stream_inline() && !(running_queue && !wait))
    return 0;
  pthread_mutex_lock(&lock);
  record *r = record_of(event);
  int code = 0;
  if (r && r->q->done < r->ticket) {
    if (!wait)
      code = 1;
    else
      code = wait_ticket(r->q, r->ticket);
  }
  pthread_mutex_unlock(&lock);
  return wait && code ? cuemu_rt_error(code) : code;
}

void cuemu__stream_forget_event(void *event) {
  pthread_mutex_lock(&lock);
  record *r = record_of(event);
  if (r)
    *r = records[--nrecords];
  pthread_mutex_unlock(&lock);
}

void cuemu__stream_forget(void *stream) {
  pthread_mutex_lock(&lock);
  queue *q = cuemu__handle_is_default_stream(stream) ? NULL : find(stream, 0);
  if (q) {
    q->forgotten = 1;
    retire(q); /* one without a thread; a thread retires its own */
    pthread_cond_broadcast(&changed);
  }
  pthread_mutex_unlock(&lock);
}

void cuemu__stream_reset(int device) {
  pthread_mutex_lock(&lock);
  for (queue *q = queues; q; q = q->next)
    if (q->device == device) {
      q->forgotten = 1;
      retire(q);
    }
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
}

/* ---- Waits on an execution thread ---------------------------------------- */

void cuemu__stream_waiting_for_memory(int waiting) {
  queue *q = running_queue;
  if (!q)
    return;
  pthread_mutex_lock(&lock);
  q->waiting = waiting;
  if (!waiting)
    q->abandoned = 0;
  pthread_mutex_unlock(&lock);
}

int cuemu__stream_executing(void) { return running_queue != NULL; }

int cuemu__stream_internal_thread(void) {
  char name[16] = "";
  return cuemu_thread_in_kernel() || running_queue != NULL ||
         (prctl(PR_GET_NAME, name) == 0 && strncmp(name, "cuemu-", 6) == 0);
}

int cuemu__stream_wait_abandoned(void) {
  queue *q = running_queue;
  if (!q)
    return 0;
  pthread_mutex_lock(&lock);
  int a = q->abandoned;
  pthread_mutex_unlock(&lock);
  return a;
}

/* ---- Launches ------------------------------------------------------------ */

static int defer_launch(const cuemu_launch_request *r, int checked) {
  if (cuemu__stream_inline()) {
    /* It runs now, on threads that may touch managed memory (the caller
     * then calls cuemu__managed_guard_launched). */
    cuemu__managed_guard_before_launch();
    return CUEMU__RT_NOT_CAPTURED;
  }
  const cuemu_kernel_desc *d = r->kernel;
  /* A kernel whose arguments cannot be copied (no parameter sizes to copy
   * them by) runs now, after the work before it. A kernel template launched
   * with deduced template arguments is queued like any other when its
   * arguments (a tuple of values) copy bytewise: run now, one that waits
   * for a flag the host raises after the launch would never see it. */
  if (!d || (!d->params &&
             (d->param_count > 0 ||
              (!d->function && !cuemu__rt_deduced_copyable(d))))) {
    int code = cuemu__stream_drain(r->stream);
    return code ? code : CUEMU__RT_NOT_CAPTURED;
  }
  cuemu_status st = checked ? CUEMU_SUCCESS : cuemu__device_check_launch(r);
  if (st != CUEMU_SUCCESS)
    return cuemu_rt_error(cuemu_status_cuda_error(st));
  /* The launch's start, where CUDA prints the output of the kernels that
   * have ended: here, on the issuing thread, not when the queue runs it. */
  cuemu__printf_flush_pending();
  cuemu_rt_graph_node_params p = cuemu__rt_launch_node(r);
  /* Threads the launch starts may touch managed memory; the host thread,
   * on a device without concurrent managed access, not until it
   * synchronises (cuemu_rt_managed_guard.c). */
  cuemu__managed_guard_before_launch();
  int code = cuemu__stream_defer_node(r->stream, &p);
  if (code == cudaSuccess)
    cuemu__managed_guard_launched(r->stream, d->name);
  return code;
}

int cuemu__stream_defer_launch(const cuemu_launch_request *r) {
  return defer_launch(r, 0);
}

int cuemu__stream_defer_checked_launch(const cuemu_launch_request *r) {
  return defer_launch(r, 1);
}
