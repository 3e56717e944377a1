/*
 * check_parity_report.c: what cuemu-parity writes: the table, JUnit XML
 * (well formed, escaped, one testcase per case with its failure), results
 * passed between processes (with their differences), the SVG pictures,
 * the HTML page, the summary line, GitHub's step summary and annotations,
 * and sharding.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parity/cuemu_parity_report.h"
#include "../parity/cuemu_parity_svg.h"
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

/* A failing row with one 2-D difference (a 4 x 6 output, a 2 x 3 map). */
static double demo_map[6] = {0, 1, 0, 250, INFINITY, 0};
static int demo_fails[6] = {0, 0, 3, 4, 1, 0};

static void add_diff(cuemu__prow *row, cuemu_parity_diff *d) {
  memset(d, 0, sizeof *d);
  snprintf(d->leg, sizeof d->leg, "emulated (forward)");
  snprintf(d->output, sizeof d->output, "y");
  snprintf(d->reference, sizeof d->reference, "host");
  d->rows = 4;
  d->cols = 6;
  d->differing = 2;
  d->max_ulps = INFINITY;
  d->nshown = 2;
  d->shown[0] = (cuemu_parity_difference){2, "", 1.5, 1.25, 250};
  d->shown[1] = (cuemu_parity_difference){20, "x", NAN, 3, INFINITY};
  d->map_rows = 2;
  d->map_cols = 3;
  d->map = demo_map;
  d->fails = demo_fails;
  row->result.diffs = d;
  row->result.ndiffs = 1;
}

/* Differences travel between processes with every number intact. */
START_TEST(test_result_diffs_round_trip) {
  cuemu__prow rows[2];
  two_rows(rows);
  cuemu_parity_diff d;
  add_diff(&rows[1], &d);
  FILE *f = tmpfile();
  ck_assert_int_eq(cuemu__parity_result_write(f, &rows[1].result), 0);
  rewind(f);
  cuemu_parity_result r;
  ck_assert_int_eq(cuemu__parity_result_read(f, &r), 0);
  fclose(f);
  ck_assert_int_eq(r.ndiffs, 1);
  cuemu_parity_diff *e = &r.diffs[0];
  ck_assert_str_eq(e->leg, "emulated (forward)");
  ck_assert_str_eq(e->output, "y");
  ck_assert_str_eq(e->reference, "host");
  ck_assert(e->rows == 4 && e->cols == 6 && e->differing == 2);
  ck_assert(isinf(e->max_ulps));
  ck_assert_int_eq(e->nshown, 2);
  ck_assert(e->shown[0].index == 2 && e->shown[0].got == 1.5 &&
            e->shown[0].want == 1.25 && e->shown[0].ulps == 250);
  ck_assert_str_eq(e->shown[0].field, "");
  ck_assert_str_eq(e->shown[1].field, "x");
  ck_assert(isnan(e->shown[1].got) && isinf(e->shown[1].ulps));
  ck_assert(e->map_rows == 2 && e->map_cols == 3);
  for (int k = 0; k < 6; ++k)
    ck_assert(e->map[k] == demo_map[k] && e->fails[k] == demo_fails[k]);
  ck_assert_str_eq(r.message, rows[1].result.message);
  cuemu_parity_result_free(&r);
  ck_assert_ptr_null(r.diffs);
  /* A truncated difference is an error, not a half-read result. */
  f = tmpfile();
  fputs("5 1 3 0 0 0 1 0x0p+0 0x0p+0 0x0p+0 1\n:emulated\n", f);
  rewind(f);
  ck_assert_int_eq(cuemu__parity_result_read(f, &r), -1);
  fclose(f);
}
END_TEST

/* Counts the occurrences of `part` in `s`. */
static int count_of(const char *s, const char *part) {
  int n = 0;
  for (const char *p = strstr(s, part); p; p = strstr(p + 1, part))
    n++;
  return n;
}

/* Cells split elements as evenly as the error map does; colours go from
 * grey (0) through yellow to dark red, black for inf. */
