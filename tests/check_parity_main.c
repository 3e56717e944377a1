/*
 * check_parity_main.c: runs every Check suite of the parity library, each
 * test in a child process with a timeout. CUEMU_TEST_SUITE=name runs one
 * suite only.
 */
#include <stdlib.h>
#include <string.h>

#include "check_parity_suites.h"

typedef Suite *(*suite_fn)(void);

static const struct {
  const char *name;
  suite_fn make;
} suites[] = {
    {"parity_case", make_parity_case_suite},
    {"parity_compare", make_parity_compare_suite},
    {"parity_report", make_parity_report_suite},
    {"parity_gpu", make_parity_gpu_suite},
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
