/*
 * check_suites.h: every Check suite of tests/check_cuemu, one per area.
 * Add a suite here and in the list in check_main.c.
 */
#ifndef CUEMU_CHECK_SUITES_H
#define CUEMU_CHECK_SUITES_H

#include <check.h>

Suite *make_atomics_suite(void);
Suite *make_checkers_suite(void);
Suite *make_compile_suite(void);
Suite *make_device_code_suite(void);
Suite *make_faults_suite(void);
Suite *make_graph_suite(void);
Suite *make_grid_suite(void);
Suite *make_groups_suite(void);
Suite *make_launch_suite(void);
Suite *make_ptx_suite(void);
Suite *make_cccl_suite(void);
Suite *make_rewrite_suite(void);
Suite *make_runtime_suite(void);
Suite *make_runtime_launch_suite(void);
Suite *make_scheduler_suite(void);
Suite *make_selftest_suite(void);
Suite *make_shared_suite(void);
Suite *make_status_suite(void);
Suite *make_warp_suite(void);

#endif
