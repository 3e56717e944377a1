/*
 * check_parity_suites.h: the Check suites of the parity library, run by
 * tests/check_parity (check_parity_main.c).
 */
#ifndef CHECK_PARITY_SUITES_H
#define CHECK_PARITY_SUITES_H

#include <check.h>

Suite *make_parity_case_suite(void);
Suite *make_parity_compare_suite(void);
Suite *make_parity_report_suite(void);
Suite *make_parity_gpu_suite(void);

#endif /* CHECK_PARITY_SUITES_H */
