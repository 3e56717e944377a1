/*
 * check_checkers.c: the checkers through the C API (issue 7): checked
 * modules, cuemu_alloc_register(), CUEMU_CHECK choosing among the checkers
 * built in, and the compile options. The buggy programs of tests/buggy/ and
 * the zero-report runs are tests/checkers.sh and tests/checkers_clean.sh.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

#define MODULE_SOURCE "tests/buggy/modules/checked_module.cu"

/* Builds the test module with `checks` (NULL: none) with compiler `cxx`
 * (NULL: the default) and loads it. */
static cuemu_module *checked_module(const char *checks, const char *cxx) {
  /* What is built is this test's choice, whatever tests/checkers_suites.sh
   * asks of the other suites. */
  test_setenv("CUEMU_CC_CHECK", NULL);
  char *source = test_src_path(MODULE_SOURCE);
  char name[128];
  snprintf(name, sizeof name, "checked_module.%s.%s.%ld.so",
           checks ? checks : "none", cxx ? "other" : "default",
           (long)getpid());
  char *output = test_tmp_path(name);
  cuemu_compile_options opt;
  memset(&opt, 0, sizeof opt);
  opt.module = 1;
  opt.checks = checks;
  opt.cxx = cxx;
  cuemu_status st = cuemu_compile(source, output, &opt, NULL);
  ck_assert_msg(st == CUEMU_SUCCESS, "compiling %s: %s", source,
                cuemu_last_message());
  cuemu_module *m = NULL;
  st = cuemu_module_load(&m, output);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s", cuemu_last_message());
  /* Deleted while loaded, as the other suites do: the checkers must still
   * find the module's symbols and lines. */
  unlink(output);
  free(source);
  free(output);
  return m;
}

/* The line of the source marked "@mark". */
static int marked_line(const char *mark) {
  char tag[64];
  snprintf(tag, sizeof tag, "// @%s\n", mark);
  return test_marker_line(MODULE_SOURCE, tag);
}

/* Asserts that the last message names checked_module.cu at `mark`'s line. */
static void assert_names_line(const char *mark) {
  char where[64];
  snprintf(where, sizeof where, "checked_module.cu:%d", marked_line(mark));
  TEST_ASSERT_CONTAINS(cuemu_last_message(), where);
}

static cuemu_status launch_shift(cuemu_module *m, float *out) {
  void *args[] = {&out};
  return test_launch1(test_kernel(m, "shift"), 1, 256, args, 1);
}

