/*
 * check_faults.c: a failing kernel ends its launch with a precise status and
 * message, and the process carries on: invalid memory accesses, assert(),
 * __trap() and integer division by zero, with one and two workers. Device
 * printf from parallel workers keeps lines whole.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cuemu/cuemu.h>

#include <cuemu/cuemu_runtime.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

#define BLOCKS 8u
#define THREADS 32u
#define BAD_BLOCK 3u
#define BAD_THREAD 5u

/* The line of tests/kernels/faults.cu that carries "FAULT_LINE <what>". */
static int fault_line(const char *what) {
  char marker[64];
  snprintf(marker, sizeof marker, "FAULT_LINE %s ", what);
  return test_marker_line("faults.cu", marker);
}

/* The message names the kernel, block (3,0,0) and thread (5,0,0). */
static void assert_names_culprit(const char *message, const char *kernel) {
  TEST_ASSERT_CONTAINS(message, kernel);
  TEST_ASSERT_CONTAINS(message, "block (3,0,0)");
  TEST_ASSERT_CONTAINS(message, "thread (5,0,0)");
}

/* Blocks in order on one OS thread, threads in order: the culprit is the
 * first thread to fail and the threads before it have all run. */
static void one_worker_in_order(void) {
  test_setenv("CUEMU_WORKERS", "1");
  test_setenv("CUEMU_SCHEDULE", "forward");
}

/* Checks that a launch works after a failure. */
static void assert_later_launch_works(cuemu_module *m) {
  cuemu_kernel *k = test_kernel(m, "fill");
  int out[BLOCKS * THREADS];
  memset(out, 0, sizeof out);
  int *po = out, value = 77;
  void *args[] = {&po, &value};
  cuemu_status st = test_launch1(k, BLOCKS, THREADS, args, 2);
  ck_assert_msg(st == CUEMU_SUCCESS, "launch after a failure: %s: %s",
                cuemu_status_name(st), cuemu_last_message());
  for (unsigned i = 0; i < BLOCKS * THREADS; ++i)
    ck_assert_int_eq(out[i], 77);
}

/* With one worker, blocks and threads run in order and a failure stops the
 * launch: exactly the threads before `first` have written out[]. */
static void assert_stopped_before(const int *out, unsigned first) {
  for (unsigned i = 0; i < BLOCKS * THREADS; ++i)
    ck_assert_msg(out[i] == (i < first ? 1 : 0),
                  "out[%u] = %d: the launch did not stop at the fault", i,
                  out[i]);
}

/* The threads before the culprit have written out[]. */
static void assert_stopped_at_culprit(const int *out) {
  assert_stopped_before(out, BAD_BLOCK * THREADS + BAD_THREAD);
}

/* After a failed assertion the launch stops, but as on a GPU the other
 * threads of the culprit's block run on until they exit or wait (those that
 * fail the same assertion print too): with one worker, the blocks before
 * the culprit's have written out[], and in the culprit's block every thread
 * but the culprit unless `barrier` (they wait at a barrier, and the block
 * ends there). */
static void assert_block_ran_on(const int *out, int barrier) {
  for (unsigned i = 0; i < BLOCKS * THREADS; ++i) {
    const unsigned b = i / THREADS, t = i % THREADS;
    const int want = b < BAD_BLOCK || (b == BAD_BLOCK && !barrier && t != BAD_THREAD);
    ck_assert_msg(out[i] == want, "out[%u] = %d, expected %d", i, out[i], want);
  }
}

/* Launches `kernel` of faults.cu on BLOCKS x THREADS with one worker and
 * args {out, extra..., BAD_BLOCK, BAD_THREAD}; returns the status. */
static cuemu_status launch_culprit(cuemu_module *m, const char *kernel,
                                   int *out, void **extra, int nextra) {
  void *args[8];
  int *po = out;
  unsigned bb = BAD_BLOCK, bt = BAD_THREAD;
  int n = 0;
  args[n++] = &po;
  for (int i = 0; i < nextra; ++i)
    args[n++] = extra[i];
  args[n++] = &bb;
  args[n++] = &bt;
  return test_launch1(test_kernel(m, kernel), BLOCKS, THREADS, args, n);
}

