/*
 * check_runtime_launch.c: the CUDA runtime API's streams, events, launches
 * (cudaLaunchKernel, cudaLaunchCooperativeKernel), function attributes,
 * occupancy and symbols, through libcuemu's public side of it
 * (cuemu_runtime_streams.h). See check_runtime.c for the rest and for the
 * "CUDA DIFFERENCE" comments.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "check_runtime.h"
#include "check_suites.h"
#include "cuemu_test_util.h"

/* CUDA's values of the flags and handles that the shims define. */
enum {
  STREAM_NON_BLOCKING = 0x01,
  EVENT_DISABLE_TIMING = 0x02,
  EVENT_INTERPROCESS = 0x04,
  FUNC_ATTR_MAX_DYNAMIC_SHARED = 8,
  FUNC_ATTR_CARVEOUT = 9
};
#define STREAM_LEGACY ((void *)0x1)
#define STREAM_PER_THREAD ((void *)0x2)

/* ---- Streams ------------------------------------------------------------- */

START_TEST(stream_life) {
  void *s = NULL;
  ck_assert_int_eq(cuemu_rt_stream_create(&s, 0, 0), cudaSuccess);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(cuemu_rt_stream_query(s), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_synchronize(s), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_destroy(s), cudaSuccess);
  /* A destroyed handle, and one never created, are invalid everywhere. */
  ck_assert_int_eq(cuemu_rt_stream_query(s), cudaErrorInvalidResourceHandle);
  ck_assert_int_eq(cuemu_rt_stream_synchronize(s),
                   cudaErrorInvalidResourceHandle);
  ck_assert_int_eq(cuemu_rt_stream_destroy(s), cudaErrorInvalidResourceHandle);
  void *made_up = (void *)(uintptr_t)0x7777;
  ck_assert_int_eq(cuemu_rt_stream_query(made_up),
                   cudaErrorInvalidResourceHandle);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaErrorInvalidResourceHandle);
  /* The default streams are always valid. */
  ck_assert_int_eq(cuemu_rt_stream_query(NULL), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_query(STREAM_LEGACY), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_synchronize(STREAM_PER_THREAD),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_create(NULL, 0, 0), cudaErrorInvalidValue);
}
END_TEST

START_TEST(stream_flags_and_priorities) {
  int least = 1, greatest = 1;
  ck_assert_int_eq(cuemu_rt_device_stream_priority_range(&least, &greatest),
                   cudaSuccess);
  ck_assert_int_eq(least, 0);
  ck_assert_int_eq(greatest, -5);
  void *s = NULL;
  ck_assert_int_eq(cuemu_rt_stream_create(&s, STREAM_NON_BLOCKING, -10),
                   cudaSuccess);
  unsigned flags = 0;
  int priority = 0;
  ck_assert_int_eq(cuemu_rt_stream_get_flags(s, &flags), cudaSuccess);
  ck_assert_uint_eq(flags, STREAM_NON_BLOCKING);
  /* A priority past the range is clamped to it. */
  ck_assert_int_eq(cuemu_rt_stream_get_priority(s, &priority), cudaSuccess);
  ck_assert_int_eq(priority, -5);
  ck_assert_int_eq(cuemu_rt_stream_destroy(s), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_get_flags(s, &flags),
                   cudaErrorInvalidResourceHandle);
}
END_TEST

static void add_one(void *data) { ++*(int *)data; }

static void trampoline(void *stream, int status, void *callback, void *data) {
  (void)stream;
  (void)callback;
  *(int *)data = 100 + status;
}

