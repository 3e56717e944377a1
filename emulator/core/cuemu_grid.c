/*
 * cuemu_grid.c: cooperative launches and grid.sync().
 *
 * In a cooperative launch every block runs on a worker OS thread of its own,
 * so all blocks are resident at once, as cudaLaunchCooperativeKernel
 * guarantees. grid.sync() is a block barrier whose completion, before it
 * releases the block's threads, waits (blocking the OS thread) until every
 * block of the grid has reached it or finished.
 */
#include <stdlib.h>
#include <string.h>

#include "base/cuemu_report.h"
#include "core/cuemu_cluster.h"
#include "core/cuemu_worker.h"

void cuemu__grid_wait(cuemu_worker *w) {
  cuemu_launch *L = w->launch;
  pthread_mutex_lock(&L->grid_lock);
  unsigned long long generation = L->grid_generation;
  if (++L->grid_arrived + L->grid_done >= L->nblocks) {
    L->grid_arrived = 0;
    L->grid_generation++;
    pthread_cond_broadcast(&L->grid_cond);
  } else {
    while (generation == L->grid_generation && !atomic_load(&L->stop))
      pthread_cond_wait(&L->grid_cond, &L->grid_lock);
  }
  int stopped = generation == L->grid_generation;
  pthread_mutex_unlock(&L->grid_lock);
  if (stopped)
    /* Another block failed: the first error is the launch's. */
    cuemu__block_fail(w, CUEMU_INTERNAL, "grid.sync() abandoned");
}

void cuemu__grid_block_done(cuemu_launch *L) {
  pthread_mutex_lock(&L->grid_lock);
  if (L->grid_arrived + ++L->grid_done >= L->nblocks && L->grid_arrived) {
    L->grid_arrived = 0;
    L->grid_generation++;
    pthread_cond_broadcast(&L->grid_cond);
  }
  pthread_mutex_unlock(&L->grid_lock);
}

void cuemu__grid_stop(cuemu_launch *L) {
  if (!L->cooperative)
    return;
  cuemu__cluster_stop(L);
  pthread_mutex_lock(&L->grid_lock);
  pthread_cond_broadcast(&L->grid_cond);
  pthread_mutex_unlock(&L->grid_lock);
}

void cuemu_grid_sync(const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  if (!w->launch->cooperative) {
    cuemu_uint3 t = cuemu__worker_thread_idx(w);
    cuemu__block_fail(w, CUEMU_GRID_SYNC,
                      "kernel %s: grid.sync() at %s:%d in thread (%u,%u,%u) "
                      "of block (%u,%u,%u) outside a cooperative launch "
                      "(launch with cuemu_kernel_launch_cooperative or "
                      "cudaLaunchCooperativeKernel)",
                      w->launch->kernel->name, file, line, t.x, t.y, t.z,
                      w->block_idx.x, w->block_idx.y, w->block_idx.z);
  }
  cuemu_block_barrier(CUEMU_BARRIER_GRID, 0, file, line);
}

int cuemu_grid_is_cooperative(void) {
  cuemu_worker *w = cuemu__worker_self;
  return w && w->in_kernel && w->launch->cooperative;
}