START_TEST(shared_race_is_reported_with_both_lines) {
  cuemu_module *m = checked_module("race", NULL);
  float *out = calloc(256, sizeof *out);
  ck_assert_int_eq(launch_shift(m, out), CUEMU_CHECK_REPORT);
  const char *msg = cuemu_last_message();
  TEST_ASSERT_CONTAINS(msg, "kernel shift: racecheck: ");
  TEST_ASSERT_CONTAINS(msg, "RAW");
  TEST_ASSERT_CONTAINS(msg, "shared memory tile+");
  /* A thread and its right neighbour, the writer first: which pair
   * comes first depends on how the warp's lanes are stepped (the store
   * and the load of another element are stepped in lockstep, as a GPU
   * runs them). */
  unsigned writer = 0, reader = 0;
  const char *w = strstr(msg, "write by block (0,0,0) thread (");
  const char *r = strstr(msg, "read by block (0,0,0) thread (");
  ck_assert_ptr_nonnull(w);
  ck_assert_ptr_nonnull(r);
  ck_assert_int_eq(sscanf(w, "write by block (0,0,0) thread (%u,", &writer), 1);
  ck_assert_int_eq(sscanf(r, "read by block (0,0,0) thread (%u,", &reader), 1);
  ck_assert_uint_eq(reader, writer + 1);
  assert_names_line("shift_write");
  assert_names_line("shift_read");
  /* The launch went on after the report, as compute-sanitizer's racecheck
   * lets a kernel run: every thread stored its element. */
  ck_assert(out[255] == 254.0f);
  /* The same race again: the process printed it once, but this launch
   * ends with the report too, with its message. */
  memset(out, 0, 256 * sizeof *out);
  ck_assert_int_eq(launch_shift(m, out), CUEMU_CHECK_REPORT);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "kernel shift: racecheck: ");
  assert_names_line("shift_read");
  ck_assert(out[255] == 254.0f);
  /* The C API's reports are returned, not counted for the exit status. */
  ck_assert_uint_eq(cuemu_check_reports(NULL), 0);
  free(out);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(run_time_list_picks_among_the_built_in) {
  cuemu_module *m = checked_module("all", NULL);
  float *out = calloc(256, sizeof *out);
  test_setenv("CUEMU_CHECK", "mem");
  TEST_ASSERT_LAUNCH_OK(launch_shift(m, out));
  test_setenv("CUEMU_CHECK", "none");
  TEST_ASSERT_LAUNCH_OK(launch_shift(m, out));
  test_setenv("CUEMU_CHECK", "race,mem");
  ck_assert_int_eq(launch_shift(m, out), CUEMU_CHECK_REPORT);
  test_setenv("CUEMU_CHECK", NULL);
  ck_assert_int_eq(launch_shift(m, out), CUEMU_CHECK_REPORT);
  test_setenv("CUEMU_CHECK", "race,bogus");
  ck_assert_int_eq(launch_shift(m, out), CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "bogus");
  test_setenv("CUEMU_CHECK", NULL);
  free(out);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(unchecked_module_reports_nothing) {
  cuemu_module *m = checked_module(NULL, NULL);
  float *out = calloc(256, sizeof *out);
  test_setenv("CUEMU_CHECK", "all");
  TEST_ASSERT_LAUNCH_OK(launch_shift(m, out));
  test_setenv("CUEMU_CHECK", NULL);
  /* Built with memcheck only: the race is not looked for. */
  cuemu_module *mem = checked_module("mem", NULL);
  TEST_ASSERT_LAUNCH_OK(launch_shift(mem, out));
  free(out);
  cuemu_module_unload(m);
  cuemu_module_unload(mem);
}
END_TEST

START_TEST(registered_buffer_is_named) {
  cuemu_module *m = checked_module("mem", NULL);
  int n = 100;
  float *in = calloc((size_t)n, sizeof *in);
  float *out = calloc((size_t)n, sizeof *out);
  void *args[] = {&in, &out, &n};
  /* Every buffer the kernel touches is registered: memory just past a
   * registered buffer is out of bounds unless it is another one. */
  ck_assert_int_eq(cuemu_alloc_register(in, n * sizeof *in, "input"),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_alloc_register(out, n * sizeof *out, "output"),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(test_launch1(test_kernel(m, "next_of"), 1, 128, args, 3),
                   CUEMU_CHECK_REPORT);
  const char *msg = cuemu_last_message();
  TEST_ASSERT_CONTAINS(msg, "memcheck: out-of-bounds read of 4 bytes");
  TEST_ASSERT_CONTAINS(msg, "input");
  TEST_ASSERT_CONTAINS(msg, "of 400 bytes");
  TEST_ASSERT_CONTAINS(msg, "thread (99,0,0)");
  assert_names_line("next_read");
  /* Registering it twice, or unregistering what is not registered, is an
   * error. */
  ck_assert_int_eq(cuemu_alloc_register(in, 4, "again"), CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_alloc_unregister(in + 1), CUEMU_INVALID_VALUE);
  /* Once unregistered, the memory past it is no one's: no report. */
  ck_assert_int_eq(cuemu_alloc_unregister(in), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_alloc_unregister(out), CUEMU_SUCCESS);
  int inside = n - 1;
  void *args2[] = {&in, &out, &inside};
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "next_of"), 1, 128, args2, 3));
  free(in);
  free(out);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(registered_mapping_bounds_accesses_far_past_a_buffer) {
  cuemu_module *m = checked_module("mem", NULL);
  size_t words = 1024;
  float *map = calloc(words, sizeof *map);
  float *out = calloc(1, sizeof *out);
  ck_assert_int_eq(cuemu_alloc_register(map, 16, "input"), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_alloc_register(out, sizeof *out, "output"),
                   CUEMU_SUCCESS);
  /* next_of reads far[1], 1204 bytes past the 16-byte buffer: past the
   * 256 bytes next to it, host memory memcheck does not know. */
  const float *far = map + 300;
  int n = 1;
  void *args[] = {&far, &out, &n};
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "next_of"), 1, 1, args, 3));
  /* The mapping must hold the registered buffer. */
  ck_assert_int_eq(
      cuemu_alloc_register_mapping(map + 1, map, words * sizeof *map),
      CUEMU_INVALID_VALUE);
  ck_assert_int_eq(
      cuemu_alloc_register_mapping(map, map + 1, words * sizeof *map),
      CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_alloc_register_mapping(map, map, 8),
                   CUEMU_INVALID_VALUE);
  /* Once the buffer's owner says the mapping holds nothing else, the read
   * is out of the buffer's bounds, however far from it. */
  ck_assert_int_eq(
      cuemu_alloc_register_mapping(map, map, words * sizeof *map),
      CUEMU_SUCCESS);
  ck_assert_int_eq(test_launch1(test_kernel(m, "next_of"), 1, 1, args, 3),
                   CUEMU_CHECK_REPORT);
  const char *msg = cuemu_last_message();
  TEST_ASSERT_CONTAINS(msg, "memcheck: out-of-bounds read of 4 bytes");
  TEST_ASSERT_CONTAINS(msg, "input");
  /* The mapping is forgotten with the registration. */
  ck_assert_int_eq(cuemu_alloc_unregister(map), CUEMU_SUCCESS);
  TEST_ASSERT_LAUNCH_OK(
      test_launch1(test_kernel(m, "next_of"), 1, 1, args, 3));
  ck_assert_int_eq(cuemu_alloc_unregister(out), CUEMU_SUCCESS);
  free(map);
  free(out);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(correct_kernel_on_registered_buffer_is_clean) {
  cuemu_module *m = checked_module("all", NULL);
  int n = 1000;
  float *buf = malloc((size_t)n * sizeof *buf);
  for (int i = 0; i < n; ++i)
    buf[i] = (float)i;
  ck_assert_int_eq(cuemu_alloc_register(buf, n * sizeof *buf, "buf"),
                   CUEMU_SUCCESS);
  void *args[] = {&buf, &n};
  cuemu_dim3 grid = {4, 1, 1}, block = {256, 1, 1};
  TEST_ASSERT_LAUNCH_OK(cuemu_kernel_launch(test_kernel(m, "twice"), grid,
                                            block, 0, NULL, args, 2));
  for (int i = 0; i < n; ++i)
    ck_assert(buf[i] == 2.0f * (float)i);
  ck_assert_int_eq(cuemu_alloc_unregister(buf), CUEMU_SUCCESS);
  free(buf);
  cuemu_module_unload(m);
}
END_TEST

