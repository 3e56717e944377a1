/* check_warp.c: being written. */
#include "check_suites.h"

Suite *make_warp_suite(void) { return suite_create("warp"); }
