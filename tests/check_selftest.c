/* check_selftest.c: being written. */
#include "check_suites.h"

Suite *make_selftest_suite(void) { return suite_create("selftest"); }
