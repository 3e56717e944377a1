/* check_launch.c: being written. */
#include "check_suites.h"

Suite *make_launch_suite(void) { return suite_create("launch"); }
