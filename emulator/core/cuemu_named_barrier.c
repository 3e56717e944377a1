/*
 * cuemu_named_barrier.c: PTX's named barriers of part of a block
 * (`bar.sync a, b` and `barrier.sync a, b` with b smaller than the block,
 * and `bar.arrive a, b`), as producer-consumer kernels use them.
 *
 * A block has 16 barriers. As on a GPU, a barrier counts threads a warp at
 * a time: a warp counts (as 32) once each of its lanes that exists and has
 * not exited has arrived; the barrier completes when the count reaches b
 * (a multiple of 32). bar.sync waits for the completion, bar.arrive does
 * not. A waiting thread lets the block's other threads run until the
 * barrier's generation changes; a barrier that never completes is ended as
 * a deadlock by the runtime's spin detection (CUEMU_SPIN_TIMEOUT). A
 * completion orders the block's memory accesses for the racecheck as a
 * block barrier does (more than the participants: a race between a
 * participant and a thread outside the barrier is then not reported).
 *
 * The state is the worker's (a block's threads run on one OS thread, one
 * at a time), cleared when a block starts.
 */
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_device.h>

#include "core/cuemu_worker.h"

#define NAMED_BARRIERS 16

typedef struct named_barrier {
  unsigned count;      /* threads counted in this generation */
  unsigned generation;
  unsigned lanes[CUEMU_MAX_THREADS_PER_BLOCK / 32]; /* arrived, per warp */
} named_barrier;

/* On the heap, made at the first use by a worker thread: libcuemu's
 * thread-local variables live in the static TLS block, which is small in
 * a process that loads libcuemu with dlopen (Python). */
static __thread named_barrier *bars;

void cuemu__named_barriers_reset(void) {
  if (bars)
    memset(bars, 0, NAMED_BARRIERS * sizeof *bars);
}

/* The lanes of warp `warp` that exist. */
static unsigned warp_lanes(const cuemu_worker *w, unsigned warp) {
  unsigned size = w->nthreads - warp * 32;
  return size >= 32 ? 0xffffffffu : (1u << size) - 1u;
}

/* Counts the warps of barrier `id` whose lanes have all arrived or exited,
 * and completes the barrier when `count` threads are in. */
static void settle(cuemu_worker *w, unsigned id, unsigned count) {
  unsigned warps = (w->nthreads + 31) / 32;
  for (unsigned k = 0; k < warps; ++k)
    if (bars[id].lanes[k] &&
        (bars[id].lanes[k] | w->warp_exited[k]) == warp_lanes(w, k)) {
      bars[id].lanes[k] = 0;
      bars[id].count += 32;
    }
  if (bars[id].count >= count) {
    bars[id].count = 0;
    bars[id].generation++;
    cuemu_check_barrier_complete();
  }
}

void cuemu_named_barrier(unsigned id, unsigned count, int wait,
                         const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  if (id >= NAMED_BARRIERS || count == 0 || count % 32 != 0)
    cuemu_kernel_assert_fail("bar.sync/bar.arrive: the barrier must be 0 to 15 "
                             "and its thread count a non-zero multiple of 32",
                             file, line, "bar.sync");
  if (!bars && !(bars = calloc(NAMED_BARRIERS, sizeof *bars)))
    cuemu_kernel_assert_fail("no memory for the named barriers", file, line,
                             "bar.sync");
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  unsigned tid = t.x + w->block_dim.x * (t.y + w->block_dim.y * t.z);
  unsigned generation = bars[id].generation;
  bars[id].lanes[tid / 32] |= 1u << (tid % 32);
  settle(w, id, count);
  /* Lanes that exit while others wait complete their warp's part. */
  while (wait && bars[id].generation == generation) {
    cuemu_thread_yield();
    settle(w, id, count);
  }
}
