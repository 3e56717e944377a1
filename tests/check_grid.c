/*
 * check_grid.c: cooperative launches and grid.sync() (cooperative groups'
 * grid group): rounds of cross-block communication, the grid's shape, the
 * residency cap, grid.sync() in a normal launch, and blocks that finish
 * early.
 */
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

START_TEST(grid_sync_orders_every_block) {
  cuemu_module *m = test_module("grid_sync.cu");
  cuemu_kernel *k = test_kernel(m, "grid_rounds");
  const unsigned nb = 12;
  int rounds = 4;
  int *published = calloc(nb, sizeof *published);
  int *sums = calloc(nb * (unsigned)rounds, sizeof *sums);
  void *args[] = {&published, &sums, &rounds};
  ck_assert_int_eq(cuemu_kernel_launch_cooperative(k, test_dim(nb, 1, 1),
                                                   test_dim(96, 1, 1), 0,
                                                   NULL, args, 3),
                   CUEMU_SUCCESS);
  for (int r = 0; r < rounds; ++r)
    for (unsigned b = 0; b < nb; ++b)
      ck_assert_int_eq(sums[r * (int)nb + (int)b],
                       (int)(10 * nb * (nb - 1) / 2 + nb * (unsigned)r));
  free(published);
  free(sums);
}
END_TEST

START_TEST(grid_shape_in_2d) {
  cuemu_module *m = test_module("grid_sync.cu");
  cuemu_kernel *k = test_kernel(m, "grid_shape");
  unsigned long long *out = calloc(3 * 2 * 64, sizeof *out);
  void *args[] = {&out};
  ck_assert_int_eq(cuemu_kernel_launch_cooperative(k, test_dim(3, 2, 1),
                                                   test_dim(8, 8, 1), 0, NULL,
                                                   args, 1),
                   CUEMU_SUCCESS);
  for (int i = 0; i < 3 * 2 * 64; ++i)
    ck_assert_uint_eq(out[i], 3 * 2 * 64);
  /* Outside a cooperative launch the group is not valid. */
  memset(out, 0xff, 3 * 2 * 64 * sizeof *out);
  ck_assert_int_eq(cuemu_kernel_launch(k, test_dim(3, 2, 1),
                                       test_dim(8, 8, 1), 0, NULL, args, 1),
                   CUEMU_SUCCESS);
  for (int i = 0; i < 3 * 2 * 64; ++i)
    ck_assert_uint_eq(out[i], 0);
  free(out);
}
END_TEST

START_TEST(grid_sync_needs_a_cooperative_launch) {
  cuemu_module *m = test_module("grid_sync.cu");
  cuemu_kernel *k = test_kernel(m, "grid_rounds");
  int rounds = 1, published[4] = {0}, sums[4] = {0};
  int *pp = published, *ps = sums;
  void *args[] = {&pp, &ps, &rounds};
  ck_assert_int_eq(test_launch1(k, 4, 32, args, 3), CUEMU_GRID_SYNC);
  const char *msg = cuemu_last_message();
  ck_assert_ptr_nonnull(strstr(msg, "grid_rounds"));
  ck_assert_ptr_nonnull(strstr(msg, "grid_sync.cu:"));
  ck_assert_ptr_nonnull(strstr(msg, "cooperative"));
}
END_TEST

START_TEST(cooperative_grid_is_capped) {
  cuemu_module *m = test_module("grid_sync.cu");
  cuemu_kernel *k = test_kernel(m, "early_blocks");
  test_setenv("CUEMU_SM_COUNT", "2");
  unsigned most = 0;
  ck_assert_int_eq(cuemu_kernel_max_cooperative_blocks(k, test_dim(256, 1, 1),
                                                       0, &most),
                   CUEMU_SUCCESS);
  ck_assert_uint_eq(most, 2 * 8); /* 2048 threads per SM / 256 */
  ck_assert_int_eq(cuemu_kernel_max_cooperative_blocks(k, test_dim(1024, 1, 1),
                                                       0, &most),
                   CUEMU_SUCCESS);
  ck_assert_uint_eq(most, 2 * 2);
  ck_assert_int_eq(cuemu_kernel_max_cooperative_blocks(k, test_dim(32, 1, 1),
                                                       100 * 1024, &most),
                   CUEMU_SUCCESS);
  ck_assert_uint_eq(most, 2 * 2); /* 228 KiB of shared memory per SM */
  int out[64] = {0};
  int *po = out;
  void *args[] = {&po};
  ck_assert_int_eq(cuemu_kernel_launch_cooperative(k, test_dim(17, 1, 1),
                                                   test_dim(256, 1, 1), 0,
                                                   NULL, args, 1),
                   CUEMU_COOPERATIVE_TOO_LARGE);
  ck_assert_ptr_nonnull(strstr(cuemu_last_message(), "16"));
  ck_assert_int_eq(out[0], 0);
}
END_TEST

START_TEST(blocks_that_finish_count_as_arrived) {
  cuemu_module *m = test_module("grid_sync.cu");
  cuemu_kernel *k = test_kernel(m, "early_blocks");
  int out[8] = {0};
  int *po = out;
  void *args[] = {&po};
  ck_assert_int_eq(cuemu_kernel_launch_cooperative(k, test_dim(8, 1, 1),
                                                   test_dim(64, 1, 1), 0,
                                                   NULL, args, 1),
                   CUEMU_SUCCESS);
  for (int b = 0; b < 8; ++b)
    ck_assert_int_eq(out[b], b % 2 == 0);
}
END_TEST

Suite *make_grid_suite(void) {
  Suite *s = suite_create("grid");
  TCase *tc = test_tcase(s, "cooperative", 60);
  tcase_add_test(tc, grid_sync_orders_every_block);
  tcase_add_test(tc, grid_shape_in_2d);
  tcase_add_test(tc, grid_sync_needs_a_cooperative_launch);
  tcase_add_test(tc, cooperative_grid_is_capped);
  tcase_add_test(tc, blocks_that_finish_count_as_arrived);
  return s;
}
