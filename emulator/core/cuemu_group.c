/*
 * cuemu_group.c: barriers of a range of threads of a block, for thread
 * block tiles wider than a warp (64, 128, ... threads).
 *
 * Arrivals are counted per range (indexed by its first thread); the range
 * completes when the count reaches its live threads, those that have not
 * exited. A range whose last live thread exits instead of arriving, or whose
 * threads wait elsewhere, is settled or reported when nothing else in the
 * block can run.
 */
#include <stdio.h>
#include <string.h>

#include "check/cuemu_check.h"
#include "core/cuemu_worker.h"

/* Live (not exited) threads of the range. */
static unsigned live_in(const cuemu_worker *w, unsigned first, unsigned end) {
  unsigned exited = 0;
  for (unsigned id = first; id < end;) {
    unsigned word = id / 32, lane = id % 32, n = 32 - lane;
    if (n > end - id)
      n = end - id;
    unsigned bits = n == 32 ? 0xffffffffu : ((1u << n) - 1u) << lane;
    exited += (unsigned)__builtin_popcount(w->warp_exited[word] & bits);
    id += n;
  }
  return end - first - exited;
}

/* The arrival counter of the tile of `count` threads starting at `first`. */
static unsigned short *arrived_of(cuemu_worker *w, unsigned first,
                                  unsigned count) {
  unsigned level = (unsigned)__builtin_ctz(count) - 6;
  return &w->group_arrived[level][first / count];
}

/* Non-zero when thread `id` waits at the barrier of that tile. */
static int waits_at(const cuemu_worker *w, unsigned id, unsigned first,
                    unsigned count) {
  const cuemu_thread *t = &w->threads[id];
  return w->state[id] == CUEMU_THREAD_WAITING &&
         t->wait.kind == CUEMU_SYNC_GROUP && (unsigned)t->wait.op == first &&
         (unsigned)t->wait.predicate == count;
}

/* Wakes the threads of the tile [first, end) that wait at its barrier,
 * except `running`. */
static void release(cuemu_worker *w, unsigned first, unsigned count,
                    unsigned end, unsigned running) {
  for (unsigned id = first; id < end; ++id)
    if (id != running && waits_at(w, id, first, count))
      cuemu__thread_wake(w, id);
  for (unsigned warp = first / 32; warp * 32 < end; ++warp)
    w->warp_phase[warp]++; /* a step of its warps (cuemu_printf.c) */
  *arrived_of(w, first, count) = 0;
  if (w->launch->check)
    cuemu__check_tile_sync(w, first, end);
}

void cuemu_group_barrier(unsigned first, unsigned count, const char *file,
                         int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  cuemu_thread *me = cuemu__thread_current(w);
  unsigned id = (unsigned)(me - w->threads);
  unsigned end = first + count > w->nthreads ? w->nthreads : first + count;
  if (count < 64 || count > CUEMU_MAX_THREADS_PER_BLOCK ||
      (count & (count - 1)) || first % count || id < first || id >= end) {
    cuemu_uint3 t = me->tid;
    cuemu__block_fail(w, CUEMU_INVALID_VALUE,
                      "kernel %s: %s:%d: thread (%u,%u,%u) of block "
                      "(%u,%u,%u) synchronises a tile of threads %u..%u, "
                      "which does not hold it or is not a tile",
                      w->launch->kernel->name, file, line, t.x, t.y, t.z,
                      w->block_idx.x, w->block_idx.y, w->block_idx.z, first,
                      first + count - 1);
  }
  me->wait.kind = CUEMU_SYNC_GROUP;
  me->wait.op = (int)first;
  me->wait.predicate = (int)count;
  me->wait.file = file;
  me->wait.line = line;
  unsigned short *arrived = arrived_of(w, first, count);
  if (++*arrived >= live_in(w, first, end)) {
    release(w, first, count, end, id);
    return;
  }
  w->state[id] = CUEMU_THREAD_WAITING;
  cuemu__thread_wait(w, me);
}

int cuemu__group_resolve(cuemu_worker *w) {
  int woke = 0;
  for (unsigned id = 0; id < w->nthreads; ++id) {
    const cuemu_thread *t = &w->threads[id];
    if (w->state[id] != CUEMU_THREAD_WAITING || t->wait.kind != CUEMU_SYNC_GROUP)
      continue;
    unsigned first = (unsigned)t->wait.op, count = (unsigned)t->wait.predicate;
    unsigned end = first + count > w->nthreads ? w->nthreads : first + count;
    unsigned short arrived = *arrived_of(w, first, count);
    if (arrived >= live_in(w, first, end)) {
      /* Its last live thread exited instead of arriving. */
      release(w, first, count, end, (unsigned)-1);
      woke = 1;
      continue;
    }
    char where[512] = "";
    size_t len = 0;
    for (unsigned o = first; o < end && len < sizeof where; ++o) {
      const cuemu_thread *u = &w->threads[o];
      if (w->state[o] == CUEMU_THREAD_WAITING && !waits_at(w, o, first, count)) {
        len += (size_t)snprintf(where + len, sizeof where - len,
                                "; thread (%u,%u,%u) waits at %s:%d",
                                u->tid.x, u->tid.y, u->tid.z, u->wait.file,
                                u->wait.line);
        break;
      }
    }
    cuemu__block_fail(w, CUEMU_DEADLOCK,
                      "kernel %s: the barrier of the tile of threads %u..%u "
                      "at %s:%d in block (%u,%u,%u) cannot complete: %u of "
                      "its %u live threads arrived%s",
                      w->launch->kernel->name, first, end - 1, t->wait.file,
                      t->wait.line, w->block_idx.x, w->block_idx.y,
                      w->block_idx.z, arrived, live_in(w, first, end), where);
  }
  return woke;
}
