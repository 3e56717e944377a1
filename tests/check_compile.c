/* check_compile.c: being written. */
#include "check_suites.h"

Suite *make_compile_suite(void) { return suite_create("compile"); }
