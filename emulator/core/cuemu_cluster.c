/*
 * cuemu_cluster.c: thread block clusters (see cuemu_cluster.h).
 *
 * Distributed shared memory: a block's dynamic shared buffer is its
 * worker's, and its static __shared__ arrays are thread-local variables of
 * its worker, at the same offset from every thread's thread pointer. Each
 * block records both when it first uses the cluster API or reaches
 * cluster.sync(), and map_shared_rank() moves an address by the
 * difference. CUDA requires a cluster.sync() before a block touches
 * another's shared memory (so that the other has started) and before it
 * exits while others may still touch its own; both are checked where they
 * can be.
 */
#include "core/cuemu_cluster.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_device_runtime.h>

#include "check/cuemu_check.h"

#define MAX_CLUSTER 16u

typedef struct cuemu_cluster {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  unsigned size, arrived, done;
  unsigned long long generation;
  unsigned started;             /* ranks whose bases are known */
  void *dynamic[MAX_CLUSTER];   /* each rank's dynamic shared buffer */
  /* Each rank's static __shared__ variables: its worker's thread-local
   * block of the kernel's module (static shared memory is the module's
   * `static thread_local` variables), at one offset in every block. */
  uintptr_t tls[MAX_CLUSTER];
  uintptr_t tls_size;
} cuemu_cluster;

cuemu_status cuemu__cluster_begin(cuemu_launch *L) {
  unsigned size = L->cluster.x * L->cluster.y * L->cluster.z;
  unsigned long long count = L->nblocks / size;
  L->clusters = calloc(count, sizeof *L->clusters);
  if (!L->clusters)
    return CUEMU_OUT_OF_MEMORY;
  for (unsigned long long i = 0; i < count; ++i) {
    pthread_mutex_init(&L->clusters[i].lock, NULL);
    pthread_cond_init(&L->clusters[i].cond, NULL);
    L->clusters[i].size = size;
  }
  return CUEMU_SUCCESS;
}

void cuemu__cluster_reset(cuemu_launch *L) {
  if (!L->clusters)
    return;
  unsigned size = L->cluster.x * L->cluster.y * L->cluster.z;
  for (unsigned long long i = 0; i < L->nblocks / size; ++i) {
    L->clusters[i].arrived = L->clusters[i].done = 0;
    L->clusters[i].started = 0;
  }
}

void cuemu__cluster_end(cuemu_launch *L) {
  if (!L->clusters)
    return;
  unsigned size = L->cluster.x * L->cluster.y * L->cluster.z;
  for (unsigned long long i = 0; i < L->nblocks / size; ++i) {
    pthread_mutex_destroy(&L->clusters[i].lock);
    pthread_cond_destroy(&L->clusters[i].cond);
  }
  free(L->clusters);
  L->clusters = NULL;
}

/* The cluster of the worker's block and the block's rank in it. */
static cuemu_cluster *cluster_of(cuemu_worker *w, unsigned *rank) {
  cuemu_launch *L = w->launch;
  cuemu_uint3 b = w->block_idx;
  cuemu_dim3 d = L->cluster;
  *rank = (b.z % d.z * d.y + b.y % d.y) * d.x + b.x % d.x;
  unsigned long long cx = L->grid.x / d.x, cy = L->grid.y / d.y;
  unsigned long long index = ((unsigned long long)(b.z / d.z) * cy +
                              b.y / d.y) * cx + b.x / d.x;
  return &L->clusters[index];
}

/* Records the calling block's shared-memory bases. Locked. */
static void note_started(cuemu_cluster *c, unsigned rank) {
  /* The block's buffer as its kernel code sees it (a checked launch gives
   * it one with redzones instead of the worker's). */
  c->dynamic[rank] = cuemu_dynamic_shared;
  uintptr_t lo, size;
  cuemu__static_shared_range(cuemu__worker_self, &lo, &size);
  c->tls[rank] = lo;
  c->tls_size = size;
  c->started |= 1u << rank;
}

/* Completes cluster.sync() when every block has arrived or finished;
 * returns 1 when it did. Locked. */
static int release_locked(cuemu_cluster *c) {
  if (c->arrived + c->done < c->size)
    return 0;
  c->arrived = 0;
  c->generation++;
  pthread_cond_broadcast(&c->cond);
  return 1;
}

void cuemu__cluster_block_done(cuemu_worker *w) {
  if (!w->launch->clusters)
    return;
  unsigned rank;
  cuemu_cluster *c = cluster_of(w, &rank);
  pthread_mutex_lock(&c->lock);
  ++c->done;
  if (c->arrived)
    release_locked(c);
  pthread_mutex_unlock(&c->lock);
}

