#include "check_suites.h"
Suite *make_ptx_suite(void) { return suite_create("ptx"); }
