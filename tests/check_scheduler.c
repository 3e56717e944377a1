/*
 * check_scheduler.c: the rules the scheduler keeps (DESIGN.md, "Running a
 * block"): every thread runs exactly once whatever exits early; barriers
 * count arrivals and exited threads count as arrived; the voting barriers
 * return the right values; divergent barriers are reported, not hung;
 * stacks hold big local arrays and overflows are reported; schedules are
 * deterministic and change the order of racy kernels; cooperative groups'
 * thread block matches the built-ins.
 *
 * Every test runs in its own child process, so setenv() stays local.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

/* The suite's kernel files but stack.cu (built with two compilers), built
 * as one module (test_module_combined): one build instead of four. */
static cuemu_module *scheduler_module(void) {
  static const char *const files[] = {"barriers.cu", "early_exit.cu",
                                      "schedule.cu", "spin.cu", NULL};
  return test_module_combined("scheduler_combined.cu", files, NULL);
}

/* ---- Exactly once, with early exits ---------------------------------------- */

/* The same rules as tests/kernels/early_exit.cu. */
static int exits_first(unsigned b, unsigned t) {
  return b == 3 || (t * 7 + b) % 5 == 0 || t == 0;
}
static int exits_second(unsigned b, unsigned t) {
  return (t + b) % 3 == 1 || t == 1;
}

static const struct {
  const char *workers, *schedule;
} configs[] = {
    {"1", "forward"}, {"1", "reverse"}, {"1", "random:7"},
    {"2", "forward"}, {"2", "reverse"}, {"2", "random:7"},
};
#define NCONFIGS ((int)(sizeof configs / sizeof configs[0]))

START_TEST(early_exit_runs_each_thread_once) {
  test_setenv("CUEMU_WORKERS", configs[_i].workers);
  test_setenv("CUEMU_SCHEDULE", configs[_i].schedule);
  cuemu_module *m = scheduler_module();
  const unsigned grid = 6, block = 96, n = grid * block;
  unsigned *entries = calloc(n, sizeof *entries);
  unsigned *passed1 = calloc(n, sizeof *passed1);
  unsigned *passed2 = calloc(n, sizeof *passed2);
  void *args[] = {&entries, &passed1, &passed2};
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "early_exit"), grid, block, args, 3));
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t) {
      unsigned i = b * block + t;
      unsigned want1 = !exits_first(b, t);
      unsigned want2 = want1 && !exits_second(b, t);
      ck_assert_msg(entries[i] == 1 && passed1[i] == want1 &&
                        passed2[i] == want2,
                    "%s/%s: thread %u of block %u entered %u times, passed "
                    "the barriers %u and %u times (want 1, %u, %u)",
                    configs[_i].workers, configs[_i].schedule, t, b,
                    entries[i], passed1[i], passed2[i], want1, want2);
    }
  free(entries);
  free(passed1);
  free(passed2);
  cuemu_module_unload(m);
}
END_TEST

/* Runs exit_then_vote and checks each live thread's five results. */
static void exit_then_vote(cuemu_module *m, unsigned block, unsigned live,
                           int mode) {
  int *results = malloc(5 * block * sizeof *results);
  memset(results, 0x7F, 5 * block * sizeof *results);
  void *args[] = {&results, &live, &mode};
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "exit_then_vote"), 1, block, args, 3));
  int count = 0, all4 = 1, has2 = 0;
  for (unsigned t = 0; t < block; ++t) {
    int alive = mode == 0 ? t < live : t % 2 == 0;
    if (!alive)
      continue;
    count += t % 4 == 0;
    all4 &= t % 4 == 0;
    has2 |= t == 2;
  }
  const int want[5] = {count, 1, all4, has2, 0};
  for (unsigned t = 0; t < block; ++t) {
    int alive = mode == 0 ? t < live : t % 2 == 0;
    for (int j = 0; j < 5; ++j) {
      int got = results[5 * t + j];
      if (alive)
        ck_assert_msg(got == want[j],
                      "block %u live %u mode %d: thread %u vote %d returned "
                      "%d, not %d",
                      block, live, mode, t, j, got, want[j]);
      else
        ck_assert_msg(got == 0x7F7F7F7F, "exited thread %u wrote", t);
    }
  }
  free(results);
}