START_TEST(null_write_is_a_kernel_fault) {
  one_worker_in_order();
  cuemu_module *m = test_module("faults.cu");
  int out[BLOCKS * THREADS] = {0};
  int *bad = NULL;
  void *extra[] = {&bad};
  ck_assert_int_eq(launch_culprit(m, "fault_write", out, extra, 1),
                   CUEMU_KERNEL_FAULT);
  assert_names_culprit(cuemu_last_message(), "fault_write");
  /* The culprit's write is volatile: in lockstep its warp-mates that skip
   * the branch wait out its round (cuemu_warp_step_skip), as a GPU's warp
   * runs the branch before the store after it, so none of that warp
   * stored. */
  assert_stopped_before(out, BAD_BLOCK * THREADS + BAD_THREAD / 32 * 32);
  assert_later_launch_works(m);
  cuemu_module_unload(m);
}
END_TEST

/* An optimised build (cuemu-cc's default -O2) keeps line tables, so a
 * fault names the user's file and line, not an offset in the module (issue
 * 17). The module's file stays in place: the line is read from it. */
START_TEST(optimised_fault_names_the_line) {
  one_worker_in_order();
  char *source = test_src_path("tests/kernels/faults.cu");
  char name[64];
  snprintf(name, sizeof name, "faults-o2.%ld.so", (long)getpid());
  char *output = test_tmp_path(name);
  cuemu_compile_options o;
  memset(&o, 0, sizeof o);
  o.module = 1;
  ck_assert_int_eq(cuemu_compile(source, output, &o, NULL), CUEMU_SUCCESS);
  cuemu_module *m = NULL;
  ck_assert_int_eq(cuemu_module_load(&m, output), CUEMU_SUCCESS);
  int out[BLOCKS * THREADS] = {0};
  int *bad = NULL;
  void *extra[] = {&bad};
  ck_assert_int_eq(launch_culprit(m, "fault_write", out, extra, 1),
                   CUEMU_KERNEL_FAULT);
  char where[64];
  snprintf(where, sizeof where, "faults.cu:%d", fault_line("write"));
  TEST_ASSERT_CONTAINS(cuemu_last_message(), where);
  cuemu_module_unload(m);
  unlink(output);
  free(output);
  free(source);
}
END_TEST

