/*
 * check_parity_report.c: what cuemu-parity writes: the table, JUnit XML
 * (well formed, escaped, one testcase per case with its failure), results
 * passed between processes, and sharding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parity/cuemu_parity_report.h"
#include "check_parity_suites.h"
#include "cuemu_test_util.h"

/* Everything a FILE received, as a string (caller frees). */
static char *contents(FILE *f) {
  long n = ftell(f);
  rewind(f);
  char *s = calloc(1, (size_t)n + 1);
  ck_assert_int_eq(fread(s, 1, (size_t)n, f), n);
  return s;
}

static void two_rows(cuemu__prow rows[2]) {
  memset(rows, 0, 2 * sizeof *rows);
  rows[0].name = "saxpy";
  rows[0].file = "examples/saxpy/saxpy.parity.yaml";
  rows[0].result.status = CUEMU_SUCCESS;
  rows[0].result.legs[CUEMU_PARITY_LEG_HOST] = CUEMU_PARITY_PASS;
  rows[0].result.legs[CUEMU_PARITY_LEG_EMULATED] = CUEMU_PARITY_PASS;
  rows[0].result.legs[CUEMU_PARITY_LEG_GPU] = CUEMU_PARITY_SKIP;
  rows[0].result.message = "gpu: skipped: no CUDA device\n";
  rows[0].result.seconds = 0.25;
  rows[1].name = "bad<&>";
  rows[1].file = "t/\"q\".parity.yaml";
  rows[1].result.status = CUEMU_MISMATCH;
  rows[1].result.legs[CUEMU_PARITY_LEG_HOST] = CUEMU_PARITY_PASS;
  rows[1].result.legs[CUEMU_PARITY_LEG_EMULATED] = CUEMU_PARITY_FAIL;
  rows[1].result.max_ulps = 3;
  rows[1].result.compared = 1;
  rows[1].result.message = "emulated (forward): output y differs from the host:\n  y[3]: got 1 < 2\n";
}