START_TEST(exited_threads_count_as_arrived) {
  cuemu_module *m = scheduler_module();
  exit_then_vote(m, 256, 100, 0);
  exit_then_vote(m, 256, 1, 0);
  exit_then_vote(m, 256, 3, 0);
  exit_then_vote(m, 256, 256, 0);
  exit_then_vote(m, 1024, 1000, 0);
  exit_then_vote(m, 256, 0, 1); /* odd threads exit */
  exit_then_vote(m, 45, 0, 1);
  cuemu_module_unload(m);
}
END_TEST

/* ---- Voting barriers --------------------------------------------------------- */

/* Launches vote over `n` values with the given shape and checks every
 * thread's three results against the block's data. */
static void vote(cuemu_module *m, const int *data, unsigned n, cuemu_dim3 g,
                 cuemu_dim3 b) {
  unsigned nthreads = b.x * b.y * b.z, nblocks = g.x * g.y * g.z;
  unsigned total = nthreads * nblocks;
  int *results = calloc(3 * total, sizeof *results);
  void *args[] = {&data, &n, &results};
  TEST_ASSERT_LAUNCH_OK(
      cuemu_kernel_launch(test_kernel(m, "vote"), g, b, 0, NULL, args, 3));
  for (unsigned blk = 0; blk < nblocks; ++blk) {
    int count = 0, all = 1, any = 0;
    for (unsigned t = 0; t < nthreads; ++t) {
      unsigned i = blk * nthreads + t;
      int v = i < n ? data[i] : 0;
      count += (v & 6) != 0;
      all &= i >= n || v > 0;
      any |= v > 1000;
    }
    for (unsigned t = 0; t < nthreads; ++t) {
      const int *r = results + 3 * (blk * nthreads + t);
      ck_assert_msg(r[0] == count && r[1] == all && r[2] == any,
                    "block (%u,%u,%u) %u: thread %u got count %d and %d or "
                    "%d; want %d, %d, %d",
                    b.x, b.y, b.z, blk, t, r[0], r[1], r[2], count, all, any);
    }
  }
  free(results);
}

START_TEST(syncthreads_count_and_or) {
  cuemu_module *m = scheduler_module();
  enum { N = 4096 };
  int *data = malloc(N * sizeof *data);
  unsigned seed = 12345;
  for (int i = 0; i < N; ++i) {
    seed = seed * 1103515245u + 12345u;
    data[i] = 1 + (int)((seed >> 8) % 1000); /* 1..1000: all positive */
  }
  data[256 + 17] = 0;    /* block 1 of 256: the AND fails */
  data[512 + 200] = 5000; /* block 2 of 256: the OR holds */
  data[1023] = -3;        /* block 3 of 256: both */
  data[1022] = 1001;
  vote(m, data, N, test_dim(4, 1, 1), test_dim(256, 1, 1));
  vote(m, data, N, test_dim(1, 1, 1), test_dim(1024, 1, 1));
  /* 3-D blocks. */
  vote(m, data, N, test_dim(2, 2, 1), test_dim(8, 4, 8));
  vote(m, data, N, test_dim(3, 1, 2), test_dim(5, 3, 7));
  /* Partial data: the last block runs past the end. */
  vote(m, data, 700, test_dim(3, 1, 1), test_dim(256, 1, 1));
  vote(m, data, 250, test_dim(2, 1, 1), test_dim(4, 4, 16));
  vote(m, data, 1, test_dim(1, 1, 1), test_dim(33, 1, 1));
  /* Known predicates: every value is 2 (count = all), then 1 (count = 0). */
  for (int i = 0; i < 512; ++i)
    data[i] = 2;
  vote(m, data, 512, test_dim(2, 1, 1), test_dim(16, 4, 4));
  for (int i = 0; i < 512; ++i)
    data[i] = 1;
  vote(m, data, 512, test_dim(1, 1, 1), test_dim(512, 1, 1));
  free(data);
  cuemu_module_unload(m);
}
END_TEST

/* Fixed answers for one case, independent of the host model above: even
 * values in a 3-D block of 128, and one zero. */