START_TEST(wild_read_is_a_kernel_fault) {
  one_worker_in_order();
  cuemu_module *m = test_module("faults.cu");
  /* A page that is mapped but inaccessible: a wild pointer for certain. */
  long page = sysconf(_SC_PAGESIZE);
  void *hole = mmap(NULL, (size_t)page, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(hole, MAP_FAILED);
  int out[BLOCKS * THREADS] = {0};
  int *bad = (int *)((char *)hole + 64);
  void *extra[] = {&bad};
  ck_assert_int_eq(launch_culprit(m, "fault_read", out, extra, 1),
                   CUEMU_KERNEL_FAULT);
  const char *msg = cuemu_last_message();
  assert_names_culprit(msg, "fault_read");
  TEST_ASSERT_CONTAINS(msg, "invalid memory access");
  char addr[64];
  snprintf(addr, sizeof addr, "%p", (void *)bad);
  TEST_ASSERT_CONTAINS(msg, addr);
  assert_stopped_at_culprit(out);
  assert_later_launch_works(m);
  /* And a fault again after that: the handler is still in place. */
  memset(out, 0, sizeof out);
  ck_assert_int_eq(launch_culprit(m, "fault_read", out, extra, 1),
                   CUEMU_KERNEL_FAULT);
  assert_names_culprit(cuemu_last_message(), "fault_read");
  munmap(hole, (size_t)page);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(fault_in_a_suspended_thread) {
  /* The culprit has been through a barrier, so it runs as a coroutine. */
  one_worker_in_order();
  cuemu_module *m = test_module("faults.cu");
  unsigned started = 0;
  unsigned *ps = &started;
  int *bad = NULL;
  unsigned bb = BAD_BLOCK, bt = BAD_THREAD;
  void *args[] = {&ps, &bad, &bb, &bt};
  ck_assert_int_eq(test_launch1(test_kernel(m, "fault_after_barrier"), BLOCKS,
                                THREADS, args, 4),
                   CUEMU_KERNEL_FAULT);
  assert_names_culprit(cuemu_last_message(), "fault_after_barrier");
  ck_assert_uint_eq(started, BAD_BLOCK + 1);
  assert_later_launch_works(m);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(assert_names_thread_line_and_expression) {
  one_worker_in_order();
  cuemu_module *m = test_module("faults.cu");
  int out[BLOCKS * THREADS] = {0};
  ck_assert_int_eq(launch_culprit(m, "fault_assert", out, NULL, 0),
                   CUEMU_ASSERT);
  const char *msg = cuemu_last_message();
  assert_names_culprit(msg, "fault_assert");
  char where[64];
  snprintf(where, sizeof where, "faults.cu:%d", fault_line("assert"));
  TEST_ASSERT_CONTAINS(msg, where);
  TEST_ASSERT_CONTAINS(msg, "blockIdx.x != bb || threadIdx.x != bt");
  assert_block_ran_on(out, 0);
  assert_later_launch_works(m);
  int after_barrier[BLOCKS * THREADS] = {0};
  ck_assert_int_eq(launch_culprit(m, "fault_assert_barrier", after_barrier, NULL, 0),
                   CUEMU_ASSERT);
  assert_names_culprit(cuemu_last_message(), "fault_assert_barrier");
  assert_block_ran_on(after_barrier, 1);
  assert_later_launch_works(m);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(assert_is_off_with_ndebug) {
  test_setenv("CUEMU_WORKERS", "2");
  char *source = test_src_path("tests/kernels/faults.cu");
  char name[64];
  snprintf(name, sizeof name, "faults-ndebug.%ld.so", (long)getpid());
  char *output = test_tmp_path(name);
  const char *argv[] = {"-DNDEBUG"};
  cuemu_compile_options opt;
  memset(&opt, 0, sizeof opt);
  opt.module = 1;
  opt.argv = argv;
  opt.argc = 1;
  cuemu_status st = cuemu_compile(source, output, &opt, NULL);
  ck_assert_msg(st == CUEMU_SUCCESS, "compile: %s", cuemu_last_message());
  cuemu_module *m = NULL;
  ck_assert_int_eq(cuemu_module_load(&m, output), CUEMU_SUCCESS);
  unlink(output);
  int out[BLOCKS * THREADS] = {0};
  ck_assert_int_eq(launch_culprit(m, "fault_assert", out, NULL, 0),
                   CUEMU_SUCCESS);
  for (unsigned i = 0; i < BLOCKS * THREADS; ++i)
    ck_assert_int_eq(out[i], 1);
  cuemu_module_unload(m);
  free(source);
  free(output);
}
END_TEST

START_TEST(trap_names_thread_and_line) {
  one_worker_in_order();
  cuemu_module *m = test_module("faults.cu");
  int out[BLOCKS * THREADS] = {0};
  ck_assert_int_eq(launch_culprit(m, "fault_trap", out, NULL, 0), CUEMU_TRAP);
  const char *msg = cuemu_last_message();
  assert_names_culprit(msg, "fault_trap");
  TEST_ASSERT_CONTAINS(msg, "__trap()");
  char where[64];
  snprintf(where, sizeof where, "faults.cu:%d", fault_line("trap"));
  TEST_ASSERT_CONTAINS(msg, where);
  assert_stopped_at_culprit(out);
  assert_later_launch_works(m);
  cuemu_module_unload(m);
}
END_TEST

/* A GPU does not trap on an integer division by zero or on INT_MIN / -1:
 * the kernel goes on with the value the GPU gives (all bits set for a
 * division by zero, quotient and remainder alike), and only the checkers
 * say so (issue 17). */
START_TEST(integer_division_by_zero) {
  one_worker_in_order();
  cuemu_module *m = test_module("faults.cu");
  int out[BLOCKS * THREADS] = {0};
  int num = 1, zero = 0;
  void *extra[] = {&num, &zero};
  ck_assert_int_eq(launch_culprit(m, "fault_divide", out, extra, 2),
                   CUEMU_SUCCESS);
  const unsigned culprit = BAD_BLOCK * THREADS + BAD_THREAD;
  for (unsigned i = 0; i < BLOCKS * THREADS; ++i)
    ck_assert_int_eq(out[i], i == culprit ? -1 : 1);
  long long r[14];
  memset(r, 0x55, sizeof r);
  long long *pr = r, zero64 = 0, minus_one64 = -1;
  int minus_one = -1;
  void *args[] = {&pr, &zero, &minus_one, &zero64, &minus_one64};
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "divide_specials"), 1, 1, args, 5));
  ck_assert_int_eq(r[0], -1);
  ck_assert_int_eq(r[1], -1);
  ck_assert_int_eq(r[2], 0xffffffffll);
  ck_assert_int_eq(r[3], 0xffffffffll);
  ck_assert_int_eq(r[4], -1);
  ck_assert_int_eq(r[5], -1);
  ck_assert_int_eq(r[6], -1);
  ck_assert_int_eq(r[7], -1);
  ck_assert_int_eq(r[8], -2147483647ll - 1);
  ck_assert_int_eq(r[9], 0);
  ck_assert_int_eq(r[10], -9223372036854775807ll - 1);
  ck_assert_int_eq(r[11], 0);
  ck_assert_int_eq(r[12], 0xff);
  ck_assert_int_eq(r[13], 0xffff);
  assert_later_launch_works(m);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(fault_with_two_workers_stops_the_launch) {
  test_setenv("CUEMU_WORKERS", "2");
  cuemu_module *m = test_module("faults.cu");
  cuemu_kernel *k = test_kernel(m, "fault_after_barrier");
  /* Enough blocks that the other worker cannot run them all while the
   * faulting one waits for a core on a loaded machine (20000, about 10 ms
   * of work, was not). */
  const unsigned blocks = 400000;
  for (unsigned round = 0; round < 4; ++round) {
    unsigned started = 0;
    unsigned *ps = &started;
    int *bad = NULL;
    unsigned bb = 50 + round * 1000, bt = BAD_THREAD;
    void *args[] = {&ps, &bad, &bb, &bt};
    ck_assert_int_eq(test_launch1(k, blocks, THREADS, args, 4),
                     CUEMU_KERNEL_FAULT);
    char culprit[64];
    snprintf(culprit, sizeof culprit, "block (%u,0,0)", bb);
    TEST_ASSERT_CONTAINS(cuemu_last_message(), culprit);
    TEST_ASSERT_CONTAINS(cuemu_last_message(), "thread (5,0,0)");
    ck_assert_msg(started > bb && started < blocks,
                  "round %u: %u of %u blocks started after a fault in block "
                  "%u",
                  round, started, blocks, bb);
    assert_later_launch_works(m);
  }
  cuemu_module_unload(m);
}
END_TEST

START_TEST(printf_lines_stay_whole) {
  test_setenv("CUEMU_WORKERS", "2");
  /* 8192 lines of about 180 bytes: more than the default FIFO of 1 MiB. */
  ck_assert_int_eq(cuemu_rt_device_set_limit(cudaLimitPrintfFifoSize,
                                             4u << 20),
                   cudaSuccess);
  cuemu_module *m = test_module("faults.cu");
  cuemu_kernel *k = test_kernel(m, "print_lines");
  enum { PB = 64, PT = 128, WIDTH = 150 };
  char name[64];
  snprintf(name, sizeof name, "printf.%ld.txt", (long)getpid());
  char *path = test_tmp_path(name);

  int width = WIDTH;
  void *args[] = {&width};
  test_capture capture = test_capture_begin(1, path);
  cuemu_status st = test_launch1(k, PB, PT, args, 1);
  test_capture_end(&capture);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s", cuemu_last_message());

  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  unsigned char *seen = calloc(PB * PT, 1);
  ck_assert_ptr_nonnull(seen);
  char line[1024], expected[1024];
  int count = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned b, t;
    ck_assert_msg(sscanf(line, "block %u thread %u:", &b, &t) == 2 &&
                      b < PB && t < PT,
                  "line %d is broken: %s", count + 1, line);
    char payload[WIDTH + 1];
    for (int i = 0; i < WIDTH; ++i)
      payload[i] = (char)('a' + (b + t + (unsigned)i) % 26);
    payload[WIDTH] = '\0';
    snprintf(expected, sizeof expected, "block %u thread %u: %s end\n", b, t,
             payload);
    ck_assert_msg(strcmp(line, expected) == 0, "line %d is broken: %s",
                  count + 1, line);
    ck_assert_msg(!seen[b * PT + t], "line of block %u thread %u twice", b,
                  t);
    seen[b * PT + t] = 1;
    count++;
  }
  fclose(f);
  ck_assert_int_eq(count, PB * PT);
  unlink(path);
  free(seen);
  free(path);
  cuemu_module_unload(m);
}
END_TEST

/* A launch whose printf records overflow the FIFO loses the oldest, as on a
 * GPU, and cuemu says so on stderr (unless CUEMU_QUIET), naming the
 * kernel, how many records were lost and the limit that would keep them. */
START_TEST(printf_fifo_overflow_is_noted) {
  test_setenv("CUEMU_QUIET", "0");
  ck_assert_int_eq(cuemu_rt_device_set_limit(cudaLimitPrintfFifoSize, 4096),
                   cudaSuccess);
  cuemu_module *m = test_module("faults.cu");
  cuemu_kernel *k = test_kernel(m, "print_lines");
  char name[64];
  snprintf(name, sizeof name, "printf-out.%ld.txt", (long)getpid());
  char *out = test_tmp_path(name);
  snprintf(name, sizeof name, "printf-err.%ld.txt", (long)getpid());
  char *err = test_tmp_path(name);
  int width = 20;
  void *args[] = {&width};
  test_capture capture_out = test_capture_begin(1, out);
  test_capture capture_err = test_capture_begin(2, err);
  cuemu_status st = test_launch1(k, 4, 64, args, 1);
  test_capture_end(&capture_err);
  test_capture_end(&capture_out);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s", cuemu_last_message());
  char *text = test_read_text(err, NULL);
  TEST_ASSERT_CONTAINS(text, "cuemu: note: kernel print_lines: ");
  TEST_ASSERT_CONTAINS(text, " of its 256 printf records were lost");
  TEST_ASSERT_CONTAINS(text, "cudaLimitPrintfFifoSize, 4096 bytes");
  free(text);
  unlink(out);
  unlink(err);
  free(out);
  free(err);
  cuemu_module_unload(m);
}
END_TEST

/* A kernel's printf of a bad %s pointer is a kernel fault at the user's
 * line, under one and two workers: never a hang on the C library's stdout
 * lock (issue 17). The other threads' output is written when the launch
 * ends, formatted as printf does. */
START_TEST(printf_of_a_bad_string_is_a_fault) {
  test_setenv("CUEMU_WORKERS", _i == 0 ? "1" : "2");
  cuemu_module *m = test_module("faults.cu");
  cuemu_kernel *k = test_kernel(m, "print_bad_string");
  char name[64];
  snprintf(name, sizeof name, "printf-fault.%ld.txt", (long)getpid());
  char *path = test_tmp_path(name);
  int value = 42, *pv = &value;
  unsigned bb = 3, bt = 5;
  void *args[] = {&pv, &bb, &bt};
  for (int round = 0; round < 20; ++round) {
    test_capture capture = test_capture_begin(1, path);
    cuemu_status st = test_launch1(k, 64, 32, args, 3);
    test_capture_end(&capture);
    ck_assert_int_eq(st, CUEMU_KERNEL_FAULT);
    const char *msg = cuemu_last_message();
    char where[64];
    snprintf(where, sizeof where, "faults.cu:%d", fault_line("printf"));
    TEST_ASSERT_CONTAINS(msg, where);
    TEST_ASSERT_CONTAINS(msg, "thread (5,0,0) of block (3,0,0)");
    char *text = test_read_text(path, NULL);
    TEST_ASSERT_CONTAINS(text,
                         "thread 0:  3.14|ok  |z|-5|ff|(nil)|%|  7\n"
                         "thread 1:  3.14|ok  |z|-5|ff|(nil)|%|  7\n");
    free(text);
  }
  unlink(path);
  free(path);
  cuemu_module_unload(m);
}
END_TEST

/* exit(), abort() and SIGABRT (what a library's abort() raises) on a
 * kernel thread, reached through __device__ functions that the compile
 * does not see into: the launch ends with an error naming what was called,
 * the culprit and the line, and the process goes on (issue 17, item 2). */
START_TEST(host_calls_end_the_launch_not_the_process) {
  static const char *const what[] = {"exit", "abort", "sigabrt"};
  static const char *const says[] = {"exit() called in device code",
                                     "abort() called in device code",
                                     "abort() (a host function) called"};
  one_worker_in_order();
  cuemu_module *m = test_module("bad_host_calls.cu");
  int out[BLOCKS * THREADS] = {0};
  int how = _i;
  void *extra[] = {&how};
  ck_assert_int_eq(launch_culprit(m, "host_call", out, extra, 1),
                   CUEMU_KERNEL_FAULT);
  const char *msg = cuemu_last_message();
  assert_names_culprit(msg, "host_call");
  TEST_ASSERT_CONTAINS(msg, says[_i]);
  char marker[64], where[96];
  snprintf(marker, sizeof marker, "FAULT_LINE %s ", what[_i]);
  snprintf(where, sizeof where, "bad_host_calls.cu:%d",
           test_marker_line("bad_host_calls.cu", marker));
  TEST_ASSERT_CONTAINS(msg, where);
  assert_stopped_at_culprit(out);
  assert_later_launch_works(m);
  cuemu_module_unload(m);
}
END_TEST

Suite *make_faults_suite(void) {
  Suite *s = suite_create("faults");
  TCase *tc = test_tcase(s, "memory", 60);
  tcase_add_test(tc, null_write_is_a_kernel_fault);
  tcase_add_test(tc, optimised_fault_names_the_line);
  tcase_add_test(tc, wild_read_is_a_kernel_fault);
  tcase_add_test(tc, fault_in_a_suspended_thread);
  tcase_add_test(tc, integer_division_by_zero);
  tcase_add_test(tc, fault_with_two_workers_stops_the_launch);

  tc = test_tcase(s, "assert_trap", 60);
  tcase_add_test(tc, assert_names_thread_line_and_expression);
  tcase_add_test(tc, assert_is_off_with_ndebug);
  tcase_add_test(tc, trap_names_thread_and_line);
  tcase_add_loop_test(tc, host_calls_end_the_launch_not_the_process, 0, 3);

  tc = test_tcase(s, "printf", 60);
  tcase_add_test(tc, printf_lines_stay_whole);
  tcase_add_loop_test(tc, printf_of_a_bad_string_is_a_fault, 0, 2);
  tcase_add_test(tc, printf_fifo_overflow_is_noted);
  return s;
}
