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

#include <cuemu/cuemu_device_runtime.h>

#define MAX_CLUSTER 16u

typedef struct cuemu_cluster {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  unsigned size, arrived, done;
  unsigned long long generation;
  unsigned started;             /* ranks whose bases are known */
  void *dynamic[MAX_CLUSTER];   /* each rank's dynamic shared buffer */
  uintptr_t tp[MAX_CLUSTER];    /* each rank's worker's thread pointer */
} cuemu_cluster;

static uintptr_t thread_pointer(void) {
  uintptr_t tp;
#if defined(__x86_64__)
  __asm__("mov %%fs:0, %0" : "=r"(tp));
#elif defined(__aarch64__)
  __asm__("mrs %0, tpidr_el0" : "=r"(tp));
#else
#error "cuemu_cluster.c: no thread pointer for this architecture"
#endif
  return tp;
}

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

/* Records the block's shared-memory bases. Locked. */
static void note_started(cuemu_worker *w, cuemu_cluster *c, unsigned rank) {
  c->dynamic[rank] = w->dynamic_shared;
  c->tp[rank] = thread_pointer();
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

void cuemu__cluster_wait(cuemu_worker *w) {
  unsigned rank;
  cuemu_cluster *c = cluster_of(w, &rank);
  pthread_mutex_lock(&c->lock);
  note_started(w, c, rank);
  unsigned long long generation = c->generation;
  ++c->arrived;
  if (!release_locked(c)) {
    while (generation == c->generation && !atomic_load(&w->launch->stop))
      pthread_cond_wait(&c->cond, &c->lock);
  }
  int stopped = generation == c->generation;
  pthread_mutex_unlock(&c->lock);
  if (stopped)
    /* Another block failed: the first error is the launch's. */
    cuemu__block_fail(w, CUEMU_INTERNAL, "cluster.sync() abandoned");
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

void cuemu_cluster_sync(const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  /* Without clusters, every block is a cluster of one. */
  cuemu_block_barrier(w->launch->clusters ? CUEMU_BARRIER_CLUSTER
                                          : CUEMU_BARRIER_PLAIN,
                      0, file, line);
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
  note_started(w, c, mine);
  int started = (c->started >> rank) & 1u;
  void *dynamic = c->dynamic[rank];
  uintptr_t tp = c->tp[rank];
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
  uintptr_t a = (uintptr_t)p, base = (uintptr_t)w->dynamic_shared;
  if (a - base < L->dynamic_shared)
    return (char *)dynamic + (a - base);
  return (void *)(a - thread_pointer() + tp);
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
  note_started(w, c, mine);
  for (unsigned r = 0; r < c->size; ++r) {
    if (!((c->started >> r) & 1u))
      continue;
    if (a - (uintptr_t)c->dynamic[r] < w->launch->dynamic_shared) {
      found = r;
      break;
    }
    /* Static shared memory: the thread-local block nearest to it. */
    uintptr_t d = a > c->tp[r] ? a - c->tp[r] : c->tp[r] - a;
    if (d < nearest) {
      nearest = d;
      found = r;
    }
  }
  pthread_mutex_unlock(&c->lock);
  return found;
}
