/*
 * cuemu_parity_summary.c: what a CI system shows of a parity run: a one-line
 * summary for the log, GitHub Actions' step summary (Markdown) and its
 * ::error annotations on the case files.
 */
#include <stdio.h>
#include <string.h>

#include "cuemu_parity_report.h"

void cuemu__parity_summary_line(FILE *f, const cuemu__prow *rows, int n,
                                const cuemu__prun *run) {
  int failed = 0;
  int states[CUEMU_PARITY_LEGS][4];
  memset(states, 0, sizeof states);
  for (int i = 0; i < n; ++i) {
    failed += rows[i].result.status != CUEMU_SUCCESS;
    for (int l = 0; l < CUEMU_PARITY_LEGS; ++l)
      states[l][rows[i].result.legs[l] & 3]++;
  }
  fprintf(f, "cuemu-parity: %d case%s, %d passed, %d failed", n,
          n == 1 ? "" : "s", n - failed, failed);
  const char *sep = " (";
  for (int l = 0; l < CUEMU_PARITY_LEGS; ++l) {
    if (states[l][CUEMU_PARITY_NOT_RUN] == n)
      continue;
    fprintf(f, "%s%s", sep, cuemu_parity_leg_name((cuemu_parity_leg)l));
    sep = "; ";
    static const cuemu_parity_leg_state order[] = {
        CUEMU_PARITY_PASS, CUEMU_PARITY_FAIL, CUEMU_PARITY_SKIP};
    for (int k = 0; k < 3; ++k)
      if (states[l][order[k]])
        fprintf(f, " %d %s", states[l][order[k]],
                cuemu__parity_state_name(order[k]));
  }
  fprintf(f, "%s in %.2f s\n", sep[0] == ';' ? ")" : "",
          run ? run->seconds : 0.0);
}

/* Text for a Markdown table cell: no '|' or newline. */
static void cell(FILE *f, const char *s) {
  for (; s && *s; ++s)
    fputs(*s == '|' ? "\\|" : *s == '\n' ? " " : (char[]){*s, 0}, f);
}

int cuemu__parity_markdown_write(FILE *f, const cuemu__prow *rows, int n,
                                 const cuemu__prun *run) {
  int failed = 0;
  for (int i = 0; i < n; ++i)
    failed += rows[i].result.status != CUEMU_SUCCESS;
  fprintf(f, "### cuemu-parity: %s %d passed, %d failed\n\n",
          failed ? ":x:" : ":white_check_mark:", n - failed, failed);
  fprintf(f, "Schedules: `%s`%s%s%s\n\n",
          run && run->schedules ? run->schedules : "forward",
          run && run->checks ? "; checkers: `" : "",
          run && run->checks ? run->checks : "", run && run->checks ? "`" : "");
  fputs("| case | host | emulated | nvrtc | gpu | sanitize | max error | "
        "time | result |\n|---|---|---|---|---|---|---|---|---|\n",
        f);
  for (int i = 0; i < n; ++i) {
    const cuemu_parity_result *r = &rows[i].result;
    char err[32];
    cuemu__parity_max_error(r, err, sizeof err);
    fputs("| ", f);
    cell(f, rows[i].name);
    for (int l = 0; l < CUEMU_PARITY_LEGS; ++l)
      fprintf(f, " | %s", cuemu__parity_state_name(r->legs[l]));
    fprintf(f, " | %s | %.2fs | %s |\n", err, r->seconds,
            r->status == CUEMU_SUCCESS ? "PASS" : "**FAIL**");
  }
  for (int i = 0; i < n; ++i) {
    const cuemu_parity_result *r = &rows[i].result;
    if (r->status == CUEMU_SUCCESS)
      continue;
    fputs("\n<details><summary>", f);
    cuemu__parity_xml_write(f, rows[i].name, (size_t)-1);
    fprintf(f, ": %s</summary>\n\n```\n", cuemu_status_name(r->status));
    /* A fence inside the message would end the block early. */
    for (const char *m = r->message ? r->message : ""; *m; ++m)
      fputc(strncmp(m, "```", 3) == 0 ? '\'' : *m, f);
    fputs("\n```\n\n</details>\n", f);
  }
  return ferror(f) ? -1 : 0;
}

/* Text for a workflow command's message: '%', CR and LF encoded. */
static void command_text(FILE *f, const char *s, int property) {
  for (; s && *s; ++s) {
    if (*s == '%')
      fputs("%25", f);
    else if (*s == '\r')
      fputs("%0D", f);
    else if (*s == '\n')
      fputs("%0A", f);
    else if (property && *s == ':')
      fputs("%3A", f);
    else if (property && *s == ',')
      fputs("%2C", f);
    else
      fputc(*s, f);
  }
}

void cuemu__parity_annotations_write(FILE *f, const cuemu__prow *rows, int n) {
  for (int i = 0; i < n; ++i) {
    const cuemu_parity_result *r = &rows[i].result;
    if (r->status == CUEMU_SUCCESS)
      continue;
    fputs("::error ", f);
    if (rows[i].file[0]) {
      fputs("file=", f);
      command_text(f, rows[i].file, 1);
      if (rows[i].line)
        fprintf(f, ",line=%d", rows[i].line);
      fputc(',', f);
    }
    fputs("title=", f);
    command_text(f, "cuemu-parity: case ", 1);
    command_text(f, rows[i].name, 1);
    fputs("::", f);
    command_text(f, cuemu_status_name(r->status), 0);
    fputs(": ", f);
    const char *m = r->message ? r->message : "";
    char first[600];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(m, "\n"), m);
    command_text(f, first, 0);
    fputc('\n', f);
  }
}