START_TEST(compile_options) {
  test_setenv("CUEMU_CC_CHECK", NULL);
  char *source = test_src_path(MODULE_SOURCE);
  char *output = test_tmp_path("checked_module.options.so");
  cuemu_compile_options opt;
  memset(&opt, 0, sizeof opt);
  opt.module = 1;
  opt.checks = "race,memory";
  ck_assert_int_eq(cuemu_compile(source, output, &opt, NULL),
                   CUEMU_INVALID_VALUE);
  TEST_ASSERT_CONTAINS(cuemu_last_message(), "memory");
  /* The checkers are part of the cache key (a cache of this test's own). */
  char cache[64];
  snprintf(cache, sizeof cache, "checkers-cache.%ld", (long)getpid());
  char *cache_dir = test_tmp_path(cache);
  test_setenv("CUEMU_CACHE_DIR", cache_dir);
  int hit = 1;
  opt.checks = "race";
  ck_assert_int_eq(cuemu_compile(source, output, &opt, &hit), CUEMU_SUCCESS);
  ck_assert_int_eq(cuemu_compile(source, output, &opt, &hit), CUEMU_SUCCESS);
  ck_assert_int_eq(hit, 1);
  opt.checks = "init";
  ck_assert_int_eq(cuemu_compile(source, output, &opt, &hit), CUEMU_SUCCESS);
  ck_assert_int_eq(hit, 0);
  opt.checks = NULL;
  ck_assert_int_eq(cuemu_compile(source, output, &opt, &hit), CUEMU_SUCCESS);
  ck_assert_int_eq(hit, 0);
  unlink(output);
  char rm[256];
  snprintf(rm, sizeof rm, "rm -rf '%s'", cache_dir);
  ck_assert_int_eq(system(rm), 0);
  free(cache_dir);
  free(source);
  free(output);
}
END_TEST

