/*
 * cuemu_named_barrier.c: PTX's named barriers of part of a block
 * (`bar.sync a, b` and `barrier.sync a, b` with b smaller than the block,
 * and `bar.arrive a, b`), as producer-consumer kernels use them.
 *
 * A block has 16 barriers. As on a GPU, a barrier counts threads a warp at
 * a time: a warp counts (as 32) once each of its lanes that exists and has
 * not exited has arrived; the barrier completes when the count reaches b
 * (a multiple of 32). bar.sync waits for the completion, bar.arrive does
 * not; bar.red also reduces a predicate of the arriving threads (a count,
 * an and, an or), whose result every one of them gets. A waiting thread lets the block's other threads run until the
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

#define WARPS (CUEMU_MAX_THREADS_PER_BLOCK / 32)

typedef struct named_barrier {
  unsigned count;      /* threads counted in this generation */
  unsigned generation;
  unsigned lanes[WARPS]; /* arrived, per warp */
  /* bar.red: the predicates of this generation (how many were true, and
   * how many arrivals), and the result of each recent generation. A thread
   * waiting for generation g keeps its warp from counting again, so fewer
   * than WARPS generations complete before it reads its result. */
  unsigned trues, arrivals;
  unsigned popc[WARPS], all[WARPS], any[WARPS];
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
    unsigned slot = bars[id].generation % WARPS;
    bars[id].popc[slot] = bars[id].trues;
    bars[id].all[slot] = bars[id].trues == bars[id].arrivals;
    bars[id].any[slot] = bars[id].trues != 0;
    bars[id].trues = bars[id].arrivals = 0;
    bars[id].count = 0;
    bars[id].generation++;
    cuemu_check_barrier_complete();
  }
}

/* Arrives at barrier `id`, with a predicate when `reduce`; waits when
 * `wait`. Returns the generation arrived at. */
static unsigned arrive(unsigned id, unsigned count, int wait, int reduce,
                       int predicate, const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (id >= NAMED_BARRIERS || count == 0 || count % 32 != 0)
    cuemu_kernel_assert_fail("bar.sync/bar.arrive/bar.red: the barrier must be 0 "
                             "to 15 and its thread count a non-zero multiple of 32",
                             file, line, "bar.sync");
  if (!bars && !(bars = calloc(NAMED_BARRIERS, sizeof *bars)))
    cuemu_kernel_assert_fail("no memory for the named barriers", file, line,
                             "bar.sync");
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  unsigned tid = t.x + w->block_dim.x * (t.y + w->block_dim.y * t.z);
  unsigned generation = bars[id].generation;
  if (reduce) {
    bars[id].arrivals++;
    bars[id].trues += predicate != 0;
  }
  bars[id].lanes[tid / 32] |= 1u << (tid % 32);
  settle(w, id, count);
  /* Lanes that exit while others wait complete their warp's part. */
  while (wait && bars[id].generation == generation) {
    cuemu_thread_yield();
    settle(w, id, count);
  }
  return generation;
}

void cuemu_named_barrier(unsigned id, unsigned count, int wait,
                         const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  arrive(id, count, wait, 0, 0, file, line);
}

unsigned cuemu_named_barrier_reduce(unsigned id, unsigned count, int op,
                                    int predicate, const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return 0;
  unsigned slot = arrive(id, count, 1, 1, predicate, file, line) % WARPS;
  return op == CUEMU_BARRIER_COUNT ? bars[id].popc[slot]
         : op == CUEMU_BARRIER_AND ? bars[id].all[slot]
                                   : bars[id].any[slot];
}