START_TEST(test_svg_scale) {
  ck_assert_uint_eq(cuemu__svg_cell_first(0, 10, 3), 0);
  ck_assert_uint_eq(cuemu__svg_cell_first(1, 10, 3), 4);
  ck_assert_uint_eq(cuemu__svg_cell_first(2, 10, 3), 7);
  ck_assert_uint_eq(cuemu__svg_cell_first(3, 10, 3), 10);
  /* The same split as cuemu__parity_error_map's i * cells / n. */
  for (size_t n = 1; n < 50; ++n)
    for (int cells = 1; cells <= (int)n; ++cells)
      for (size_t i = 0; i < n; ++i) {
        int k = (int)(i * (size_t)cells / n);
        ck_assert(cuemu__svg_cell_first(k, n, cells) <= i);
        ck_assert(cuemu__svg_cell_first(k + 1, n, cells) > i);
      }
  char c[8];
  cuemu__svg_color(0, 100, c);
  ck_assert_str_eq(c, "#eeeeee");
  cuemu__svg_color(INFINITY, 100, c);
  ck_assert_str_eq(c, "#000000");
  cuemu__svg_color(100, 100, c);
  ck_assert_str_eq(c, "#800026");
  char low[8];
  cuemu__svg_color(1, 100, low);
  ck_assert_str_ne(low, c);
  ck_assert_str_ne(low, "#eeeeee");
}
END_TEST

START_TEST(test_svg_pictures) {
  FILE *f = tmpfile();
  cuemu__svg_heatmap_write(f, demo_map, demo_fails, 2, 3, 4, 6);
  char *t = contents(f);
  fclose(f);
  TEST_ASSERT_CONTAINS(t, "<svg class=\"heatmap\"");
  TEST_ASSERT_CONTAINS(t, "data-rows=\"4\" data-cols=\"6\"");
  ck_assert_int_eq(count_of(t, "<rect class=\"cell\""), 6);
  /* The cell of rows 2-3, columns 0-1 holds 250 ulps, the darkest red. */
  TEST_ASSERT_CONTAINS(t, "fill=\"#800026\" stroke=\"#24292f\" stroke-width=\"0.6\" "
                          "data-row0=\"2\" data-row1=\"3\" data-col0=\"0\" "
                          "data-col1=\"1\" data-fails=\"4\" data-ulps=\"250\"");
  TEST_ASSERT_CONTAINS(t, "<title>rows 2-3, columns 0-1: 250 ulps, 4 failing</title>");
  TEST_ASSERT_CONTAINS(t, "fill=\"#000000\" stroke=\"#24292f\" stroke-width=\"0.6\" "
                          "data-row0=\"2\" data-row1=\"3\" data-col0=\"2\" "
                          "data-col1=\"3\" data-fails=\"1\" data-ulps=\"inf\"");
  /* 1 ulp within the comparison: coloured, not outlined. */
  TEST_ASSERT_CONTAINS(t, "data-row0=\"0\" data-row1=\"1\" data-col0=\"2\" "
                          "data-col1=\"3\" data-fails=\"0\" data-ulps=\"1\"");
  /* Failing at 0 ulps (NaN bits): purple. */
  TEST_ASSERT_CONTAINS(t, "fill=\"#8250df\" stroke=\"#24292f\" stroke-width=\"0.6\" "
                          "data-row0=\"0\" data-row1=\"1\" data-col0=\"4\" "
                          "data-col1=\"5\" data-fails=\"3\" data-ulps=\"0\"");
  TEST_ASSERT_CONTAINS(t, "NaN or inf");
  ck_assert_int_eq(count_of(t, "<svg"), 1);
  ck_assert_int_eq(count_of(t, "</svg>"), 1);
  free(t);
  double line[4] = {0, 0, 7, 0};
  int line_fails[4] = {0, 0, 2, 0};
  f = tmpfile();
  cuemu__svg_profile_write(f, line, line_fails, 4, 10);
  t = contents(f);
  fclose(f);
  TEST_ASSERT_CONTAINS(t, "<svg class=\"profile\"");
  TEST_ASSERT_CONTAINS(t, "data-count=\"10\"");
  ck_assert_int_eq(count_of(t, "<rect class=\"bin\""), 4);
  TEST_ASSERT_CONTAINS(t, "data-first=\"5\" data-last=\"7\" data-fails=\"2\" data-ulps=\"7\"");
  TEST_ASSERT_CONTAINS(t, "<title>elements 5-7: 7 ulps, 2 failing</title>");
  free(t);
}
END_TEST