START_TEST(clangxx_builds_checked_modules) {
  const char *clangxx = test_tool("CLANGXX");
  if (!clangxx)
    return;
  cuemu_module *m = checked_module("race", clangxx);
  float *out = calloc(256, sizeof *out);
  ck_assert_int_eq(launch_shift(m, out), CUEMU_CHECK_REPORT);
  assert_names_line("shift_write");
  assert_names_line("shift_read");
  free(out);
  cuemu_module_unload(m);
}
END_TEST

/* The floating-point atomic adds of perturbed launches
 * (cuemu_atomic_fadd_exact, emulator/check/cuemu_check_fadd.c), called
 * here directly: each address keeps the exact sum and memory holds it
 * rounded to nearest, so that the sum is the same in every order. */
static double add_double(double *p, double v) {
  double old;
  cuemu_atomic_fadd_exact(p, &v, 11, 52, &old);
  return old;
}
static void add_float(float *p, float v) {
  float old;
  cuemu_atomic_fadd_exact(p, &v, 8, 23, &old);
}
/* __half (5, 10) or __nv_bfloat16 (8, 7), by their bits. */
static void add_narrow(uint16_t *p, uint16_t v, unsigned ebits) {
  uint16_t old;
  cuemu_atomic_fadd_exact(p, &v, ebits, 15 - ebits, &old);
}

