/*
 * cuemu_parity_report.c: the result table, JUnit XML, results passed
 * between processes, and sharding, for cuemu-parity.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_parity_report.h"

const char *cuemu__parity_state_name(cuemu_parity_leg_state s) {
  switch (s) {
  case CUEMU_PARITY_PASS: return "pass";
  case CUEMU_PARITY_FAIL: return "FAIL";
  case CUEMU_PARITY_SKIP: return "skip";
  default: return "-";
  }
}

void cuemu__parity_max_error(const cuemu_parity_result *r, char *out,
                             size_t size) {
  if (!r->compared)
    snprintf(out, size, "-");
  else if (isinf(r->max_ulps))
    snprintf(out, size, "inf");
  else
    snprintf(out, size, "%.3g ulp", r->max_ulps);
}

void cuemu__parity_table_write(FILE *f, const cuemu__prow *rows, int n) {
  int width = 4;
  for (int i = 0; i < n; ++i)
    if ((int)strlen(rows[i].name) > width)
      width = (int)strlen(rows[i].name);
  if (width > 40)
    width = 40;
  fprintf(f, "%-*s  %-4s  %-8s  %-5s  %-4s  %-8s  %-10s  %8s  %s\n", width,
          "case", "host", "emulated", "nvrtc", "gpu", "sanitize", "max error",
          "time", "result");
  for (int i = 0; i < width; ++i)
    fputc('-', f);
  fputs("  ----  --------  -----  ----  --------  ----------  --------  ------\n", f);
  int failed = 0;
  for (int i = 0; i < n; ++i) {
    const cuemu_parity_result *r = &rows[i].result;
    char err[32];
    cuemu__parity_max_error(r, err, sizeof err);
    fprintf(f, "%-*.*s  %-4s  %-8s  %-5s  %-4s  %-8s  %-10s  %7.2fs  %s\n", width,
            width, rows[i].name, cuemu__parity_state_name(r->legs[CUEMU_PARITY_LEG_HOST]),
            cuemu__parity_state_name(r->legs[CUEMU_PARITY_LEG_EMULATED]),
            cuemu__parity_state_name(r->legs[CUEMU_PARITY_LEG_NVRTC]),
            cuemu__parity_state_name(r->legs[CUEMU_PARITY_LEG_GPU]),
            cuemu__parity_state_name(r->legs[CUEMU_PARITY_LEG_SANITIZE]), err, r->seconds,
            r->status == CUEMU_SUCCESS ? "PASS" : "FAIL");
    failed += r->status != CUEMU_SUCCESS;
  }
  /* Details: every failure in full; for passing cases, why a leg was
   * skipped, said once when it is the same reason everywhere. */
  const char *skip_reason = NULL;
  int skip_same = 1;
  for (int i = 0; i < n; ++i) {
    const cuemu_parity_result *r = &rows[i].result;
    if (r->status != CUEMU_SUCCESS) {
      fprintf(f, "\n==== %s (%s): %s\n%s", rows[i].name,
              rows[i].file[0] ? rows[i].file : "in code",
              cuemu_status_name(r->status), r->message ? r->message : "");
    } else if (r->message && r->message[0]) {
      if (!skip_reason)
        skip_reason = r->message;
      else if (strcmp(skip_reason, r->message) != 0)
        skip_same = 0;
    }
  }
  if (skip_reason && skip_same) {
    fprintf(f, "\nIn every passing case: %s", skip_reason);
  } else if (skip_reason) {
    for (int i = 0; i < n; ++i)
      if (rows[i].result.status == CUEMU_SUCCESS && rows[i].result.message &&
          rows[i].result.message[0])
        fprintf(f, "\n%s: %s", rows[i].name, rows[i].result.message);
  }
  fprintf(f, "\n%d case%s: %d passed, %d failed\n", n, n == 1 ? "" : "s",
          n - failed, failed);
}

/* The length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static int utf8_length(const unsigned char *s) {
  int n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2
          : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
  if (n == 2 && s[0] < 0xc2)
    return 0; /* overlong */
  for (int i = 1; i < n; ++i)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  return n;
}

/* Writes at most `max` bytes of `s` with XML's special characters escaped,
 * control characters other than tab and newline dropped and bytes that are
 * not UTF-8 (a compiler message in Latin-1, say) written as '?', so that the
 * file is always well-formed XML. A character is never cut. */
