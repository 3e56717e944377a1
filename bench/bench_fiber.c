/*
 * bench_fiber.c: the floor under the reduction benchmark, measured in the
 * same run: a minimal fiber runtime, the technique of the fastest CPU
 * runtimes for GPU kernels (HIP-CPU's, for one). Each block's 256 threads
 * are fibers on 7 KiB stacks taken from malloc (no guard pages), and a
 * barrier is a bare yield to fiber id + 1, round-robin: no arrival counting,
 * no divergence or deadlock checks, no run queue, so an early exit before a
 * barrier would run threads again. It runs the same 256-thread tree
 * reduction as bench_reduce256 (bench_kernels.cu) over 2^LOG2N elements,
 * 9 barriers per thread, with cuemu's own register switch (this file is
 * compiled with emulator/context/).
 *
 * Usage: bench_fiber LOG2N REPS. Prints "fiber_ns v1 v2 ..." (wall) and
 * "fiber_cpu_ns ..." (process CPU time) per launch; checks the sums.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "context/cuemu_context.h"

#define THREADS 256
#define STACK (7u * 1024u)

static cuemu_ctx fibers[THREADS];
static cuemu_ctx_template templates[THREADS];
static cuemu_ctx main_ctx;
static unsigned current;
static unsigned block;
static const float *in;
static float *out;
static float shared[THREADS];

/* The barrier: yield to the next fiber, the last one to the first. */
static inline void barrier(unsigned me) {
  unsigned next = me + 1 == THREADS ? 0 : me + 1;
  current = next;
  cuemu__ctx_switch(&fibers[me], &fibers[next]);
}

/* One thread of bench_reduce256. */
static void entry(void) {
  unsigned t = current;
  shared[t] = in[block * THREADS + t];
  barrier(t);
  for (unsigned stride = THREADS / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      shared[t] += shared[t + stride];
    barrier(t);
  }
  if (t == 0)
    out[block] = shared[0];
  /* Done: the next fiber finishes in turn; the last one goes back. */
  unsigned next = t + 1;
  current = next;
  cuemu_ctx dead;
  cuemu__ctx_switch(&dead, next == THREADS ? &main_ctx : &fibers[next]);
  abort();
}

static long long clock_ns(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: bench_fiber LOG2N REPS\n");
    return 2;
  }
  unsigned n = 1u << atoi(argv[1]), blocks = n / THREADS;
  int reps = atoi(argv[2]);
  float *data = malloc(n * sizeof *data);
  out = malloc(blocks * sizeof *out);
  unsigned *expected = malloc(blocks * sizeof *expected);
  long long *wall = malloc((size_t)reps * sizeof *wall);
  long long *cpu = malloc((size_t)reps * sizeof *cpu);
  if (!data || !out || !expected || !wall || !cpu || reps < 1 || blocks < 1)
    return 1;
  for (unsigned b = 0; b < blocks; ++b) {
    expected[b] = 0;
    for (unsigned t = 0; t < THREADS; ++t) {
      unsigned v = (b * THREADS + t) * 37u % 101u;
      data[b * THREADS + t] = (float)v;
      expected[b] += v;
    }
  }
  in = data;
  for (unsigned i = 0; i < THREADS; ++i) {
    void *stack = malloc(STACK);
    if (!stack || cuemu__ctx_template_init(&templates[i], stack, STACK,
                                           entry) != 0)
      return 1;
  }
  for (int r = -1; r < reps; ++r) { /* r == -1: the untimed warm-up */
    long long c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (block = 0; block < blocks; ++block) {
      for (unsigned i = 0; i < THREADS; ++i)
        cuemu__ctx_reset(&fibers[i], &templates[i]);
      current = 0;
      cuemu__ctx_switch(&main_ctx, &fibers[0]);
    }
    if (r >= 0) {
      wall[r] = clock_ns(CLOCK_MONOTONIC) - t0;
      cpu[r] = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
    }
    for (unsigned b = 0; b < blocks; ++b)
      if (out[b] != (float)expected[b]) {
        fprintf(stderr, "bench_fiber: block %u: %g, expected %u\n", b,
                (double)out[b], expected[b]);
        return 1;
      }
  }
  printf("fiber_ns");
  for (int r = 0; r < reps; ++r)
    printf(" %lld", wall[r]);
  printf("\nfiber_cpu_ns");
  for (int r = 0; r < reps; ++r)
    printf(" %lld", cpu[r]);
  printf("\n");
  return 0;
}