START_TEST(host_functions_and_callbacks) {
  void *s = NULL;
  int count = 0, seen = -1;
  ck_assert_int_eq(cuemu_rt_stream_create(&s, 0, 0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_launch_host_func(s, add_one, &count), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_launch_host_func(NULL, add_one, &count),
                   cudaSuccess);
  /* They run in their streams' order, on the streams' threads. */
  ck_assert_int_eq(cuemu_rt_device_synchronize(), cudaSuccess);
  ck_assert_int_eq(count, 2);
  /* The shims pass the user's callback through the trampoline, which
   * gets the stream's error. */
  void *callback = (void *)(uintptr_t)add_one;
  ck_assert_int_eq(
      cuemu_rt_stream_add_callback(s, trampoline, callback, &seen, 0),
      cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_synchronize(s), cudaSuccess);
  ck_assert_int_eq(seen, 100);
  /* cudaStreamAddCallback's flags must be 0, and it needs a callback. */
  ck_assert_int_eq(
      cuemu_rt_stream_add_callback(s, trampoline, callback, &seen, 1),
      cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_stream_add_callback(s, trampoline, NULL, &seen, 0),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_stream_destroy(s), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_launch_host_func(s, add_one, &count),
                   cudaErrorInvalidResourceHandle);
  ck_assert_int_eq(count, 2);
}
END_TEST

/* ---- Events -------------------------------------------------------------- */

START_TEST(event_timing) {
  void *start = NULL, *end = NULL, *s = NULL;
  ck_assert_int_eq(cuemu_rt_stream_create(&s, 0, 0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_create(&start, 0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_create(&end, 0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_record(start, s), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_record(end, s), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_synchronize(end), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_query(end), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_wait_event(s, end, 0), cudaSuccess);
  float ms = -1.0f;
  ck_assert_int_eq(cuemu_rt_event_elapsed_time(&ms, start, end), cudaSuccess);
  ck_assert_float_ge(ms, 0.0f);
  ck_assert_int_eq(cuemu_rt_event_elapsed_time(NULL, start, end),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_event_destroy(start), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_destroy(end), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_destroy(s), cudaSuccess);
}
END_TEST

START_TEST(event_errors) {
  void *never = NULL, *untimed = NULL, *recorded = NULL, *e = NULL;
  float ms;
  ck_assert_int_eq(cuemu_rt_event_create(&never, 0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_create(&recorded, 0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_create(&untimed, EVENT_DISABLE_TIMING),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_record(recorded, NULL), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_record(untimed, NULL), cudaSuccess);
  /* An event never recorded, or one without timing, has no time. */
  ck_assert_int_eq(cuemu_rt_event_elapsed_time(&ms, never, recorded),
                   cudaErrorInvalidResourceHandle);
  ck_assert_int_eq(cuemu_rt_event_elapsed_time(&ms, untimed, recorded),
                   cudaErrorInvalidResourceHandle);
  /* An interprocess event needs cudaEventDisableTiming. */
  ck_assert_int_eq(cuemu_rt_event_create(&e, EVENT_INTERPROCESS),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_event_create(
                       &e, EVENT_INTERPROCESS | EVENT_DISABLE_TIMING),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_destroy(e), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_record(e, NULL),
                   cudaErrorInvalidResourceHandle);
  ck_assert_int_eq(cuemu_rt_event_query(e), cudaErrorInvalidResourceHandle);
  /* Recording into a stream that is not valid. */
  ck_assert_int_eq(cuemu_rt_event_record(recorded, (void *)(uintptr_t)0x999),
                   cudaErrorInvalidResourceHandle);
  ck_assert_int_eq(cuemu_rt_event_create(NULL, 0), cudaErrorInvalidValue);
}
END_TEST

/* ---- Launches ------------------------------------------------------------ */

/* Event and stream handles are reused, so that creating and destroying
 * them in a loop keeps memory flat, and a destroyed handle stays invalid
 * after its slot is reused. */
START_TEST(handles_are_reused_and_stale_ones_refused) {
  void *first = NULL, *e = NULL;
  ck_assert_int_eq(cuemu_rt_event_create(&first, 0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_destroy(first), cudaSuccess);
  for (int i = 0; i < 200000; ++i) {
    ck_assert_int_eq(cuemu_rt_event_create(&e, 0), cudaSuccess);
    /* The same slot every time: the table does not grow. */
    ck_assert_uint_eq((uintptr_t)e & 0xffffffffu,
                      (uintptr_t)first & 0xffffffffu);
    ck_assert_int_eq(cuemu_rt_event_destroy(e), cudaSuccess);
  }
  ck_assert_int_eq(cuemu_rt_event_query(first),
                   cudaErrorInvalidResourceHandle);
  ck_assert_int_eq(cuemu_rt_event_query(e), cudaErrorInvalidResourceHandle);
  ck_assert_int_eq(cuemu_rt_event_destroy(e), cudaErrorInvalidResourceHandle);
  cuemu_rt_get_last_error();
  void *s = NULL;
  ck_assert_int_eq(cuemu_rt_stream_create(&s, 0, 0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_event_query(s), cudaErrorInvalidResourceHandle);
  ck_assert_int_eq(cuemu_rt_stream_destroy(s), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_query(s), cudaErrorInvalidResourceHandle);
  cuemu_rt_get_last_error();
}
END_TEST

/* A launch that runs out of memory for its threads' stacks while it runs
 * fails with cudaErrorLaunchOutOfResources, and the synchronisation
 * reports it too (it is sticky): never a partial launch reported as
 * success (issue 17). */
START_TEST(stack_exhaustion_fails_the_launch_and_the_sync) {
  test_setenv("CUEMU_STACK_SIZE", "64M");
  test_setenv("CUEMU_WORKERS", "1");
  /* Room for a few stacks of 64 MiB, not for 1024 of them. */
  struct rlimit limit = {(rlim_t)3 << 30, (rlim_t)3 << 30};
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fscanf(f, "%lu", &pages), 1);
  fclose(f);
  limit.rlim_cur = limit.rlim_max += (rlim_t)pages * 4096;
  const void *k = runtime_kernel("rt_static_shared");
  int *out = calloc(1024, sizeof *out), status = -1;
  /* The launch's status comes back from the call when it runs there. */
  setenv("CUEMU_STREAMS", "sync", 1);
  void *args[] = {&out};
  cuemu_uint3 one = {1, 1, 1}, block = {1024, 1, 1};
  ck_assert_int_eq(setrlimit(RLIMIT_AS, &limit), 0);
  int e = cuemu_rt_launch_kernel(k, NULL, one, block, args, 0, NULL, 0,
                                 &status);
  ck_assert_int_eq(e, cudaSuccess); /* the configuration was fine */
  ck_assert_int_eq(status, CUEMU_LAUNCH_RESOURCES);
  ck_assert_int_eq(cuemu_rt_record_launch_status(status),
                   cudaErrorLaunchOutOfResources);
  ck_assert_int_eq(cuemu_rt_device_synchronize(),
                   cudaErrorLaunchOutOfResources);
  free(out);
}
END_TEST

START_TEST(launch_runs_the_kernel) {
  int out[128] = {0};
  int *po = out, v = 7;
  void *args[] = {&po, &v};
  void *s = NULL;
  ck_assert_int_eq(cuemu_rt_stream_create(&s, 0, 0), cudaSuccess);
  ck_assert_int_eq(runtime_launch("rt_fill", 2, 64, 0, s, args), cudaSuccess);
  for (int i = 0; i < 128; ++i)
    ck_assert_int_eq(out[i], 7);
  ck_assert_int_eq(cuemu_rt_stream_destroy(s), cudaSuccess);
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 1, 0, s, args),
                   cudaErrorInvalidResourceHandle);
}
END_TEST

/* The launch settings are read from the environment at each launch: a
 * variable set, changed, overwritten in place or removed between two
 * launches takes effect at the next one (issue 19 made that reading
 * cheaper; it must not cache a stale value). Each is tried both as a new
 * variable and as one already in the environment. */
START_TEST(environment_changes_take_effect_at_the_next_launch) {
  int out[64] = {0};
  int *po = out, v = 3;
  void *args[] = {&po, &v};
  test_setenv("CUEMU_WORKERS", NULL);
  test_setenv("CUEMU_SCHEDULE", NULL);
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 64, 0, NULL, args),
                   cudaSuccess);
  /* A new variable with a bad value: the next launch refuses it. */
  test_setenv("CUEMU_WORKERS", "0");
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 64, 0, NULL, args),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaErrorInvalidValue);
  /* Overwritten with a good value: accepted again. */
  test_setenv("CUEMU_WORKERS", "2");
  v = 4;
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 64, 0, NULL, args),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_device_synchronize(), cudaSuccess);
  for (int i = 0; i < 64; ++i)
    ck_assert_int_eq(out[i], 4);
  /* Overwritten with a bad value again, then removed. */
  test_setenv("CUEMU_WORKERS", "x");
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 64, 0, NULL, args),
                   cudaErrorInvalidValue);
  test_setenv("CUEMU_WORKERS", NULL);
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 64, 0, NULL, args),
                   cudaSuccess);
  /* Another variable, after many others were added to the environment
   * (which moves the environment's array). */
  char name[32];
  for (int i = 0; i < 64; ++i) {
    snprintf(name, sizeof name, "CUEMU_TEST_FILLER_%d", i);
    setenv(name, "1", 1);
  }
  test_setenv("CUEMU_SCHEDULE", "sideways");
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 64, 0, NULL, args),
                   cudaErrorInvalidValue);
  test_setenv("CUEMU_SCHEDULE", "reverse");
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 64, 0, NULL, args),
                   cudaSuccess);
  /* putenv() puts the caller's own string in the environment; changing
   * that string changes the variable. */
  static char own[] = "CUEMU_SCHEDULE=forward";
  ck_assert_int_eq(putenv(own), 0);
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 64, 0, NULL, args),
                   cudaSuccess);
  memcpy(own + strlen("CUEMU_SCHEDULE="), "sidewy!", 8);
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 64, 0, NULL, args),
                   cudaErrorInvalidValue);
  test_setenv("CUEMU_SCHEDULE", NULL);
  for (int i = 0; i < 64; ++i) {
    snprintf(name, sizeof name, "CUEMU_TEST_FILLER_%d", i);
    unsetenv(name);
  }
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 64, 0, NULL, args),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_device_synchronize(), cudaSuccess);
  cuemu_rt_get_last_error();
}
END_TEST