void cuemu__parity_xml_write(FILE *f, const char *s, size_t max) {
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  const unsigned char *end = p + strnlen((const char *)p, max);
  while (p < end) {
    int n = utf8_length(p);
    if (n == 0) {
      fputc('?', f);
      p++;
      continue;
    }
    if (p + n > end)
      break;
    switch (*p) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default:
      if (*p >= 0x20 || *p == '\n' || *p == '\t')
        fwrite(p, 1, (size_t)n, f);
    }
    p += n;
  }
}

static void xml(FILE *f, const char *s) {
  cuemu__parity_xml_write(f, s, (size_t)-1);
}

int cuemu__parity_junit_write(FILE *f, const cuemu__prow *rows, int n) {
  int failures = 0;
  double total = 0;
  for (int i = 0; i < n; ++i) {
    failures += rows[i].result.status != CUEMU_SUCCESS;
    total += rows[i].result.seconds;
  }
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(f, "<testsuites name=\"cuemu-parity\" tests=\"%d\" failures=\"%d\" "
             "errors=\"0\" time=\"%.3f\">\n", n, failures, total);
  fprintf(f, "  <testsuite name=\"cuemu-parity\" tests=\"%d\" failures=\"%d\" "
             "errors=\"0\" skipped=\"0\" time=\"%.3f\">\n", n, failures, total);
  for (int i = 0; i < n; ++i) {
    const cuemu_parity_result *r = &rows[i].result;
    fputs("    <testcase classname=\"", f);
    xml(f, rows[i].file[0] ? rows[i].file : "parity");
    fputs("\" name=\"", f);
    xml(f, rows[i].name);
    fprintf(f, "\" time=\"%.3f\">\n", r->seconds);
    fputs("      <properties>\n", f);
    for (int l = 0; l < CUEMU_PARITY_LEGS; ++l)
      fprintf(f, "        <property name=\"%s\" value=\"%s\"/>\n",
              cuemu_parity_leg_name((cuemu_parity_leg)l), cuemu__parity_state_name(r->legs[l]));
    fputs("      </properties>\n", f);
    if (r->status != CUEMU_SUCCESS) {
      fputs("      <failure type=\"", f);
      xml(f, cuemu_status_name(r->status));
      fputs("\" message=\"", f);
      /* The message attribute is the first line of the details. */
      const char *m = r->message ? r->message : "";
      size_t line = strcspn(m, "\n");
      cuemu__parity_xml_write(f, m, line < 500 ? line : 500);
      fputs("\">", f);
      xml(f, r->message);
      fputs("</failure>\n", f);
    } else if (r->message && r->message[0]) {
      fputs("      <system-out>", f);
      xml(f, r->message);
      fputs("</system-out>\n", f);
    }
    fputs("    </testcase>\n", f);
  }
  fputs("  </testsuite>\n</testsuites>\n", f);
  return ferror(f) ? -1 : 0;
}

/* A name on a line of its own (names hold no newline; "" is written as
 * "-" after a colon so that a line is never empty). */
static void name_write(FILE *f, const char *s) { fprintf(f, ":%s\n", s); }

static int name_read(FILE *f, char *out, size_t size) {
  char line[512];
  if (!fgets(line, sizeof line, f) || line[0] != ':')
    return -1;
  line[strcspn(line, "\n")] = 0;
  size_t n = strlen(line + 1);
  if (n >= size)
    n = size - 1;
  memcpy(out, line + 1, n);
  out[n] = 0;
  return 0;
}

