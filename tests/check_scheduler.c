/* check_scheduler.c: being written. */
#include "check_suites.h"

Suite *make_scheduler_suite(void) { return suite_create("scheduler"); }
