/* check_groups.c: being written. */
#include "check_suites.h"

Suite *make_groups_suite(void) { return suite_create("groups"); }
