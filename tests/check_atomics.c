/* check_atomics.c: being written. */
#include "check_suites.h"

Suite *make_atomics_suite(void) { return suite_create("atomics"); }