/* The environment as the program may hold it. */
extern char **environ;

/* A launch reads its settings as getenv() reads them, from the environment
 * array itself: of two entries of one name the first counts, an entry with
 * no '=' and a longer name that starts with the setting's are not the
 * setting, and an entry shorter than "CUEMU_" that ends at an unmapped page
 * is not read past its end. */
START_TEST(environment_is_read_as_getenv_reads_it) {
  int out[64] = {0};
  int *po = out, v = 5;
  void *args[] = {&po, &v};
  test_setenv("CUEMU_SCHEDULE", NULL);
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  char *pages = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(pages, MAP_FAILED);
  ck_assert_int_eq(mprotect(pages + page, page, PROT_NONE), 0);
  /* "C=" (an empty value) ends the readable page. */
  char *short_entry = pages + page - 3;
  memcpy(short_entry, "C=", 3);
  static char no_value[] = "CUEMU_SCHEDULE";
  static char longer[] = "CUEMU_SCHEDULEX=sideways";
  static char good[] = "CUEMU_SCHEDULE=reverse";
  static char bad[] = "CUEMU_SCHEDULE=sideways";
  size_t count = 0;
  while (environ[count])
    ++count;
  char **mine = calloc(count + 6, sizeof *mine);
  ck_assert_ptr_nonnull(mine);
  memcpy(mine + 5, environ, count * sizeof *mine);
  char **saved = environ;
  mine[0] = short_entry;
  mine[1] = no_value;
  mine[2] = longer;
  mine[3] = good;
  mine[4] = bad;
  environ = mine;
  const char *getenv_good = getenv("CUEMU_SCHEDULE");
  cudaError_t first_good = runtime_launch("rt_fill", 1, 64, 0, NULL, args);
  cudaError_t synced = cuemu_rt_device_synchronize();
  mine[3] = bad;
  mine[4] = good;
  const char *getenv_bad = getenv("CUEMU_SCHEDULE");
  cudaError_t first_bad = runtime_launch("rt_fill", 1, 64, 0, NULL, args);
  /* The program's environment is back before anything is asserted. */
  environ = saved;
  free(mine);
  munmap(pages, 2 * page);
  cuemu_rt_get_last_error();
  ck_assert_ptr_eq(getenv_good, good + strlen("CUEMU_SCHEDULE="));
  ck_assert_ptr_eq(getenv_bad, bad + strlen("CUEMU_SCHEDULE="));
  ck_assert_int_eq(first_good, cudaSuccess);
  ck_assert_int_eq(synced, cudaSuccess);
  for (int i = 0; i < 64; ++i)
    ck_assert_int_eq(out[i], 5);
  ck_assert_int_eq(first_bad, cudaErrorInvalidValue);
}
END_TEST

