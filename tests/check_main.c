/*
 * check_main.c: runs every Check suite of libcuemu. Each test runs in a
 * child process with a timeout, so a deadlock or a crash is a failure, not a
 * hung or dead test run. CUEMU_TEST_SUITE=name runs one suite only.
 */
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"

typedef Suite *(*suite_fn)(void);

static const struct {
  const char *name;
  suite_fn make;
} suites[] = {
    {"status", make_status_suite},       {"rewrite", make_rewrite_suite},
    {"launch", make_launch_suite},       {"scheduler", make_scheduler_suite},
    {"shared", make_shared_suite},       {"atomics", make_atomics_suite},
    {"faults", make_faults_suite},       {"compile", make_compile_suite},
    {"selftest", make_selftest_suite},   {"warp", make_warp_suite},
    {"groups", make_groups_suite},       {"grid", make_grid_suite},
};

int main(void) {
  const char *only = getenv("CUEMU_TEST_SUITE");
  SRunner *runner = NULL;
  for (size_t i = 0; i < sizeof suites / sizeof suites[0]; ++i) {
    if (only && *only && strcmp(only, suites[i].name) != 0)
      continue;
    if (!runner)
      runner = srunner_create(suites[i].make());
    else
      srunner_add_suite(runner, suites[i].make());
  }
  if (!runner)
    return 77; /* no such suite: skipped */
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
