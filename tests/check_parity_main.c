/*
 * check_parity_main.c: runs every Check suite of the parity library, each
 * test in a child process with a timeout. CUEMU_TEST_SUITE=name runs one
 * suite only.
 */
#include "check_parity_suites.h"
#include "cuemu_test_util.h"

static const test_suite suites[] = {
    {"parity_case", make_parity_case_suite},
    {"parity_compare", make_parity_compare_suite},
    {"parity_report", make_parity_report_suite},
    {"parity_gpu", make_parity_gpu_suite},
};

int main(void) {
  return test_run_suites(suites, sizeof suites / sizeof suites[0]);
}
