/*
 * cuemu_check_sync.c: the part of synccheck that only checked builds get.
 *
 * Divergent barriers, warp collectives whose mask names lanes that are
 * alive and wait elsewhere, and grid.sync outside a cooperative launch are
 * errors in every build (cuemu_block.c, cuemu_warp.c, cuemu_grid.c); a
 * shuffle that reads a lane that exited or does not exist is reported by
 * synccheck (cuemu_warp.c). A vote barrier (__syncthreads_count, _and, _or) that
 * completes after some threads of the block returned is not: exited threads
 * count as arrived, as on Volta and later, and contribute no predicate. A
 * kernel that relies on the count then gets a smaller one than it expects,
 * so in a checked build it is reported.
 */
#include <stdio.h>

#include "check/cuemu_check.h"

void cuemu__check_vote_after_exit(cuemu_worker *w) {
  if (!(cuemu__check_launch_mask(w->launch) & CUEMU_CHECK_SYNC))
    return;
  static const char *const names[] = {"__syncthreads", "__syncthreads_count",
                                      "__syncthreads_and", "__syncthreads_or"};
  unsigned first = w->nthreads, last = 0, count = 0;
  for (unsigned i = 0; i < w->nthreads; ++i)
    if (w->state[i] == CUEMU_THREAD_EXITED) {
      if (first == w->nthreads)
        first = i;
      last = i;
      count++;
    }
  if (!count)
    return;
  cuemu_uint3 bd = w->block_dim;
  cuemu_uint3 a = {first % bd.x, first / bd.x % bd.y, first / (bd.x * bd.y)};
  cuemu_uint3 b = {last % bd.x, last / bd.x % bd.y, last / (bd.x * bd.y)};
  cuemu__block_fail(w, CUEMU_CHECK_REPORT,
                    "kernel %s: synccheck: %s at %s:%d in block (%u,%u,%u) "
                    "completed with %u of %u threads arriving; %u thread%s "
                    "(%u,%u,%u)..(%u,%u,%u) had returned through another "
                    "path, so the result counts only the threads that "
                    "arrived",
                    w->launch->kernel->name,
                    names[w->bar_op >= 0 && w->bar_op < 4 ? w->bar_op : 0],
                    w->bar_file, w->bar_line, w->block_idx.x, w->block_idx.y,
                    w->block_idx.z, w->narrivals, w->nthreads, count,
                    count > 1 ? "s" : "", a.x, a.y, a.z, b.x, b.y, b.z);
}

void cuemu_check_barrier_complete(void) {
  cuemu_worker *w = cuemu__worker_self;
  if (w && w->in_kernel && w->launch->check)
    cuemu__check_block_sync(w, 0);
}