START_TEST(syncthreads_count_known_values) {
  cuemu_module *m = scheduler_module();
  int data[128], results[3 * 128];
  for (int i = 0; i < 128; ++i)
    data[i] = i % 2 == 0 ? 2 : 1; /* v & 6 is non-zero for even i */
  data[5] = 0;
  int *dp = data, *rp = results;
  unsigned n = 128;
  void *args[] = {&dp, &n, &rp};
  TEST_ASSERT_LAUNCH_OK(
      cuemu_kernel_launch(test_kernel(m, "vote"), test_dim(1, 1, 1),
                          test_dim(4, 8, 4), 0, NULL, args, 3));
  for (int t = 0; t < 128; ++t) {
    ck_assert_int_eq(results[3 * t], 64);
    ck_assert_int_eq(results[3 * t + 1], 0);
    ck_assert_int_eq(results[3 * t + 2], 0);
  }
  cuemu_module_unload(m);
}
END_TEST

/* ---- Divergence --------------------------------------------------------------- */

START_TEST(divergent_barrier_is_reported) {
  test_setenv("CUEMU_WORKERS", "1");
  cuemu_module *m = scheduler_module();
  int out[3 * 32];
  memset(out, 0, sizeof out);
  int *op = out;
  void *args[] = {&op};
  cuemu_kernel *k = test_kernel(m, "divergent");
  ck_assert_int_eq(test_launch1(k, 3, 32, args, 1), CUEMU_DIVERGENT_BARRIER);
  const char *msg = cuemu_last_message();
  char part[256];
  TEST_ASSERT_CONTAINS(msg, "kernel divergent");
  TEST_ASSERT_CONTAINS(msg, "block (2,0,0)");
  TEST_ASSERT_CONTAINS(msg, "(0,0,0)..(15,0,0)");
  TEST_ASSERT_CONTAINS(msg, "(16,0,0)..(31,0,0)");
  snprintf(part, sizeof part, "barriers.cu:%d",
           test_marker_line("barriers.cu", "DIVERGENT_LOW"));
  TEST_ASSERT_CONTAINS(msg, part);
  snprintf(part, sizeof part, "barriers.cu:%d",
           test_marker_line("barriers.cu", "DIVERGENT_HIGH"));
  TEST_ASSERT_CONTAINS(msg, part);
  /* Blocks 0 and 1 ran to the end; block 2 did not finish. */
  for (int i = 0; i < 64; ++i)
    ck_assert_int_eq(out[i], 1);
  for (int i = 64; i < 96; ++i)
    ck_assert_int_eq(out[i], 0);

  /* The process lives on: the same launch fails the same way, and a launch
   * with barriers that agree runs. */
  memset(out, 0, sizeof out);
  ck_assert_int_eq(test_launch1(k, 1, 32, args, 1), CUEMU_DIVERGENT_BARRIER);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "block (0,0,0)");
  ck_assert_int_eq(out[0], 0);
  unsigned errors = 0, *ep = &errors;
  void *largs[] = {&ep};
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "local_array"), 2, 32, largs, 1));
  ck_assert_uint_eq(errors, 0);
  cuemu_module_unload(m);
}
END_TEST

/* ---- Stacks ----------------------------------------------------------------------- */

START_TEST(local_array_kept_across_barriers) {
  cuemu_module *m = scheduler_module();
  unsigned errors = 0, *ep = &errors;
  void *args[] = {&ep};
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "local_array"), 2, 256, args, 1));
  ck_assert_uint_eq(errors, 0);
  cuemu_module_unload(m);
}
END_TEST

/* The result of stack.cu's deep(n), computed the same way. */
static int deep(int n) {
  signed char pad[1024];
  pad[0] = (signed char)n;
  pad[n & 1023] = (signed char)(n * 3);
  if (n <= 0)
    return pad[0];
  int below = deep(n - 1);
  pad[1] = (signed char)below;
  return pad[1] + pad[n & 1023];
}

typedef struct {
  unsigned x, y, z;
} uint3_arg;

/* Launches recurse on grid (2,2,1) and block (4,2,1) with thread (1,1,0) of
 * block (1,1,0) going `depth` levels deep. */
static cuemu_status recurse(cuemu_module *m, int depth, int *out) {
  uint3_arg thread = {1, 1, 0}, block = {1, 1, 0};
  void *args[] = {&depth, &thread, &block, &out};
  return cuemu_kernel_launch(test_kernel(m, "recurse"), test_dim(2, 2, 1),
                             test_dim(4, 2, 1), 0, NULL, args, 4);
}