void cuemu__cluster_stop(cuemu_launch *L) {
  if (!L->clusters)
    return;
  unsigned size = L->cluster.x * L->cluster.y * L->cluster.z;
  for (unsigned long long i = 0; i < L->nblocks / size; ++i) {
    pthread_mutex_lock(&L->clusters[i].lock);
    pthread_cond_broadcast(&L->clusters[i].cond);
    pthread_mutex_unlock(&L->clusters[i].lock);
  }
}

/* ---- Kernel code ---------------------------------------------------------- */

cuemu_uint3 cuemu_cluster_dims(void) {
  cuemu_worker *w = cuemu__worker_self;
  cuemu_uint3 one = {1, 1, 1};
  if (!w || !w->in_kernel || !w->launch->clusters)
    return one;
  cuemu_uint3 d = {w->launch->cluster.x, w->launch->cluster.y,
                   w->launch->cluster.z};
  return d;
}

/* ---- The split barrier ---------------------------------------------------
 *
 * Each thread's arrival is remembered with the phase it arrived at (the
 * cluster's generation, or the block's own count of phases when the launch
 * has no clusters). When every thread of the block has arrived or exited,
 * the block arrives at the cluster, as a block that reached cluster.sync()
 * did. A waiting thread yields to the other threads of its block until its
 * phase completes; when every live thread of the block waits, the worker
 * sleeps until the other blocks of the cluster have arrived. */

struct cuemu_split_barrier {
  unsigned arrivals;            /* threads arrived at the phase gathered */
  /* Threads yielding in cluster_wait, by the parity of the phase they
   * wait for: a thread whose phase ended may not have run since, while
   * others already wait for the next one. */
  unsigned waiting[2];
  unsigned long long phases;    /* phases completed, without clusters */
  unsigned long long seen;      /* 1 + the last phase the checkers saw end */
  /* Per thread, 1 + the phase it arrived at; 0 when it has not arrived. */
  unsigned long long token[CUEMU_MAX_THREADS_PER_BLOCK];
};

void cuemu__cluster_split_reset(cuemu_worker *w) {
  cuemu_split_barrier *s = w->split;
  s->arrivals = s->waiting[0] = s->waiting[1] = 0;
  s->phases = s->seen = 0;
  memset(s->token, 0, w->nthreads * sizeof s->token[0]);
}

static cuemu_split_barrier *split_of(cuemu_worker *w) {
  if (!w->split) {
    w->split = calloc(1, sizeof *w->split);
    if (!w->split)
      cuemu__block_fail(w, CUEMU_OUT_OF_MEMORY,
                        "kernel %s: no memory for the cluster barrier",
                        w->launch->kernel->name);
  }
  return w->split;
}

/* The phase the cluster (or the block, without clusters) is gathering. */
static unsigned long long current_phase(cuemu_worker *w) {
  if (!w->launch->clusters)
    return w->split->phases;
  unsigned rank;
  cuemu_cluster *c = cluster_of(w, &rank);
  pthread_mutex_lock(&c->lock);
  unsigned long long g = c->generation;
  pthread_mutex_unlock(&c->lock);
  return g;
}

/* When every thread of the block has arrived (or exited), the block
 * arrives at the cluster. */
static void block_arrival(cuemu_worker *w, cuemu_split_barrier *s) {
  if (!s->arrivals || s->arrivals + w->exited < w->nthreads)
    return;
  if (w->exited) {
    /* A thread that arrived and then exited is counted twice above: the
     * block has arrived only when every live thread has. */
    unsigned long long token = current_phase(w) + 1;
    for (unsigned i = 0; i < w->nthreads; ++i)
      if (w->state[i] != CUEMU_THREAD_EXITED && s->token[i] != token)
        return;
  }
  s->arrivals = 0;
  if (!w->launch->clusters) {
    s->phases++;
    return;
  }
  unsigned rank;
  cuemu_cluster *c = cluster_of(w, &rank);
  pthread_mutex_lock(&c->lock);
  note_started(c, rank);
  ++c->arrived;
  release_locked(c);
  pthread_mutex_unlock(&c->lock);
}

static unsigned current_thread(cuemu_worker *w) {
  return (unsigned)(cuemu__thread_current(w) - w->threads);
}

void cuemu_cluster_arrive(const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  cuemu_split_barrier *s = split_of(w);
  unsigned id = current_thread(w);
  if (s->token[id])
    cuemu_device_misuse(CUEMU_KERNEL_FAULT,
                        "cluster.barrier_arrive(): the thread arrived "
                        "before without calling barrier_wait()",
                        file, line);
  s->token[id] = current_phase(w) + 1;
  s->arrivals++;
  block_arrival(w, s);
}

/* Sleeps until the cluster's phase `phase` completes (every live thread of
 * the block waits for it). */