static void not_a_kernel(void) {}

START_TEST(launch_errors) {
  int out[4];
  int *po = out, v = 1;
  void *args[] = {&po, &v};
  cuemu_uint3 one = {1, 1, 1};
  int status = -1;
  ck_assert_int_eq(cuemu_rt_launch_kernel(NULL, NULL, one, one, args, 0, NULL,
                                          0, &status),
                   cudaErrorInvalidDeviceFunction);
  ck_assert_int_eq(cuemu_rt_launch_kernel((const void *)(uintptr_t)not_a_kernel,
                                          NULL, one, one, args, 0, NULL, 0,
                                          &status),
                   cudaErrorInvalidDeviceFunction);
  ck_assert_int_eq(cuemu_rt_get_last_error(), cudaErrorInvalidDeviceFunction);
  /* A kernel with parameters needs its arguments. */
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 1, 0, NULL, NULL),
                   cudaErrorInvalidValue);
  /* Shapes past the device's limits. */
  cuemu_uint3 g = {1, 1, 1}, b = {1, 1, 65};
  ck_assert_int_eq(cuemu_rt_launch_kernel(runtime_kernel("rt_fill"), NULL, g,
                                          b, args, 0, NULL, 0, &status),
                   cudaErrorInvalidConfiguration);
  g.y = 65536;
  b.z = 1;
  ck_assert_int_eq(cuemu_rt_launch_kernel(runtime_kernel("rt_fill"), NULL, g,
                                          b, args, 0, NULL, 0, &status),
                   cudaErrorInvalidConfiguration);
  ck_assert_int_eq(runtime_launch("rt_fill", 1, 0, 0, NULL, args),
                   cudaErrorInvalidConfiguration);
  ck_assert_int_eq(cuemu_rt_sticky(), cudaSuccess);
}
END_TEST