#define RECURSE_DEPTH 150 /* about 150 KiB of stack */
#define OVERFLOW_MESSAGE                                                       \
  "thread (1,1,0) of block (1,1,0) in kernel %s overflowed its 64 KiB "        \
  "stack; set CUEMU_STACK_SIZE"

/* The stack tests run with the default compiler (_i == 0) and clang++
 * (_i == 1): both must probe large frames page by page. */
static cuemu_module *stack_module(int compiler) {
  const char *clangxx = compiler == 1 ? test_tool("CLANGXX") : NULL;
  if (clangxx)
    return test_module_cxx("stack.cu", clangxx, NULL, 0);
  return test_module("stack.cu");
}

START_TEST(stack_overflow_is_reported) {
  test_setenv("CUEMU_WORKERS", "1");
  cuemu_module *m = stack_module(_i);
  int out[32];
  ck_assert_int_eq(recurse(m, RECURSE_DEPTH, out), CUEMU_STACK_OVERFLOW);
  char want[256];
  snprintf(want, sizeof want, OVERFLOW_MESSAGE, "recurse");
  ck_assert_msg(strncmp(cuemu_last_message(), want, strlen(want)) == 0,
                "%s", cuemu_last_message());

  /* The process is alive and the next launch works. */
  memset(out, 0xFF, sizeof out);
  TEST_ASSERT_LAUNCH_OK(recurse(m, 10, out));
  for (int i = 0; i < 32; ++i)
    ck_assert_int_eq(out[i], i == 3 * 8 + 5 ? deep(10) : deep(2));
  cuemu_module_unload(m);
}
END_TEST

START_TEST(stack_overflow_with_two_workers) {
  test_setenv("CUEMU_WORKERS", "2");
  cuemu_module *m = stack_module(_i);
  int out[32];
  ck_assert_int_eq(recurse(m, RECURSE_DEPTH, out), CUEMU_STACK_OVERFLOW);
  char want[256];
  snprintf(want, sizeof want, OVERFLOW_MESSAGE, "recurse");
  ck_assert_msg(strncmp(cuemu_last_message(), want, strlen(want)) == 0,
                "%s", cuemu_last_message());
  TEST_ASSERT_LAUNCH_OK(recurse(m, 3, out));
  cuemu_module_unload(m);
}
END_TEST

START_TEST(bigger_stack_lets_the_kernel_run) {
  test_setenv("CUEMU_STACK_SIZE", "512K");
  cuemu_module *m = stack_module(_i);
  int out[32];
  memset(out, 0xFF, sizeof out);
  TEST_ASSERT_LAUNCH_OK(recurse(m, RECURSE_DEPTH, out));
  for (int i = 0; i < 32; ++i)
    ck_assert_int_eq(out[i], i == 3 * 8 + 5 ? deep(RECURSE_DEPTH) : deep(2));
  cuemu_module_unload(m);
}
END_TEST

/* Filled from its lowest address, a 200 KiB local array first touches
 * memory far below a 64 KiB stack: past the stack's guard area too, unless
 * the stack is probed page by page. The stack is set: without
 * CUEMU_STACK_SIZE the launch sizes it from the kernel's frames, its
 * callee's 200 KiB included, and the kernel runs. */
START_TEST(big_local_array_overflow_is_reported) {
  test_setenv("CUEMU_WORKERS", "1");
  test_setenv("CUEMU_STACK_SIZE", "64K");
  cuemu_module *m = stack_module(_i);
  uint3_arg thread = {2, 0, 0}, block = {0, 1, 0};
  unsigned sum = 0, *sp = &sum;
  void *args[] = {&thread, &block, &sp};
  cuemu_kernel *k = test_kernel(m, "big_local");
  cuemu_status st = cuemu_kernel_launch(k, test_dim(1, 2, 1),
                                        test_dim(4, 1, 1), 0, NULL, args, 3);
  ck_assert_msg(st == CUEMU_STACK_OVERFLOW, "%s: %s", cuemu_status_name(st),
                cuemu_last_message());
  const char *want = "thread (2,0,0) of block (0,1,0) in kernel big_local "
                     "overflowed its 64 KiB stack; set CUEMU_STACK_SIZE";
  ck_assert_msg(strncmp(cuemu_last_message(), want, strlen(want)) == 0, "%s",
                cuemu_last_message());
  cuemu_module_unload(m);
}
END_TEST

