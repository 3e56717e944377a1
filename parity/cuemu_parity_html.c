/*
 * cuemu_parity_html.c: cuemu-parity's HTML report: one self-contained page
 * (inline CSS and SVG, no script, nothing fetched) that a CI system keeps
 * as an artifact. It holds the table of cases and legs, and for each
 * failure the outputs that differ: their first differing elements with
 * both values and the error in ulps, a picture of where they differ (a
 * heat map for a 2-D output, the error against the index for a 1-D one),
 * and the whole message, which carries the checker reports with their
 * source lines.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cuemu/cuemu.h>

#include "cuemu_parity_report.h"
#include "cuemu_parity_svg.h"

static void esc(FILE *f, const char *s) { cuemu__parity_xml_write(f, s, (size_t)-1); }

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left}"
    "th{background:#f0f0f0}td.num{text-align:right;font-family:monospace}"
    ".pass{color:#1a7f37}.FAIL{color:#cf222e;font-weight:bold}.skip{color:#888}"
    "tr.failed{background:#fff0f0}"
    "pre{background:#f6f8fa;padding:.6em;overflow-x:auto;white-space:pre-wrap}"
    "section.case{border-top:2px solid #ddd;margin-top:1.5em}"
    "figure{margin:.5em 0}figcaption{font-size:90%;color:#555}";

static const char *const leg_columns[] = {"host", "emulated", "nvrtc", "gpu",
                                          "sanitize"};

/* A value as the text report shows it. */
static void value(FILE *f, double v) {
  if (isnan(v))
    fputs("nan", f);
  else
    fprintf(f, "%.9g", v);
}

static void ulps(FILE *f, double v) {
  if (isinf(v))
    fputs("inf", f);
  else
    fprintf(f, "%.17g", v);
}

/* An anchor name for a case: its position, which is unique. */
static void anchor(FILE *f, int i) { fprintf(f, "case-%d", i); }

static void cases_table(FILE *f, const cuemu__prow *rows, int n) {
  fputs("<table id=\"cases\">\n<tr><th>case</th><th>file</th>", f);
  for (size_t l = 0; l < sizeof leg_columns / sizeof *leg_columns; ++l)
    fprintf(f, "<th>%s</th>", leg_columns[l]);
  fputs("<th>max error</th><th>time</th><th>result</th></tr>\n", f);
  for (int i = 0; i < n; ++i) {
    const cuemu_parity_result *r = &rows[i].result;
    int ok = r->status == CUEMU_SUCCESS;
    char err[32];
    cuemu__parity_max_error(r, err, sizeof err);
    fprintf(f, "<tr class=\"%s\" data-case=\"", ok ? "passed" : "failed");
    esc(f, rows[i].name);
    fputs("\" data-max-ulps=\"", f);
    if (r->compared)
      ulps(f, r->max_ulps);
    fputs("\"><td>", f);
    if (!ok) {
      fputs("<a href=\"#", f);
      anchor(f, i);
      fputs("\">", f);
    }
    esc(f, rows[i].name);
    fputs(ok ? "</td><td>" : "</a></td><td>", f);
    esc(f, rows[i].file[0] ? rows[i].file : "in code");
    fputs("</td>", f);
    for (int l = 0; l < CUEMU_PARITY_LEGS; ++l) {
      const char *st = cuemu__parity_state_name(r->legs[l]);
      fprintf(f, "<td class=\"%s\">%s</td>", st, st);
    }
    fprintf(f, "<td class=\"num\">%s</td><td class=\"num\">%.2fs</td>"
               "<td class=\"%s\">%s</td></tr>\n",
            err, r->seconds, ok ? "pass" : "FAIL", ok ? "PASS" : "FAIL");
  }
  fputs("</table>\n", f);
}