/* Dynamic shared memory: 48 KiB unless the kernel opts in to more
 * (cudaFuncSetAttribute), up to the device's 227 KiB. */
START_TEST(launch_dynamic_shared_memory) {
  int sum = 0, ints = 1024;
  int *ps = &sum;
  void *args[] = {&ps, &ints};
  ck_assert_int_eq(runtime_launch("rt_dynamic_shared", 2, 64,
                                  (size_t)ints * sizeof(int), NULL, args),
                   cudaSuccess);
  ck_assert_int_eq(sum, 2 * ints);
  ints = 16 * 1024; /* 64 KiB */
  ck_assert_int_eq(runtime_launch("rt_dynamic_shared", 1, 64,
                                  (size_t)ints * sizeof(int), NULL, args),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_func_set_attribute(
                       runtime_kernel("rt_dynamic_shared"),
                       FUNC_ATTR_MAX_DYNAMIC_SHARED, 64 * 1024, 1),
                   cudaSuccess);
  sum = 0;
  ck_assert_int_eq(runtime_launch("rt_dynamic_shared", 1, 64,
                                  (size_t)ints * sizeof(int), NULL, args),
                   cudaSuccess);
  ck_assert_int_eq(sum, ints);
  ck_assert_int_eq(cuemu_rt_func_set_attribute(
                       runtime_kernel("rt_dynamic_shared"),
                       FUNC_ATTR_MAX_DYNAMIC_SHARED, 228 * 1024, 1),
                   cudaErrorInvalidValue);
}
END_TEST

START_TEST(cooperative_launch) {
  int out[64];
  int *po = out, v = 5;
  void *args[] = {&po, &v};
  cuemu_uint3 g = {2, 1, 1}, b = {32, 1, 1};
  int status = -1;
  ck_assert_int_eq(cuemu_rt_launch_kernel(runtime_kernel("rt_fill"), NULL, g,
                                          b, args, 0, NULL, 1, &status),
                   cudaSuccess);
  ck_assert_int_eq(status, CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_rt_device_synchronize(), cudaSuccess);
  ck_assert_int_eq(out[63], 5);
  /* More blocks than can be resident at once. */
  int per_sm = 0;
  ck_assert_int_eq(cuemu_rt_occupancy_max_active_blocks(
                       &per_sm, runtime_kernel("rt_fill"), 32, 0, 0, 1),
                   cudaSuccess);
  ck_assert_int_gt(per_sm, 0);
  g.x = (unsigned)per_sm * cuemu_rt_sm_count() + 1;
  ck_assert_int_eq(cuemu_rt_launch_kernel(runtime_kernel("rt_fill"), NULL, g,
                                          b, args, 0, NULL, 1, &status),
                   cudaErrorCooperativeLaunchTooLarge);
  ck_assert_int_eq(cuemu_rt_sticky(), cudaSuccess);
}
END_TEST

/* CUDA DIFFERENCE (issue 12): CUDA refuses a launch of more threads per
 * block than the kernel's __launch_bounds__ (cudaErrorLaunchOutOfResources,
 * the status table's LAUNCH_BOUNDS); cuemu runs it. */