/* Launches big_local (stack.cu) built by compiler `compiler` and checks
 * the checksum of its chosen thread's 200 KiB local array. */
static void big_local_runs(int compiler) {
  cuemu_module *m = stack_module(compiler);
  uint3_arg thread = {2, 0, 0}, block = {0, 1, 0};
  unsigned sum = 0, *sp = &sum;
  void *args[] = {&thread, &block, &sp};
  TEST_ASSERT_LAUNCH_OK(
      cuemu_kernel_launch(test_kernel(m, "big_local"), test_dim(1, 2, 1),
                          test_dim(4, 1, 1), 0, NULL, args, 3));
  unsigned want = 0;
  for (unsigned i = 0; i < 200 * 1024; i += 97)
    want += (unsigned char)(i * 13);
  ck_assert_uint_eq(sum, want);
  cuemu_module_unload(m);
}

/* Without CUEMU_STACK_SIZE, the stack holds the kernel's frame and its
 * callees' (fill_big_local's 200 KiB array), as a GPU's local memory does. */
START_TEST(big_local_array_of_a_callee_is_sized) {
  big_local_runs(_i);
}
END_TEST

START_TEST(big_local_array_fits_a_bigger_stack) {
  test_setenv("CUEMU_STACK_SIZE", "512K");
  big_local_runs(_i);
}
END_TEST

/* ---- Schedules ---------------------------------------------------------------------- */

/* Runs last_writer on 4 blocks of 256 threads; returns block 0's answer
 * after checking that all blocks agree. */
static unsigned last_writer(cuemu_module *m, const char *schedule) {
  test_setenv("CUEMU_SCHEDULE", schedule);
  unsigned out[4] = {9999, 9999, 9999, 9999}, *op = out;
  void *args[] = {&op};
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "last_writer"), 4, 256, args, 1));
  for (int i = 0; i < 4; ++i)
    ck_assert_uint_lt(out[i], 256);
  return out[0];
}

START_TEST(reverse_schedule_changes_a_racy_result) {
  cuemu_module *m = scheduler_module();
  unsigned fwd = last_writer(m, "forward");
  unsigned rev = last_writer(m, "reverse");
  ck_assert_uint_eq(fwd, 255);
  ck_assert_uint_eq(rev, 0);
  ck_assert_uint_eq(last_writer(m, NULL), 255); /* forward is the default */
  cuemu_module_unload(m);
}
END_TEST

typedef struct {
  unsigned *first, *in_block, *resumed;
} order_record;

enum { ORDER_BLOCKS = 4, ORDER_THREADS = 64 };
#define ORDER_N (ORDER_BLOCKS * ORDER_THREADS)

/* Runs run_order and returns its three records (freshly allocated). */
static order_record run_order(cuemu_module *m) {
  order_record r;
  r.first = calloc(ORDER_N, sizeof *r.first);
  r.in_block = calloc(ORDER_N, sizeof *r.in_block);
  r.resumed = calloc(ORDER_N, sizeof *r.resumed);
  unsigned counter = 0, *cp = &counter;
  unsigned block_counters[2 * ORDER_BLOCKS] = {0}, *bp = block_counters;
  void *args[] = {&cp, &bp, &r.first, &r.in_block, &r.resumed};
  TEST_ASSERT_LAUNCH_OK(test_launch1(test_kernel(m, "run_order"), ORDER_BLOCKS,
                                     ORDER_THREADS, args, 5));
  ck_assert_uint_eq(counter, ORDER_N);
  return r;
}

static int same_order(order_record a, order_record b) {
  size_t n = ORDER_N * sizeof(unsigned);
  return memcmp(a.in_block, b.in_block, n) == 0 &&
         memcmp(a.resumed, b.resumed, n) == 0;
}

static void free_order(order_record r) {
  free(r.first);
  free(r.in_block);
  free(r.resumed);
}