int cuemu__parity_result_write(FILE *f, const cuemu_parity_result *r) {
  fprintf(f, "%d", (int)r->status);
  for (int l = 0; l < CUEMU_PARITY_LEGS; ++l)
    fprintf(f, " %d", (int)r->legs[l]);
  fprintf(f, " %d %a %a %a %d\n", r->compared, r->max_ulps, r->max_abs,
          r->seconds, r->ndiffs);
  for (int i = 0; i < r->ndiffs; ++i) {
    const cuemu_parity_diff *d = &r->diffs[i];
    name_write(f, d->leg);
    name_write(f, d->output);
    name_write(f, d->reference);
    fprintf(f, "%zu %zu %zu %a %d %d %d\n", d->rows, d->cols, d->differing,
            d->max_ulps, d->nshown, d->map_rows, d->map_cols);
    for (int k = 0; k < d->nshown; ++k) {
      fprintf(f, "%zu %a %a %a\n", d->shown[k].index, d->shown[k].got,
              d->shown[k].want, d->shown[k].ulps);
      name_write(f, d->shown[k].field);
    }
    for (int k = 0; k < d->map_rows * d->map_cols; ++k)
      fprintf(f, "%a %d%c", d->map[k], d->fails[k],
              k + 1 < d->map_rows * d->map_cols ? ' ' : '\n');
  }
  fputs(r->message ? r->message : "", f);
  return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* Reads the diffs that cuemu__parity_result_write() wrote. */
static int diffs_read(FILE *f, cuemu_parity_result *r, int n) {
  if (n < 0 || n > 1000)
    return -1;
  r->diffs = calloc((size_t)n + 1, sizeof *r->diffs);
  if (!r->diffs)
    return -1;
  for (int i = 0; i < n; ++i) {
    cuemu_parity_diff *d = &r->diffs[i];
    if (name_read(f, d->leg, sizeof d->leg) ||
        name_read(f, d->output, sizeof d->output) ||
        name_read(f, d->reference, sizeof d->reference) ||
        fscanf(f, "%zu %zu %zu %la %d %d %d", &d->rows, &d->cols,
               &d->differing, &d->max_ulps, &d->nshown, &d->map_rows,
               &d->map_cols) != 7 ||
        fgetc(f) != '\n' || d->nshown < 0 || d->nshown > 8 ||
        d->map_rows < 1 || d->map_cols < 1 || d->map_rows > 4096 ||
        d->map_cols > 4096)
      return -1;
    for (int k = 0; k < d->nshown; ++k)
      if (fscanf(f, "%zu %la %la %la", &d->shown[k].index, &d->shown[k].got,
                 &d->shown[k].want, &d->shown[k].ulps) != 4 ||
          fgetc(f) != '\n' ||
          name_read(f, d->shown[k].field, sizeof d->shown[k].field))
        return -1;
    size_t cells = (size_t)d->map_rows * (size_t)d->map_cols;
    d->map = calloc(cells, sizeof *d->map);
    d->fails = calloc(cells, sizeof *d->fails);
    r->ndiffs = i + 1;
    if (!d->map || !d->fails)
      return -1;
    for (size_t k = 0; k < cells; ++k)
      if (fscanf(f, "%la %d", &d->map[k], &d->fails[k]) != 2)
        return -1;
    if (fgetc(f) != '\n')
      return -1;
  }
  return 0;
}

int cuemu__parity_result_read(FILE *f, cuemu_parity_result *r) {
  memset(r, 0, sizeof *r);
  int status, legs[CUEMU_PARITY_LEGS], ndiffs;
  if (fscanf(f, "%d %d %d %d %d %d %d %la %la %la %d", &status, &legs[0],
             &legs[1], &legs[2], &legs[3], &legs[4], &r->compared, &r->max_ulps,
             &r->max_abs, &r->seconds, &ndiffs) != 11 ||
      fgetc(f) != '\n')
    return -1;
  if (diffs_read(f, r, ndiffs)) {
    cuemu_parity_result_free(r);
    return -1;
  }
  r->status = (cuemu_status)status;
  for (int l = 0; l < CUEMU_PARITY_LEGS; ++l)
    r->legs[l] = (cuemu_parity_leg_state)legs[l];
  size_t cap = 4096, len = 0;
  char *m = malloc(cap);
  size_t got;
  while (m && (got = fread(m + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (cap - len < 2) {
      char *more = realloc(m, cap * 2);
      if (!more)
        break;
      m = more;
      cap *= 2;
    }
  }
  if (!m)
    return -1;
  m[len] = 0;
  r->message = m;
  return 0;
}

int cuemu__parity_shard_parse(const char *text, int *k, int *n) {
  char *end;
  long a = strtol(text, &end, 10);
  if (end == text || *end != '/')
    return -1;
  const char *rest = end + 1;
  long b = strtol(rest, &end, 10);
  if (end == rest || *end || b < 1 || b > 100000 || a < 1 || a > b)
    return -1;
  *k = (int)a;
  *n = (int)b;
  return 0;
}

int cuemu__parity_in_shard(int index, int k, int n) {
  return index % n == k - 1;
}