START_TEST(launch_bounds_are_enforced) {
  int out[128] = {0};
  int *po = out;
  void *args[] = {&po};
  ck_assert_int_eq(runtime_launch("rt_bounded", 1, 64, 0, NULL, args),
                   cudaSuccess);
  ck_assert_int_eq(runtime_launch("rt_bounded", 1, 128, 0, NULL, args),
                   cuemu_status_cuda_error(CUEMU_LAUNCH_BOUNDS));
  ck_assert_int_eq(out[100], 0);
}
END_TEST

/* ---- Function attributes and occupancy ----------------------------------- */

START_TEST(function_attributes) {
  cuemu_rt_func_attributes a;
  ck_assert_int_eq(
      cuemu_rt_func_get_attributes(&a, runtime_kernel("rt_fill"), 1),
      cudaSuccess);
  ck_assert_int_eq(a.max_threads_per_block, 1024);
  ck_assert_int_eq(a.max_dynamic_shared_size_bytes, 48 * 1024);
  ck_assert_int_eq(cuemu_rt_func_set_attribute(runtime_kernel("rt_fill"),
                                               FUNC_ATTR_MAX_DYNAMIC_SHARED,
                                               100 * 1024, 1),
                   cudaSuccess);
  ck_assert_int_eq(
      cuemu_rt_func_get_attributes(&a, runtime_kernel("rt_fill"), 1),
      cudaSuccess);
  ck_assert_int_eq(a.max_dynamic_shared_size_bytes, 100 * 1024);
  ck_assert_uint_eq(cuemu_rt_func_max_dynamic_shared(runtime_kernel("rt_fill")),
                    100 * 1024);
  ck_assert_int_eq(cuemu_rt_func_set_attribute(runtime_kernel("rt_fill"),
                                               FUNC_ATTR_CARVEOUT, 50, 1),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_func_set_attribute(runtime_kernel("rt_fill"),
                                               FUNC_ATTR_CARVEOUT, 101, 1),
                   cudaErrorInvalidValue);
  /* A function that is not a registered kernel. */
  ck_assert_int_eq(cuemu_rt_func_get_attributes(
                       &a, (const void *)(uintptr_t)not_a_kernel, 0),
                   cudaErrorInvalidDeviceFunction);
  ck_assert_int_eq(cuemu_rt_func_get_attributes(NULL, runtime_kernel("rt_fill"),
                                                1),
                   cudaErrorInvalidValue);
}
END_TEST

/* cudaFuncGetAttributes reports a kernel's __launch_bounds__ as its
 * maxThreadsPerBlock, and its static shared memory as sharedSizeBytes,
 * before the kernel's first launch as after it. */
START_TEST(function_attributes_know_the_kernel) {
  cuemu_rt_func_attributes a;
  ck_assert_int_eq(
      cuemu_rt_func_get_attributes(&a, runtime_kernel("rt_bounded"), 1),
      cudaSuccess);
  ck_assert_int_eq(a.max_threads_per_block, 64);
  const void *k = runtime_kernel("rt_static_shared");
  ck_assert_int_eq(cuemu_rt_func_get_attributes(&a, k, 1), cudaSuccess);
  ck_assert_uint_eq(a.shared_size_bytes, 1024 * sizeof(int));
  int out[1024], *po = out, status = -1;
  void *args[] = {&po};
  cuemu_uint3 one = {1, 1, 1}, block = {1024, 1, 1};
  ck_assert_int_eq(cuemu_rt_launch_kernel(k, NULL, one, block, args, 0, NULL,
                                          0, &status),
                   cudaSuccess);
  ck_assert_int_eq(status, CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_rt_device_synchronize(), cudaSuccess);
  ck_assert_int_eq(out[0], 1023);
  ck_assert_int_eq(cuemu_rt_func_get_attributes(&a, k, 1), cudaSuccess);
  ck_assert_uint_eq(a.shared_size_bytes, 1024 * sizeof(int));
}
END_TEST

START_TEST(occupancy) {
  int blocks = 0;
  ck_assert_int_eq(cuemu_rt_occupancy_max_active_blocks(
                       &blocks, runtime_kernel("rt_fill"), 256, 0, 0, 1),
                   cudaSuccess);
  ck_assert_int_gt(blocks, 0);
  ck_assert_int_le(blocks * 256, 2048);
  ck_assert_int_eq(cuemu_rt_occupancy_max_active_blocks(
                       &blocks, runtime_kernel("rt_fill"), 2048, 0, 0, 1),
                   cudaSuccess);
  ck_assert_int_eq(blocks, 0);
  int min_grid = 0, block = 0;
  ck_assert_int_eq(cuemu_rt_occupancy_max_potential_block_size(
                       &min_grid, &block, runtime_kernel("rt_fill"), 0, 0, 1),
                   cudaSuccess);
  ck_assert_int_gt(block, 0);
  ck_assert_int_le(block, 1024);
  ck_assert_int_eq(block % 32, 0);
  ck_assert_int_gt(min_grid, 0);
  ck_assert_int_eq(cuemu_rt_occupancy_max_potential_block_size(
                       &min_grid, &block, runtime_kernel("rt_fill"), 0, 96, 1),
                   cudaSuccess);
  ck_assert_int_le(block, 96);
}
END_TEST