/* Each record of a block is a permutation of 0..ORDER_THREADS-1. */
static void check_permutations(const unsigned *rec) {
  for (int b = 0; b < ORDER_BLOCKS; ++b) {
    int seen[ORDER_THREADS] = {0};
    for (int t = 0; t < ORDER_THREADS; ++t) {
      unsigned v = rec[b * ORDER_THREADS + t];
      ck_assert_uint_lt(v, ORDER_THREADS);
      ck_assert_int_eq(seen[v]++, 0);
    }
  }
}

START_TEST(random_schedules_are_deterministic) {
  cuemu_module *m = scheduler_module();
  test_setenv("CUEMU_SCHEDULE", "random:1");
  order_record a1 = run_order(m), a2 = run_order(m);
  test_setenv("CUEMU_SCHEDULE", "random:2");
  order_record b1 = run_order(m), b2 = run_order(m);
  ck_assert_msg(same_order(a1, a2), "random:1 gave two different orders");
  ck_assert_msg(same_order(b1, b2), "random:2 gave two different orders");
  ck_assert_msg(!same_order(a1, b1), "random:1 and random:2 gave one order");
  check_permutations(a1.in_block);
  check_permutations(a1.resumed);
  check_permutations(b1.in_block);
  /* Random is not forward: some thread of block 0 starts out of order. */
  int moved = 0;
  for (int t = 0; t < ORDER_THREADS; ++t)
    moved += a1.in_block[t] != (unsigned)t;
  ck_assert_int_gt(moved, 0);
  free_order(a1);
  free_order(a2);
  free_order(b1);
  free_order(b2);
  cuemu_module_unload(m);
}
END_TEST

/* With one worker and the forward schedule, threads first run in block
 * order, then thread order, and resume from a barrier in thread order. */
START_TEST(one_worker_is_deterministic) {
  test_setenv("CUEMU_WORKERS", "1");
  cuemu_module *m = scheduler_module();
  order_record a = run_order(m), b = run_order(m);
  ck_assert_int_eq(memcmp(a.first, b.first, ORDER_N * sizeof(unsigned)), 0);
  ck_assert(same_order(a, b));
  for (unsigned i = 0; i < ORDER_N; ++i) {
    ck_assert_msg(a.first[i] == i, "thread %u ran at position %u", i,
                  a.first[i]);
    ck_assert_uint_eq(a.in_block[i], i % ORDER_THREADS);
    ck_assert_uint_eq(a.resumed[i], i % ORDER_THREADS);
  }
  free_order(a);
  free_order(b);
  cuemu_module_unload(m);
}
END_TEST

/* The reverse schedule runs threads in decreasing order, both at the start
 * and after a barrier, and blocks still in order with one worker. */
START_TEST(reverse_schedule_order) {
  test_setenv("CUEMU_WORKERS", "1");
  test_setenv("CUEMU_SCHEDULE", "reverse");
  cuemu_module *m = scheduler_module();
  order_record a = run_order(m);
  for (unsigned i = 0; i < ORDER_N; ++i) {
    unsigned b = i / ORDER_THREADS, t = i % ORDER_THREADS;
    ck_assert_uint_eq(a.first[i], b * ORDER_THREADS + ORDER_THREADS - 1 - t);
    ck_assert_uint_eq(a.in_block[i], ORDER_THREADS - 1 - t);
  }
  for (unsigned i = 0; i < ORDER_N; ++i) {
    unsigned t = i % ORDER_THREADS;
    ck_assert_msg(a.resumed[i] == ORDER_THREADS - 1 - t,
                  "reverse: thread %u resumed from the barrier at position "
                  "%u, not %u",
                  t, a.resumed[i], ORDER_THREADS - 1 - t);
  }
  free_order(a);
  cuemu_module_unload(m);
}
END_TEST

/* Launches set_flag-like last_writer with a bad setting: INVALID_VALUE,
 * a message naming the variable, and nothing run. */
static void bad_setting(cuemu_module *m, const char *name, const char *value) {
  test_setenv(name, value);
  unsigned out[4] = {9999, 9999, 9999, 9999}, *op = out;
  void *args[] = {&op};
  cuemu_status st = test_launch1(test_kernel(m, "last_writer"), 4, 32, args, 1);
  ck_assert_msg(st == CUEMU_INVALID_VALUE, "%s=%s: %s (%s)", name, value,
                cuemu_status_name(st), cuemu_last_message());
  TEST_ASSERT_CONTAINS(cuemu_last_message(), name);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), value);
  ck_assert_uint_eq(out[0], 9999);
  test_setenv(name, NULL);
}