/* One output that differs: its numbers, then its picture. */
static void diff_section(FILE *f, const cuemu_parity_diff *d) {
  int two_d = d->rows > 1;
  size_t count = d->rows * d->cols;
  fputs("<div class=\"diff\" data-output=\"", f);
  esc(f, d->output);
  fputs("\" data-leg=\"", f);
  esc(f, d->leg);
  fprintf(f, "\" data-rows=\"%zu\" data-cols=\"%zu\" data-differing=\"%zu\" "
             "data-max-ulps=\"",
          d->rows, d->cols, d->differing);
  ulps(f, d->max_ulps);
  fputs("\">\n<h3>", f);
  esc(f, d->leg);
  fputs(": output ", f);
  esc(f, d->output);
  if (two_d)
    fprintf(f, " (%zu x %zu)", d->rows, d->cols);
  else
    fprintf(f, " (%zu elements)", d->cols);
  fputs(" differs from ", f);
  esc(f, d->reference);
  fprintf(f, ": %zu of %zu elements</h3>\n", d->differing, count);
  fputs("<table class=\"differences\">\n<tr><th>index</th>", f);
  if (two_d)
    fputs("<th>row</th><th>column</th>", f);
  fputs("<th>field</th><th>got</th><th>", f);
  esc(f, d->reference);
  fputs("</th><th>ulps</th></tr>\n", f);
  for (int k = 0; k < d->nshown; ++k) {
    const cuemu_parity_difference *x = &d->shown[k];
    fprintf(f, "<tr data-index=\"%zu\" data-ulps=\"", x->index);
    ulps(f, x->ulps);
    fprintf(f, "\"><td class=\"num\">%zu</td>", x->index);
    if (two_d)
      fprintf(f, "<td class=\"num\">%zu</td><td class=\"num\">%zu</td>",
              x->index / d->cols, x->index % d->cols);
    fputs("<td>", f);
    esc(f, x->field);
    fputs("</td><td class=\"num\">", f);
    value(f, x->got);
    fputs("</td><td class=\"num\">", f);
    value(f, x->want);
    fputs("</td><td class=\"num\">", f);
    ulps(f, x->ulps);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
  if (d->differing > (size_t)d->nshown)
    fprintf(f, "<p>The first %d of %zu differing elements are listed.</p>\n",
            d->nshown, d->differing);
  fputs("<figure>\n", f);
  if (two_d)
    cuemu__svg_heatmap_write(f, d->map, d->fails, d->map_rows, d->map_cols,
                             d->rows, d->cols);
  else
    cuemu__svg_profile_write(f, d->map, d->fails, d->map_cols, d->cols);
  fprintf(f, "<figcaption>%s: the largest error in ulps in each %s; grey: "
             "equal, black: NaN or an infinity against a number, purple: "
             "different bits at no distance (NaN payloads, -0 and +0); "
             "outlined marks hold elements that fail the comparison "
             "(others are within it).</figcaption>\n"
             "</figure>\n</div>\n",
          two_d ? "heat map of the error over the matrix (rows down, columns "
                  "across)"
                : "error against the index",
          two_d ? "cell" : "bar");
}

int cuemu__parity_html_write(FILE *f, const cuemu__prow *rows, int n,
                             const cuemu__prun *run) {
  int failed = 0;
  for (int i = 0; i < n; ++i)
    failed += rows[i].result.status != CUEMU_SUCCESS;
  fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
             "charset=\"utf-8\">\n<title>cuemu-parity: %d passed, %d "
             "failed</title>\n<style>%s</style>\n</head>\n<body>\n",
          n - failed, failed, style);
  fprintf(f, "<h1>cuemu-parity: %d case%s, %d passed, %d failed</h1>\n", n,
          n == 1 ? "" : "s", n - failed, failed);
  time_t t = time(NULL);
  char when[64];
  strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&t));
  fputs("<p id=\"run\">Schedules tried: <code class=\"schedules\">", f);
  esc(f, run && run->schedules ? run->schedules : "forward");
  fputs("</code>; checkers: <code>", f);
  esc(f, run && run->checks ? run->checks : "none");
  fputs("</code>; compute-sanitizer: <code>", f);
  esc(f, run && run->sanitize ? run->sanitize : "none");
  fprintf(f, "</code>; %.2f s; written %s by cuemu-parity " CUEMU_VERSION
             ".</p>\n",
          run ? run->seconds : 0.0, when);
  cases_table(f, rows, n);
  for (int i = 0; i < n; ++i) {
    const cuemu_parity_result *r = &rows[i].result;
    if (r->status == CUEMU_SUCCESS)
      continue;
    fputs("<section class=\"case\" id=\"", f);
    anchor(f, i);
    fputs("\" data-case=\"", f);
    esc(f, rows[i].name);
    fputs("\">\n<h2>", f);
    esc(f, rows[i].name);
    fputs(": ", f);
    esc(f, cuemu_status_name(r->status));
    fputs("</h2>\n<p>", f);
    esc(f, rows[i].file[0] ? rows[i].file : "in code");
    if (rows[i].line)
      fprintf(f, ", line %d", rows[i].line);
    fputs("</p>\n", f);
    for (int k = 0; k < r->ndiffs; ++k)
      diff_section(f, &r->diffs[k]);
    fputs("<h3>Details</h3>\n<pre class=\"message\">", f);
    esc(f, r->message);
    fputs("</pre>\n</section>\n", f);
  }
  /* Why legs were skipped in passing cases. */
  int heading = 0;
  for (int i = 0; i < n; ++i) {
    const cuemu_parity_result *r = &rows[i].result;
    if (r->status != CUEMU_SUCCESS || !r->message || !r->message[0])
      continue;
    if (!heading++)
      fputs("<h2>Passing cases: notes</h2>\n<dl>\n", f);
    fputs("<dt>", f);
    esc(f, rows[i].name);
    fputs("</dt><dd><pre>", f);
    esc(f, r->message);
    fputs("</pre></dd>\n", f);
  }
  if (heading)
    fputs("</dl>\n", f);
  fputs("</body>\n</html>\n", f);
  return ferror(f) ? -1 : 0;
}