/* The page: self-contained, escaped, the table, the differences with
 * their picture, the message, the schedules. */
START_TEST(test_html) {
  cuemu__prow rows[2];
  two_rows(rows);
  cuemu_parity_diff d;
  add_diff(&rows[1], &d);
  rows[1].line = 7;
  cuemu__prun run = {"forward,reverse", "race", NULL, 1.5};
  FILE *f = tmpfile();
  ck_assert_int_eq(cuemu__parity_html_write(f, rows, 2, &run), 0);
  char *t = contents(f);
  fclose(f);
  TEST_ASSERT_CONTAINS(t, "<!DOCTYPE html>");
  TEST_ASSERT_CONTAINS(t, "cuemu-parity: 2 cases, 1 passed, 1 failed");
  TEST_ASSERT_CONTAINS(t, "Schedules tried: <code class=\"schedules\">forward,reverse</code>");
  TEST_ASSERT_CONTAINS(t, "checkers: <code>race</code>");
  TEST_ASSERT_CONTAINS(t, "<tr class=\"failed\" data-case=\"bad&lt;&amp;&gt;\" data-max-ulps=\"3\">");
  TEST_ASSERT_CONTAINS(t, "t/&quot;q&quot;.parity.yaml, line 7");
  TEST_ASSERT_CONTAINS(t, "output y (4 x 6) differs from host: 2 of 24 elements");
  TEST_ASSERT_CONTAINS(t, "<tr data-index=\"2\" data-ulps=\"250\"><td class=\"num\">2</td>"
                          "<td class=\"num\">0</td><td class=\"num\">2</td>");
  TEST_ASSERT_CONTAINS(t, "<td class=\"num\">nan</td>");
  TEST_ASSERT_CONTAINS(t, "<svg class=\"heatmap\"");
  TEST_ASSERT_CONTAINS(t, "y[3]: got 1 &lt; 2");
  TEST_ASSERT_CONTAINS(t, "gpu: skipped: no CUDA device");
  ck_assert_ptr_null(strstr(t, "<script"));
  ck_assert_ptr_null(strstr(t, "src="));
  ck_assert_ptr_null(strstr(t, "<link"));
  free(t);
}
END_TEST

/* What CI shows: the summary line, GitHub's Markdown summary and
 * annotations. */
START_TEST(test_ci_summaries) {
  cuemu__prow rows[2];
  two_rows(rows);
  rows[1].line = 7;
  cuemu__prun run = {NULL, NULL, NULL, 2.5};
  FILE *f = tmpfile();
  cuemu__parity_summary_line(f, rows, 2, &run);
  char *t = contents(f);
  fclose(f);
  ck_assert_str_eq(t, "cuemu-parity: 2 cases, 1 passed, 1 failed (host 2 pass; "
                      "emulated 1 pass 1 FAIL; gpu 1 skip) in 2.50 s\n");
  free(t);
  f = tmpfile();
  ck_assert_int_eq(cuemu__parity_markdown_write(f, rows, 2, &run), 0);
  t = contents(f);
  fclose(f);
  TEST_ASSERT_CONTAINS(t, "### cuemu-parity: :x: 1 passed, 1 failed");
  TEST_ASSERT_CONTAINS(t, "| saxpy | pass | pass | - | skip | - | - | 0.25s | PASS |");
  TEST_ASSERT_CONTAINS(t, "| bad<&> | pass | FAIL | - | - | - | 3 ulp |");
  TEST_ASSERT_CONTAINS(t, "<summary>bad&lt;&amp;&gt;: MISMATCH</summary>");
  TEST_ASSERT_CONTAINS(t, "y[3]: got 1 < 2");
  free(t);
  f = tmpfile();
  cuemu__parity_annotations_write(f, rows, 2);
  t = contents(f);
  fclose(f);
  ck_assert_str_eq(t, "::error file=t/\"q\".parity.yaml,line=7,title=cuemu-parity%3A "
                      "case bad<&>::MISMATCH: emulated (forward): output y "
                      "differs from the host:\n");
  free(t);
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
  tcase_add_test(tc, test_result_diffs_round_trip);
  tcase_add_test(tc, test_svg_scale);
  tcase_add_test(tc, test_svg_pictures);
  tcase_add_test(tc, test_html);
  tcase_add_test(tc, test_ci_summaries);
  return s;
}