START_TEST(invalid_settings_are_refused) {
  cuemu_module *m = scheduler_module();
  bad_setting(m, "CUEMU_SCHEDULE", "sideways");
  bad_setting(m, "CUEMU_SCHEDULE", "random:");
  bad_setting(m, "CUEMU_SCHEDULE", "random:seven");
  bad_setting(m, "CUEMU_SCHEDULE", "Reverse");
  bad_setting(m, "CUEMU_WORKERS", "0");
  bad_setting(m, "CUEMU_WORKERS", "two");
  bad_setting(m, "CUEMU_WORKERS", "2x");
  bad_setting(m, "CUEMU_WORKERS", "-1");
  bad_setting(m, "CUEMU_STACK_SIZE", "big");
  bad_setting(m, "CUEMU_STACK_SIZE", "64Q");
  bad_setting(m, "CUEMU_STACK_SIZE", "1K");
  /* Good values of each are accepted. */
  test_setenv("CUEMU_SCHEDULE", "random:42");
  test_setenv("CUEMU_WORKERS", "3");
  test_setenv("CUEMU_STACK_SIZE", "128K");
  unsigned out[4], *op = out;
  void *args[] = {&op};
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "last_writer"), 4, 32, args, 1));
  cuemu_module_unload(m);
}
END_TEST

/* ---- Cooperative groups and many barriers -------------------------------------- */

static void cg_block(cuemu_module *m, cuemu_dim3 g, cuemu_dim3 b) {
  unsigned nthreads = b.x * b.y * b.z, total = nthreads * g.x * g.y * g.z;
  unsigned errors = 0, *ep = &errors;
  unsigned *ranks = calloc(total, sizeof *ranks);
  void *args[] = {&ep, &ranks};
  TEST_ASSERT_LAUNCH_OK(
      cuemu_kernel_launch(test_kernel(m, "cg_block"), g, b, 0, NULL, args, 2));
  ck_assert_msg(errors == 0, "block (%u,%u,%u): %u mismatches", b.x, b.y, b.z,
                errors);
  for (unsigned i = 0; i < total; ++i)
    ck_assert_uint_eq(ranks[i], i % nthreads);
  free(ranks);
}

START_TEST(cooperative_groups_thread_block) {
  cuemu_module *m = scheduler_module();
  cg_block(m, test_dim(2, 3, 2), test_dim(4, 3, 5));
  cg_block(m, test_dim(1, 1, 1), test_dim(8, 8, 16));
  cg_block(m, test_dim(3, 1, 1), test_dim(64, 1, 1));
  cg_block(m, test_dim(1, 1, 2), test_dim(1, 1, 1));
  cuemu_module_unload(m);
}
END_TEST

START_TEST(many_barriers_in_a_big_block) {
  cuemu_module *m = scheduler_module();
  const unsigned n = 1024;
  int rounds = 50; /* 100 barriers */
  unsigned long long sum = 0, *sp = &sum;
  void *args[] = {&sp, &rounds};
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "many_barriers"), 2, n, args, 2));
  /* Per block: each thread adds its neighbour's t + r over the rounds. */
  unsigned long long per_block =
      (unsigned long long)rounds * (n * (n - 1ull) / 2) +
      (unsigned long long)n * ((unsigned long long)rounds * (rounds - 1) / 2);
  ck_assert_uint_eq(sum, 2 * per_block);
  cuemu_module_unload(m);
}
END_TEST

/* ---- Spinning threads and fork ------------------------------------------ */

