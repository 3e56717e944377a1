/*
 * check_status.c: the status table: every status has a name and a
 * description, and unknown values are handled.
 */
#include <string.h>

#include <cuemu/cuemu.h>

#include "check_suites.h"

START_TEST(every_status_has_a_name_and_text) {
  for (int s = 0; s < CUEMU_STATUS_COUNT_; ++s) {
    ck_assert_str_ne(cuemu_status_name((cuemu_status)s), "UNKNOWN");
    ck_assert_str_ne(cuemu_strerror((cuemu_status)s), "unknown status");
    ck_assert_int_gt(strlen(cuemu_strerror((cuemu_status)s)), 0);
  }
  ck_assert_str_eq(cuemu_status_name(CUEMU_SUCCESS), "SUCCESS");
  ck_assert_int_eq(CUEMU_SUCCESS, 0);
  ck_assert_str_eq(cuemu_status_name(CUEMU_DEADLOCK), "DEADLOCK");
}
END_TEST

START_TEST(unknown_status) {
  ck_assert_str_eq(cuemu_status_name((cuemu_status)9999), "UNKNOWN");
  ck_assert_str_eq(cuemu_strerror((cuemu_status)-1), "unknown status");
}
END_TEST

START_TEST(messages_are_per_call) {
  cuemu_module *m = NULL;
  ck_assert_int_eq(cuemu_module_load(&m, "/nonexistent/module.so"),
                   CUEMU_MODULE_LOAD);
  ck_assert_ptr_null(m);
  ck_assert_ptr_nonnull(strstr(cuemu_last_message(), "/nonexistent/module.so"));
  ck_assert_int_eq(cuemu_module_load(NULL, "x"), CUEMU_INVALID_VALUE);
}
END_TEST

Suite *make_status_suite(void) {
  Suite *s = suite_create("status");
  TCase *tc = tcase_create("table");
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, every_status_has_a_name_and_text);
  tcase_add_test(tc, unknown_status);
  tcase_add_test(tc, messages_are_per_call);
  suite_add_tcase(s, tc);
  return s;
}