static void sleep_for_cluster(cuemu_worker *w, unsigned long long phase) {
  unsigned rank;
  cuemu_cluster *c = cluster_of(w, &rank);
  pthread_mutex_lock(&c->lock);
  while (c->generation == phase && !atomic_load(&w->launch->stop))
    pthread_cond_wait(&c->cond, &c->lock);
  int stopped = c->generation == phase;
  pthread_mutex_unlock(&c->lock);
  if (stopped)
    /* Another block failed: the first error is the launch's. */
    cuemu__block_fail(w, CUEMU_INTERNAL, "cluster barrier abandoned");
}

void cuemu_cluster_wait(const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  cuemu_split_barrier *s = split_of(w);
  unsigned id = current_thread(w);
  if (!s->token[id])
    cuemu_device_misuse(CUEMU_KERNEL_FAULT,
                        "cluster.barrier_wait(): the thread has not called "
                        "barrier_arrive() since its last wait",
                        file, line);
  unsigned long long phase = s->token[id] - 1;
  for (;;) {
    block_arrival(w, s); /* threads may have exited since */
    if (current_phase(w) != phase)
      break;
    unsigned *waiting = &s->waiting[phase & 1];
    if (w->launch->clusters && *waiting + 1 + w->exited >= w->nthreads) {
      sleep_for_cluster(w, phase);
      break;
    }
    ++*waiting;
    cuemu_thread_yield();
    --*waiting;
  }
  s->token[id] = 0;
  /* The checkers see the phase end once, as a barrier across blocks. */
  if (w->launch->check && s->seen != phase + 1) {
    s->seen = phase + 1;
    cuemu__check_block_sync(w, 1);
  }
}

void cuemu_cluster_sync(const char *file, int line) {
  cuemu_cluster_arrive(file, line);
  cuemu_cluster_wait(file, line);
}

void *cuemu_cluster_map_shared(const void *p, unsigned rank, const char *file,
                               int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return (void *)p;
  cuemu_launch *L = w->launch;
  unsigned size = L->clusters ? L->cluster.x * L->cluster.y * L->cluster.z : 1;
  if (rank >= size) {
    char what[160];
    snprintf(what, sizeof what,
             "cluster.map_shared_rank(): rank %u of a cluster of %u blocks",
             rank, size);
    cuemu_device_misuse(CUEMU_KERNEL_FAULT, what, file, line);
  }
  if (!L->clusters)
    return (void *)p;
  unsigned mine;
  cuemu_cluster *c = cluster_of(w, &mine);
  pthread_mutex_lock(&c->lock);
  note_started(c, mine);
  int started = (c->started >> rank) & 1u;
  void *dynamic = c->dynamic[rank];
  uintptr_t theirs = c->tls[rank], mine_lo = c->tls[mine];
  uintptr_t tls_size = c->tls_size;
  pthread_mutex_unlock(&c->lock);
  if (!started) {
    char what[200];
    snprintf(what, sizeof what,
             "cluster.map_shared_rank(): the block of rank %u has not "
             "started yet (call cluster.sync() before using another "
             "block's shared memory)",
             rank);
    cuemu_device_misuse(CUEMU_KERNEL_FAULT, what, file, line);
  }
  uintptr_t a = (uintptr_t)p, base = (uintptr_t)cuemu_dynamic_shared;
  if (a - base < L->dynamic_shared)
    return (char *)dynamic + (a - base);
  if (a - mine_lo < tls_size)
    return (void *)(a - mine_lo + theirs);
  /* Not shared memory of this block: CUDA's map of a generic address that
   * is not shared memory is undefined; it is left as it is, and memcheck
   * or the fault handler sees any bad access. */
  return (void *)p;
}

unsigned cuemu_cluster_query_shared_rank(const void *p) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel || !w->launch->clusters)
    return 0;
  unsigned mine;
  cuemu_cluster *c = cluster_of(w, &mine);
  uintptr_t a = (uintptr_t)p;
  unsigned found = mine;
  uintptr_t nearest = UINTPTR_MAX;
  pthread_mutex_lock(&c->lock);
  note_started(c, mine);
  for (unsigned r = 0; r < c->size; ++r) {
    if (!((c->started >> r) & 1u))
      continue;
    if (a - (uintptr_t)c->dynamic[r] < w->launch->dynamic_shared) {
      found = r;
      break;
    }
    /* Static shared memory: the rank whose thread-local block holds it,
     * else the nearest one. */
    uintptr_t d = a > c->tls[r] ? a - c->tls[r] : c->tls[r] - a;
    if (a - c->tls[r] < c->tls_size) {
      found = r;
      break;
    }
    if (d < nearest) {
      nearest = d;
      found = r;
    }
  }
  pthread_mutex_unlock(&c->lock);
  return found;
}