START_TEST(test_junit) {
  cuemu__prow rows[2];
  two_rows(rows);
  FILE *f = tmpfile();
  ck_assert_int_eq(cuemu__parity_junit_write(f, rows, 2), 0);
  char *x = contents(f);
  fclose(f);
  TEST_ASSERT_CONTAINS(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
  TEST_ASSERT_CONTAINS(x, "<testsuite name=\"cuemu-parity\" tests=\"2\" failures=\"1\"");
  TEST_ASSERT_CONTAINS(x, "<testcase classname=\"examples/saxpy/saxpy.parity.yaml\" name=\"saxpy\" time=\"0.250\">");
  TEST_ASSERT_CONTAINS(x, "<property name=\"gpu\" value=\"skip\"/>");
  TEST_ASSERT_CONTAINS(x, "<system-out>gpu: skipped: no CUDA device");
  TEST_ASSERT_CONTAINS(x, "name=\"bad&lt;&amp;&gt;\"");
  TEST_ASSERT_CONTAINS(x, "classname=\"t/&quot;q&quot;.parity.yaml\"");
  TEST_ASSERT_CONTAINS(x, "<failure type=\"MISMATCH\" message=\"emulated (forward): output y differs from the host:\">");
  TEST_ASSERT_CONTAINS(x, "y[3]: got 1 &lt; 2");
  TEST_ASSERT_CONTAINS(x, "</testsuites>");
  /* Every element opened is closed. */
  ck_assert_ptr_null(strstr(x, "<bad"));
  int open = 0, close = 0;
  for (const char *p = x; (p = strstr(p, "<testcase ")); ++p)
    open++;
  for (const char *p = x; (p = strstr(p, "</testcase>")); ++p)
    close++;
  ck_assert_int_eq(open, 2);
  ck_assert_int_eq(close, 2);
  free(x);
}
END_TEST

/* Bytes that are not UTF-8 (a Latin-1 compiler message) and control
 * characters never make the XML invalid, and no character is cut. */
START_TEST(test_junit_bytes) {
  cuemu__prow row;
  memset(&row, 0, sizeof row);
  row.name = "latin";
  row.file = "l.parity.yaml";
  row.result.status = CUEMU_HOST_COMPILE;
  char message[1200];
  memset(message, 'a', sizeof message);
  memcpy(message, "caf\xe9 \x01 ", 8);
  for (int i = 8; i + 2 < 1100; i += 2)
    memcpy(message + i, "\xc3\xa9", 2); /* é, so that the cut falls inside */
  message[1100] = 0;
  row.result.message = message;
  FILE *f = tmpfile();
  ck_assert_int_eq(cuemu__parity_junit_write(f, &row, 1), 0);
  char *x = contents(f);
  fclose(f);
  TEST_ASSERT_CONTAINS(x, "caf? ");
  ck_assert_ptr_null(strchr(x, '\x01'));
  for (const unsigned char *p = (const unsigned char *)x; *p; ++p) {
    int n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : 0;
    ck_assert_msg(n, "a byte 0x%x that is not UTF-8 at offset %ld", *p,
                  (long)((const char *)p - x));
    if (n == 2) {
      ck_assert((p[1] & 0xc0) == 0x80);
      ++p;
    }
  }
  free(x);
}
END_TEST

START_TEST(test_table) {
  cuemu__prow rows[2];
  two_rows(rows);
  FILE *f = tmpfile();
  cuemu__parity_table_write(f, rows, 2);
  char *t = contents(f);
  fclose(f);
  TEST_ASSERT_CONTAINS(t, "case");
  TEST_ASSERT_CONTAINS(t, "max error");
  TEST_ASSERT_CONTAINS(t, "saxpy   pass  pass      -      skip");
  TEST_ASSERT_CONTAINS(t, "3 ulp");
  TEST_ASSERT_CONTAINS(t, "==== bad<&> (t/\"q\".parity.yaml): MISMATCH");
  TEST_ASSERT_CONTAINS(t, "In every passing case: gpu: skipped: no CUDA device");
  TEST_ASSERT_CONTAINS(t, "2 cases: 1 passed, 1 failed");
  free(t);
}
END_TEST

START_TEST(test_result_round_trip) {
  cuemu__prow rows[2];
  two_rows(rows);
  FILE *f = tmpfile();
  ck_assert_int_eq(cuemu__parity_result_write(f, &rows[1].result), 0);
  rewind(f);
  cuemu_parity_result r;
  ck_assert_int_eq(cuemu__parity_result_read(f, &r), 0);
  fclose(f);
  ck_assert_int_eq(r.status, CUEMU_MISMATCH);
  ck_assert_int_eq(r.legs[CUEMU_PARITY_LEG_EMULATED], CUEMU_PARITY_FAIL);
  ck_assert(r.max_ulps == 3);
  ck_assert_str_eq(r.message, rows[1].result.message);
  cuemu_parity_result_free(&r);
  f = tmpfile();
  fputs("garbage\n", f);
  rewind(f);
  ck_assert_int_eq(cuemu__parity_result_read(f, &r), -1);
  fclose(f);
}
END_TEST

START_TEST(test_shards) {
  int k, n;
  ck_assert_int_eq(cuemu__parity_shard_parse("2/3", &k, &n), 0);
  ck_assert(k == 2 && n == 3);
  ck_assert_int_eq(cuemu__parity_shard_parse("0/3", &k, &n), -1);
  ck_assert_int_eq(cuemu__parity_shard_parse("4/3", &k, &n), -1);
  ck_assert_int_eq(cuemu__parity_shard_parse("1/", &k, &n), -1);
  ck_assert_int_eq(cuemu__parity_shard_parse("1/2x", &k, &n), -1);
  /* Every case is in exactly one shard, and the shards are balanced. */
  for (int shards = 1; shards <= 5; ++shards) {
    int count[6] = {0};
    for (int i = 0; i < 23; ++i) {
      int in = 0;
      for (int s = 1; s <= shards; ++s)
        if (cuemu__parity_in_shard(i, s, shards)) {
          in++;
          count[s]++;
        }
      ck_assert_int_eq(in, 1);
    }
    for (int s = 1; s <= shards; ++s)
      ck_assert(count[s] >= 23 / shards && count[s] <= 23 / shards + 1);
  }
}
END_TEST

Suite *make_parity_report_suite(void) {
  Suite *s = suite_create("parity_report");
  TCase *tc = test_tcase(s, "report", 30);
  tcase_add_test(tc, test_junit);
  tcase_add_test(tc, test_junit_bytes);
  tcase_add_test(tc, test_table);
  tcase_add_test(tc, test_result_round_trip);
  tcase_add_test(tc, test_shards);
  return s;
}
