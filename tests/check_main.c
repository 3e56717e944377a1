/*
 * check_main.c: runs every Check suite of libcuemu. Each test runs in a
 * child process with a timeout, so a deadlock or a crash is a failure, not a
 * hung or dead test run. CUEMU_TEST_SUITE=name runs one suite only.
 */
#include "check_suites.h"
#include "cuemu_test_util.h"

static const test_suite suites[] = {
    {"status", make_status_suite},       {"rewrite", make_rewrite_suite},
    {"launch", make_launch_suite},       {"scheduler", make_scheduler_suite},
    {"shared", make_shared_suite},       {"atomics", make_atomics_suite},
    {"faults", make_faults_suite},       {"compile", make_compile_suite},
    {"selftest", make_selftest_suite},   {"warp", make_warp_suite},
    {"groups", make_groups_suite},       {"grid", make_grid_suite},
    {"checkers", make_checkers_suite},   {"runtime", make_runtime_suite},
    {"runtime_launch", make_runtime_launch_suite}, {"ptx", make_ptx_suite},
    {"device_code", make_device_code_suite},
    {"graph", make_graph_suite},
    {"cccl", make_cccl_suite},
};

int main(void) {
  return test_run_suites(suites, sizeof suites / sizeof suites[0]);
}
