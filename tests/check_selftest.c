/*
 * check_selftest.c: runs every self-checking kernel (selftest_*) of
 * tests/kernels/selftest_*.cu through the emulator, built once with g++ and
 * once with clang++, with one block of 32 threads; each kernel counts its
 * failed checks (and prints them) in *failures, which must stay 0.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

/* Runs every selftest kernel of every selftest file with compiler `cxx`. */
static void run_all(const char *cxx) {
  char *dir = test_src_path("tests/kernels");
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s", dir);
  int files = 0, kernels = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "selftest_", 9) != 0 || len < 4 ||
        strcmp(e->d_name + len - 3, ".cu") != 0)
      continue;
    files++;
    cuemu_module *m = test_module_cxx(e->d_name, cxx, NULL, 0);
    for (int i = 0; i < cuemu_module_kernel_count(m); ++i) {
      cuemu_kernel *k = cuemu_module_kernel_at(m, i);
      if (strncmp(cuemu_kernel_name(k), "selftest_", 9) != 0)
        continue;
      kernels++;
      unsigned failures = 0, *pf = &failures;
      void *args[] = {&pf};
      cuemu_status st = test_launch1(k, 1, 32, args, 1);
      ck_assert_msg(st == CUEMU_SUCCESS, "%s (%s, %s): %s",
                    cuemu_kernel_name(k), e->d_name, cxx,
                    cuemu_last_message());
      ck_assert_msg(failures == 0, "%s (%s, %s): %u failed checks",
                    cuemu_kernel_name(k), e->d_name, cxx, failures);
    }
    cuemu_module_unload(m);
  }
  closedir(d);
  free(dir);
  ck_assert_msg(files > 0 && kernels > 0,
                "no selftest kernels found under tests/kernels");
}

/* With g++, then clang++ (see test_compiler). */
START_TEST(selftests_each_compiler) {
  const char *cxx = test_compiler(_i);
  if (cxx)
    run_all(cxx);
}
END_TEST

Suite *make_selftest_suite(void) {
  Suite *s = suite_create("selftest");
  TCase *tc = test_tcase(s, "kernels", 300);
  tcase_add_loop_test(tc, selftests_each_compiler, 0, 2);
  return s;
}