/* ---- Symbols ------------------------------------------------------------- */

/* A stand-in for a __device__ int[4]: what the shims pass is the variable's
 * address and size. */
static int symbol[4];

START_TEST(symbol_copies) {
  const int in[4] = {1, 2, 3, 4};
  int out[4] = {0};
  ck_assert_int_eq(cuemu_rt_memcpy_to_symbol(symbol, sizeof symbol, in,
                                             sizeof in, 0,
                                             cudaMemcpyHostToDevice, NULL),
                   cudaSuccess);
  ck_assert_int_eq(symbol[3], 4);
  ck_assert_int_eq(cuemu_rt_memcpy_to_symbol(symbol, sizeof symbol, in,
                                             sizeof(int), 2 * sizeof(int),
                                             cudaMemcpyDefault, NULL),
                   cudaSuccess);
  ck_assert_int_eq(symbol[2], 1);
  ck_assert_int_eq(cuemu_rt_memcpy_from_symbol(out, symbol, sizeof symbol,
                                               sizeof out, 0,
                                               cudaMemcpyDeviceToHost, NULL),
                   cudaSuccess);
  ck_assert_int_eq(out[2], 1);
  ck_assert_int_eq(out[3], 4);
  /* Past the variable's end, and the wrong direction. */
  ck_assert_int_eq(cuemu_rt_memcpy_to_symbol(symbol, sizeof symbol, in,
                                             sizeof in, sizeof(int),
                                             cudaMemcpyHostToDevice, NULL),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_memcpy_to_symbol(symbol, sizeof symbol, in,
                                             sizeof in, 0,
                                             cudaMemcpyDeviceToHost, NULL),
                   cudaErrorInvalidMemcpyDirection);
  ck_assert_int_eq(symbol[0], 1);
  void *address = NULL;
  size_t size = 0;
  ck_assert_int_eq(cuemu_rt_get_symbol_address(&address, symbol,
                                               sizeof symbol),
                   cudaSuccess);
  ck_assert_ptr_eq(address, symbol);
  ck_assert_int_eq(cuemu_rt_get_symbol_size(&size, symbol, sizeof symbol),
                   cudaSuccess);
  ck_assert_uint_eq(size, sizeof symbol);
}
END_TEST

Suite *make_runtime_launch_suite(void) {
  Suite *s = suite_create("runtime_launch");
  TCase *streams = test_tcase(s, "streams", 30);
  tcase_add_test(streams, stream_life);
  tcase_add_test(streams, stream_flags_and_priorities);
  tcase_add_test(streams, host_functions_and_callbacks);

  TCase *events = test_tcase(s, "events", 30);
  tcase_add_test(events, event_timing);
  tcase_add_test(events, event_errors);
  tcase_add_test(events, handles_are_reused_and_stale_ones_refused);

  TCase *launches = test_tcase(s, "launches", 120);
  tcase_add_unchecked_fixture(launches, runtime_program_setup, NULL);
  tcase_add_test(launches, launch_runs_the_kernel);
  tcase_add_test(launches, stack_exhaustion_fails_the_launch_and_the_sync);
  tcase_add_test(launches, launch_errors);
  tcase_add_test(launches, environment_changes_take_effect_at_the_next_launch);
  tcase_add_test(launches, environment_is_read_as_getenv_reads_it);
  tcase_add_test(launches, launch_dynamic_shared_memory);
  tcase_add_test(launches, cooperative_launch);
  tcase_add_test(launches, launch_bounds_are_enforced);
  tcase_add_test(launches, function_attributes);
  tcase_add_test(launches, function_attributes_know_the_kernel);
  tcase_add_test(launches, occupancy);

  TCase *symbols = test_tcase(s, "symbols", 30);
  tcase_add_test(symbols, symbol_copies);
  return s;
}
