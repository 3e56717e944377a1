/*
 * check_shared.c: shared memory. Static and dynamic shared memory are per
 * block even when blocks run at the same time on several workers; every
 * extern __shared__ array aliases the one dynamic buffer; dynamic sizes from
 * 0 to the 227 KiB opt-in limit work; tree reductions give exact sums.
 */
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

#define NBLOCKS 64u

static void launch_ok(cuemu_kernel *k, cuemu_dim3 grid, cuemu_dim3 block,
                      size_t shmem, void **args, int nargs) {
  cuemu_status st = cuemu_kernel_launch(k, grid, block, shmem, NULL, args,
                                        nargs);
  if (st != CUEMU_SUCCESS)
    ck_abort_msg("launch of %s failed: %s: %s", cuemu_kernel_name(k),
                 cuemu_status_name(st), cuemu_last_message());
}

/* Runs one of the isolation kernels with two workers and checks that every
 * block made all its comparisons and saw only its own values. */
static void check_isolation(const char *kernel, size_t shmem) {
  test_setenv("CUEMU_WORKERS", "2");
  cuemu_module *m = test_module("shared_isolation.cu");
  cuemu_kernel *k = test_kernel(m, kernel);
  unsigned mismatches[NBLOCKS], checks[NBLOCKS];
  memset(mismatches, 0, sizeof mismatches);
  memset(checks, 0, sizeof checks);
  unsigned *pm = mismatches, *pc = checks;
  int rounds = 8;
  void *args[] = {&pm, &pc, &rounds};
  launch_ok(k, test_dim(NBLOCKS, 1, 1), test_dim(256, 1, 1), shmem, args, 3);
  for (unsigned b = 0; b < NBLOCKS; ++b) {
    ck_assert_msg(mismatches[b] == 0,
                  "%s: block %u saw %u values of another block", kernel, b,
                  mismatches[b]);
    ck_assert_uint_eq(checks[b], 256u * 8u);
  }
  cuemu_module_unload(m);
}

START_TEST(static_shared_is_per_block) {
  check_isolation("static_shared_isolation", 0);
}
END_TEST

START_TEST(dynamic_shared_is_per_block) {
  check_isolation("dynamic_shared_isolation", 256 * sizeof(unsigned));
}
END_TEST

START_TEST(extern_shared_arrays_alias) {
  cuemu_module *m = test_module("shared_alias.cu");
  cuemu_kernel *k = test_kernel(m, "shared_alias");
  enum { N = 128 };
  int out[8 + 2 * N];
  memset(out, 0, sizeof out);
  int *po = out;
  void *args[] = {&po};
  launch_ok(k, test_dim(1, 1, 1), test_dim(N, 1, 1), N * sizeof(float), args,
            1);
  ck_assert_msg(out[0], "float and int extern __shared__ views differ");
  ck_assert_msg(out[1], "float and byte extern __shared__ views differ");
  ck_assert_msg(out[2], "the namespace-scope view differs");
  ck_assert_msg(out[3], "the view inside a namespace differs");
  ck_assert_msg(out[4], "the dynamic buffer is not aligned to 16 bytes");
  ck_assert_int_eq(out[5], 1);
  for (int t = 0; t < N; ++t) {
    ck_assert_msg(out[8 + 2 * t] == 1,
                  "thread %d: the int view does not see the float bits", t);
    ck_assert_msg(out[8 + 2 * t + 1] == 1,
                  "thread %d: the namespace-scope views do not alias", t);
  }
  cuemu_module_unload(m);
}
END_TEST

START_TEST(extern_shared_2d_tile) {
  cuemu_module *m = test_module("shared_alias.cu");
  cuemu_kernel *k = test_kernel(m, "shared_tile");
  float *out = calloc(1025, sizeof *out);
  ck_assert_ptr_nonnull(out);
  void *args[] = {&out};
  launch_ok(k, test_dim(1, 1, 1), test_dim(32, 32, 1),
            32 * 33 * sizeof(float), args, 1);
  for (unsigned y = 0; y < 32; ++y)
    for (unsigned x = 0; x < 32; ++x)
      ck_assert_msg(out[y * 32 + x] == (float)(x * 100 + y),
                    "tile[%u][%u] read %g, expected %u", x, y,
                    (double)out[y * 32 + x], x * 100 + y);
  ck_assert_msg(out[1024] == 1.0f, "tile[1] is not 33 floats after tile[0]");
  free(out);
  cuemu_module_unload(m);
}
END_TEST

