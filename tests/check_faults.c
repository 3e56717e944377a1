/* check_faults.c: being written. */
#include "check_suites.h"

Suite *make_faults_suite(void) { return suite_create("faults"); }