START_TEST(spinning_threads_make_progress) {
  /* Thread 0 waits with __nanosleep for a flag that the last thread sets:
   * a yield lets the other threads run, so this completes. */
  cuemu_module *m = scheduler_module();
  volatile int flag = 0;
  int out = 0;
  volatile int *pf = &flag;
  int *po = &out;
  void *args[] = {&pf, &po};
  ck_assert_int_eq(test_launch1(test_kernel(m, "handshake"), 1, 64, args, 2),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(out, 42);
}
END_TEST

START_TEST(spinning_forever_is_a_deadlock) {
  /* Thread 0 spins for a flag set after a barrier it never reaches: the
   * launch ends as a deadlock after CUEMU_SPIN_TIMEOUT, naming the
   * barrier the others wait at, instead of hanging. */
  cuemu_module *m = scheduler_module();
  test_setenv("CUEMU_SPIN_TIMEOUT", "0.2");
  volatile int flag = 0;
  volatile int *pf = &flag;
  void *args[] = {&pf};
  cuemu_status st =
      test_launch1(test_kernel(m, "spin_forever"), 1, 32, args, 1);
  ck_assert_int_eq(st, CUEMU_DEADLOCK);
  const char *msg = cuemu_last_message();
  ck_assert_ptr_nonnull(strstr(msg, "spin_forever"));
  ck_assert_ptr_nonnull(strstr(msg, "__nanosleep"));
  ck_assert_ptr_nonnull(strstr(msg, "spin.cu:"));
  ck_assert_ptr_nonnull(strstr(msg, "CUEMU_SPIN_TIMEOUT"));
  test_setenv("CUEMU_SPIN_TIMEOUT", "x");
  ck_assert_int_eq(test_launch1(test_kernel(m, "spin_forever"), 1, 32, args, 1),
                   CUEMU_INVALID_VALUE);
}
END_TEST

START_TEST(parallel_launches_work_after_fork) {
  /* The child of a fork() has none of the parent's worker threads; its
   * parallel launches must start their own instead of waiting for ever. */
  cuemu_module *m = scheduler_module();
  test_setenv("CUEMU_WORKERS", "2");
  int counter = 0;
  int *pc = &counter;
  void *args[] = {&pc};
  cuemu_kernel *k = test_kernel(m, "count_blocks");
  ck_assert_int_eq(test_launch1(k, 64, 32, args, 1), CUEMU_SUCCESS);
  ck_assert_int_eq(counter, 64);
  pid_t child = fork();
  ck_assert_int_ge(child, 0);
  if (child == 0) {
    counter = 0;
    int ok = test_launch1(k, 64, 32, args, 1) == CUEMU_SUCCESS && counter == 64;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ck_assert_int_eq(waitpid(child, &status, 0), child);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                "the child's launch failed (status %#x)", status);
}
END_TEST

Suite *make_scheduler_suite(void) {
  Suite *s = suite_create("scheduler");

  TCase *tc = test_tcase(s, "exactly_once", 60);
  tcase_add_loop_test(tc, early_exit_runs_each_thread_once, 0, NCONFIGS);
  tcase_add_test(tc, exited_threads_count_as_arrived);

  tc = test_tcase(s, "barriers", 60);
  tcase_add_test(tc, syncthreads_count_and_or);
  tcase_add_test(tc, syncthreads_count_known_values);
  tcase_add_test(tc, divergent_barrier_is_reported);
  tcase_add_test(tc, cooperative_groups_thread_block);
  tcase_add_test(tc, many_barriers_in_a_big_block);

  tc = test_tcase(s, "stacks", 60);
  tcase_add_test(tc, local_array_kept_across_barriers);
  tcase_add_loop_test(tc, stack_overflow_is_reported, 0, 2);
  tcase_add_loop_test(tc, stack_overflow_with_two_workers, 0, 2);
  tcase_add_loop_test(tc, bigger_stack_lets_the_kernel_run, 0, 2);
  tcase_add_loop_test(tc, big_local_array_overflow_is_reported, 0, 2);
  tcase_add_loop_test(tc, big_local_array_fits_a_bigger_stack, 0, 2);
  tcase_add_loop_test(tc, big_local_array_of_a_callee_is_sized, 0, 2);

  tc = test_tcase(s, "schedules", 60);
  tcase_add_test(tc, reverse_schedule_changes_a_racy_result);
  tcase_add_test(tc, random_schedules_are_deterministic);
  tcase_add_test(tc, one_worker_is_deterministic);
  tcase_add_test(tc, reverse_schedule_order);
  tcase_add_test(tc, invalid_settings_are_refused);

  tc = test_tcase(s, "spinning", 60);
  tcase_add_test(tc, spinning_threads_make_progress);
  tcase_add_test(tc, spinning_forever_is_a_deadlock);
  tcase_add_test(tc, parallel_launches_work_after_fork);
  return s;
}