/* Fills and checks `bytes` of dynamic shared memory in 8 blocks. */
static void fill(cuemu_kernel *k, unsigned bytes) {
  enum { B = 8 };
  unsigned mismatches[B] = {0}, checks[B] = {0};
  unsigned *pm = mismatches, *pc = checks;
  void *args[] = {&pm, &pc, &bytes};
  launch_ok(k, test_dim(B, 1, 1), test_dim(128, 1, 1), bytes, args, 3);
  for (unsigned b = 0; b < B; ++b) {
    ck_assert_msg(mismatches[b] == 0, "%u bytes: block %u: %u bad bytes",
                  bytes, b, mismatches[b]);
    ck_assert_uint_eq(checks[b], bytes);
  }
}

START_TEST(dynamic_shared_sizes) {
  test_setenv("CUEMU_WORKERS", "2");
  cuemu_module *m = test_module("shared_isolation.cu");
  cuemu_kernel *k = test_kernel(m, "dynamic_shared_fill");
  fill(k, 0);
  fill(k, 1024);
  fill(k, 48 * 1024);
  fill(k, 1000); /* smaller again after a larger one */

  /* Past the default limit: refused until the limit is raised. */
  unsigned bytes = 227 * 1024;
  unsigned zero[8] = {0};
  unsigned *pz = zero;
  void *args[] = {&pz, &pz, &bytes};
  ck_assert_int_eq(cuemu_kernel_launch(k, test_dim(8, 1, 1),
                                       test_dim(128, 1, 1), 48 * 1024 + 1,
                                       NULL, args, 3),
                   CUEMU_SHARED_MEMORY_LIMIT);
  ck_assert_int_eq(cuemu_kernel_set_max_dynamic_shared(k, 227 * 1024 + 1),
                   CUEMU_INVALID_VALUE);
  ck_assert_int_eq(cuemu_kernel_set_max_dynamic_shared(k, 227 * 1024),
                   CUEMU_SUCCESS);
  fill(k, 227 * 1024);
  fill(k, 100 * 1024 + 3);
  ck_assert_int_eq(cuemu_kernel_launch(k, test_dim(8, 1, 1),
                                       test_dim(128, 1, 1), 227 * 1024 + 1,
                                       NULL, args, 3),
                   CUEMU_SHARED_MEMORY_LIMIT);
  cuemu_module_unload(m);
}
END_TEST

/* Reduces 100,003 integers in `blocks` blocks of `threads` threads. */
static void check_reduce(const char *kernel, unsigned blocks,
                         unsigned threads, size_t shmem) {
  test_setenv("CUEMU_WORKERS", "2");
  cuemu_module *m = test_module("shared_reduce.cu");
  cuemu_kernel *k = test_kernel(m, kernel);
  int n = 100003;
  int *in = malloc((size_t)n * sizeof *in);
  long long *sums = calloc(blocks, sizeof *sums);
  long long *expected = calloc(blocks, sizeof *expected);
  ck_assert(in && sums && expected);
  unsigned seed = 12345;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    in[i] = (int)(seed >> 8) % 2001 - 1000 + (i % 7 == 0 ? 1000000 : 0);
  }
  for (int i = 0; i < n; ++i)
    expected[((unsigned)i / threads) % blocks] += in[i];
  void *args[] = {&in, &sums, &n};
  launch_ok(k, test_dim(blocks, 1, 1), test_dim(threads, 1, 1), shmem, args,
            3);
  long long total = 0, want = 0;
  for (unsigned b = 0; b < blocks; ++b) {
    ck_assert_msg(sums[b] == expected[b], "%s: block %u: sum %lld, expected %lld",
                  kernel, b, sums[b], expected[b]);
    total += sums[b];
    want += expected[b];
  }
  ck_assert_int_eq(total, want);
  free(in);
  free(sums);
  free(expected);
  cuemu_module_unload(m);
}

START_TEST(reduction_static_shared) {
  check_reduce("reduce_static", 37, 256, 0);
  check_reduce("reduce_static", 5, 1024, 0);
}
END_TEST

START_TEST(reduction_dynamic_shared) {
  check_reduce("reduce_dynamic", 37, 128, 128 * sizeof(long long));
  check_reduce("reduce_dynamic", 3, 512, 512 * sizeof(long long));
}
END_TEST

Suite *make_shared_suite(void) {
  Suite *s = suite_create("shared");
  TCase *tc = test_tcase(s, "per_block", 60);
  tcase_add_test(tc, static_shared_is_per_block);
  tcase_add_test(tc, dynamic_shared_is_per_block);
  tcase_add_test(tc, dynamic_shared_sizes);

  tc = test_tcase(s, "extern_alias", 60);
  tcase_add_test(tc, extern_shared_arrays_alias);
  tcase_add_test(tc, extern_shared_2d_tile);

  tc = test_tcase(s, "reduction", 60);
  tcase_add_test(tc, reduction_static_shared);
  tcase_add_test(tc, reduction_dynamic_shared);
  return s;
}
