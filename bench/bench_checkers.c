/*
 * bench_checkers.c: what the checkers cost (docs/checkers.md). Runs the
 * saxpy and the 256-thread reduction of bench_kernels.cu from one module
 * (built with or without checkers by bench/run_check_bench.sh), with every
 * buffer registered as a device allocation so that the checkers see all of
 * it, and prints the best of REPS launches of each in nanoseconds.
 *
 *   bench_checkers MODULE LOG2N REPS
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuemu/cuemu.h>

static long long clock_ns(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static long long now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

/* CPU time of the process: with one worker, what the launch cost this
 * process whatever else loads the machine. */
static long long cpu_ns(void) { return clock_ns(CLOCK_PROCESS_CPUTIME_ID); }

static void keep_min(long long *best, long long v) {
  if (*best < 0 || v < *best)
    *best = v;
}

static void check(cuemu_status st, const char *what) {
  if (st != CUEMU_SUCCESS) {
    fprintf(stderr, "bench_checkers: %s: %s\n", what, cuemu_last_message());
    exit(1);
  }
}

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fprintf(stderr, "bench_checkers: out of memory\n");
    exit(1);
  }
  return p;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: bench_checkers MODULE LOG2N REPS\n");
    return 2;
  }
  cuemu_module *m;
  cuemu_kernel *saxpy, *reduce;
  check(cuemu_module_load(&m, argv[1]), argv[1]);
  check(cuemu_module_get_kernel(m, "bench_saxpy", &saxpy), "bench_saxpy");
  check(cuemu_module_get_kernel(m, "bench_reduce256", &reduce),
        "bench_reduce256");
  int n = 1 << atoi(argv[2]), reps = atoi(argv[3]);
  float a = 0.5f;
  float *x = xmalloc((size_t)n * sizeof *x), *y = xmalloc((size_t)n * sizeof *y);
  unsigned blocks = (unsigned)n / 256;
  float *out = xmalloc(blocks * sizeof *out);
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 4);
    y[i] = 0.0f;
  }
  check(cuemu_alloc_register(x, (size_t)n * sizeof *x, "x"), "register x");
  check(cuemu_alloc_register(y, (size_t)n * sizeof *y, "y"), "register y");
  check(cuemu_alloc_register(out, blocks * sizeof *out, "out"), "register out");

  void *sargs[] = {&n, &a, &x, &y};
  void *rargs[] = {&x, &out};
  cuemu_dim3 grid = {(unsigned)(n + 255) / 256, 1, 1}, block = {256, 1, 1};
  cuemu_dim3 rgrid = {blocks, 1, 1};
  long long best_saxpy = -1, best_reduce = -1;
  long long cpu_saxpy = -1, cpu_reduce = -1;
  for (int r = -1; r < reps; ++r) { /* r == -1: the untimed warm-up */
    long long c0 = cpu_ns(), t0 = now_ns();
    check(cuemu_kernel_launch(saxpy, grid, block, 0, NULL, sargs, 4), "saxpy");
    long long c1 = cpu_ns(), t1 = now_ns();
    check(cuemu_kernel_launch(reduce, rgrid, block, 0, NULL, rargs, 2),
          "reduce");
    long long c2 = cpu_ns(), t2 = now_ns();
    if (r >= 0) {
      keep_min(&best_saxpy, t1 - t0);
      keep_min(&best_reduce, t2 - t1);
      keep_min(&cpu_saxpy, c1 - c0);
      keep_min(&cpu_reduce, c2 - c1);
    }
  }
  /* x holds 0,1,2,3 repeated: each block of 256 sums to 384. */
  for (unsigned b = 0; b < blocks; ++b)
    if (out[b] != 384.0f) {
      fprintf(stderr, "bench_checkers: reduce: block %u: %g\n", b,
              (double)out[b]);
      return 1;
    }
  printf("saxpy_ns %lld\nreduce_ns %lld\n", best_saxpy, best_reduce);
  printf("saxpy_cpu_ns %lld\nreduce_cpu_ns %lld\n", cpu_saxpy, cpu_reduce);
  cuemu_alloc_unregister(x);
  cuemu_alloc_unregister(y);
  cuemu_alloc_unregister(out);
  free(x);
  free(y);
  free(out);
  cuemu_module_unload(m);
  return 0;
}