START_TEST(exact_atomic_sums_round_once) {
  double *d = calloc(8, sizeof *d);
  float *f = calloc(8, sizeof *f);
  uint16_t *h = calloc(8, sizeof *h);
  ck_assert_ptr_nonnull(d);
  ck_assert_ptr_nonnull(f);
  ck_assert_ptr_nonnull(h);
  /* 1e16 + 1 + 1 - 1e16: 0 when each add rounds, 2 exactly. The adds
   * return the values they replaced, rounded partial sums. */
  d[0] = 1e16;
  ck_assert(add_double(&d[0], 1.0) == 1e16);
  ck_assert(d[0] == 1e16);
  ck_assert(add_double(&d[0], 1.0) == 1e16);
  ck_assert(d[0] == 1e16 + 2.0);
  add_double(&d[0], -1e16);
  ck_assert(d[0] == 2.0);
  /* The same in float: 1 + 2^-24 + 2^-24 is 1 + 2^-23. */
  f[0] = 1.0f;
  add_float(&f[0], 0x1p-24f);
  ck_assert(f[0] == 1.0f);
  add_float(&f[0], 0x1p-24f);
  ck_assert(f[0] == 1.0f + 0x1p-23f);
  /* A negative sum, and subnormals. */
  for (int i = 0; i < 3; ++i)
    add_double(&d[1], 4.9406564584124654e-324);
  add_double(&d[1], -2.5);
  ck_assert(d[1] == -2.5);
  add_double(&d[1], 2.5);
  ck_assert(d[1] == 3 * 4.9406564584124654e-324);
  add_float(&f[1], -FLT_MIN / 4);
  add_float(&f[1], -FLT_MIN);
  ck_assert(f[1] == -1.25f * FLT_MIN);
  /* Ties to even, and past the largest float. */
  d[2] = 1.0;
  add_double(&d[2], 0x1p-53);
  ck_assert(d[2] == 1.0);
  add_double(&d[2], 0x1p-80);
  ck_assert(d[2] == 1.0 + 0x1p-52);
  add_float(&f[2], 3e38f);
  add_float(&f[2], 3e38f);
  ck_assert(isinf(f[2]) && f[2] > 0);
  /* Infinities and NaNs add as IEEE adds. */
  add_float(&f[3], INFINITY);
  add_float(&f[3], 1.0f);
  ck_assert(isinf(f[3]) && f[3] > 0);
  add_float(&f[3], -INFINITY);
  ck_assert(isnan(f[3]));
  /* A store between two adds starts a new sum from the stored value. */
  d[3] = 1e16;
  add_double(&d[3], 1.0);
  d[3] = 5.0;
  add_double(&d[3], 1.0);
  ck_assert(d[3] == 6.0);
  /* Many terms in two orders leave the same bits. */
  double terms[200];
  for (int i = 0; i < 200; ++i)
    terms[i] = ldexp((i % 7) - 3.0 + 1.0 / (i + 1), (i * 37) % 90 - 45);
  for (int i = 0; i < 200; ++i) {
    add_double(&d[4], terms[i]);
    add_double(&d[5], terms[199 - i]);
    add_float(&f[4], (float)terms[i]);
    add_float(&f[5], (float)terms[199 - i]);
  }
  ck_assert(memcmp(&d[4], &d[5], sizeof *d) == 0);
  ck_assert(memcmp(&f[4], &f[5], sizeof *f) == 0);
  /* __half: 1 + 2^-11 + 2^-11 is 1 + 2^-10; subnormals; 65504 + 65504
   * is an infinity; -1 + 2^-24 rounds to -1. */
  h[0] = 0x3C00;
  add_narrow(&h[0], 0x1000, 5);
  ck_assert_uint_eq(h[0], 0x3C00);
  add_narrow(&h[0], 0x1000, 5);
  ck_assert_uint_eq(h[0], 0x3C01);
  add_narrow(&h[1], 0x0001, 5);
  add_narrow(&h[1], 0x0001, 5);
  ck_assert_uint_eq(h[1], 0x0002);
  add_narrow(&h[1], 0xBC00, 5);
  ck_assert_uint_eq(h[1], 0xBC00);
  h[2] = 0x7BFF;
  add_narrow(&h[2], 0x7BFF, 5);
  ck_assert_uint_eq(h[2], 0x7C00);
  /* __nv_bfloat16: 1 + 2^-8 + 2^-8 is 1 + 2^-7. */
  h[3] = 0x3F80;
  add_narrow(&h[3], 0x3B80, 8);
  ck_assert_uint_eq(h[3], 0x3F80);
  add_narrow(&h[3], 0x3B80, 8);
  ck_assert_uint_eq(h[3], 0x3F81);
  free(d);
  free(f);
  free(h);
}
END_TEST

Suite *make_checkers_suite(void) {
  Suite *s = suite_create("checkers");
  TCase *tc = test_tcase(s, "modules", 120);
  tcase_add_test(tc, shared_race_is_reported_with_both_lines);
  tcase_add_test(tc, run_time_list_picks_among_the_built_in);
  tcase_add_test(tc, unchecked_module_reports_nothing);
  tcase_add_test(tc, registered_buffer_is_named);
  tcase_add_test(tc, registered_mapping_bounds_accesses_far_past_a_buffer);
  tcase_add_test(tc, correct_kernel_on_registered_buffer_is_clean);
  tcase_add_test(tc, compile_options);
  tcase_add_test(tc, clangxx_builds_checked_modules);
  tcase_add_test(tc, exact_atomic_sums_round_once);
  return s;
}
