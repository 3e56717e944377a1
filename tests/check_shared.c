/* check_shared.c: being written. */
#include "check_suites.h"

Suite *make_shared_suite(void) { return suite_create("shared"); }
