/*
 * cuemu_parity_report.h: what cuemu-parity prints and writes about its cases
 * (internal): the result table, JUnit XML, the results passed from the
 * process that ran a case to the runner, and sharding.
 */
#ifndef CUEMU_PARITY_REPORT_H
#define CUEMU_PARITY_REPORT_H

#include <stdio.h>

#include <cuemu/parity.h>

/* One row: a case (or a case file that did not load) and its result. */
typedef struct cuemu__prow {
  const char *name;
  const char *file;
  int line;                    /* where the case starts; 0 when unknown */
  cuemu_parity_result result;
} cuemu__prow;

/* What a whole run was asked to do, for the reports. */
typedef struct cuemu__prun {
  const char *schedules;       /* as given, or NULL for "forward" */
  const char *checks;          /* checkers, or NULL */
  const char *sanitize;        /* compute-sanitizer tools, or NULL */
  double seconds;              /* the run's wall time */
} cuemu__prun;

/* "pass", "FAIL", "skip" or "-". */
const char *cuemu__parity_state_name(cuemu_parity_leg_state s);
/* The largest difference from the host, for the table: "-", "inf" or
 * "3 ulp". */
void cuemu__parity_max_error(const cuemu_parity_result *r, char *out,
                             size_t size);
/* Writes at most `max` bytes of `s` escaped for XML and HTML (text and
 * attribute values), dropping control characters other than tab and
 * newline and writing bytes that are not UTF-8 as '?'. */
void cuemu__parity_xml_write(FILE *f, const char *s, size_t max);

/* Writes one self-contained HTML page: the table of cases and legs, then
 * each failure with its differing elements, a picture of where each output
 * differs (cuemu_parity_svg.h) and the whole message (checker reports with
 * their source lines), and the schedules tried. Returns 0 or -1. */
int cuemu__parity_html_write(FILE *f, const cuemu__prow *rows, int n,
                             const cuemu__prun *run);

/* The one-line summary of a run, as CI logs show it: "cuemu-parity: 13
 * cases, 12 passed, 1 failed (legs: ...) in 4.20 s". */
void cuemu__parity_summary_line(FILE *f, const cuemu__prow *rows, int n,
                                const cuemu__prun *run);
/* GitHub Actions: the step summary in Markdown (a heading, the table, the
 * failures), to append to $GITHUB_STEP_SUMMARY. Returns 0 or -1. */
int cuemu__parity_markdown_write(FILE *f, const cuemu__prow *rows, int n,
                                 const cuemu__prun *run);
/* GitHub Actions: one ::error workflow command per failing case, naming
 * its file and line, so that the failure shows on the case file. */
void cuemu__parity_annotations_write(FILE *f, const cuemu__prow *rows, int n);

/* Prints the table of rows, then the details of every failure and the
 * reasons legs were skipped, then a closing line. */
void cuemu__parity_table_write(FILE *f, const cuemu__prow *rows, int n);

/* Writes JUnit XML for the rows; returns 0 or -1. */
int cuemu__parity_junit_write(FILE *f, const cuemu__prow *rows, int n);

/* Passes a result through a file: one line of numbers, then the message. */
int cuemu__parity_result_write(FILE *f, const cuemu_parity_result *r);
int cuemu__parity_result_read(FILE *f, cuemu_parity_result *r);

/* Parses "K/N" (1 <= K <= N); returns 0 or -1. */
int cuemu__parity_shard_parse(const char *text, int *k, int *n);
/* Whether the case at position `index` (from 0, in discovery order) belongs
 * to shard K of N. */
int cuemu__parity_in_shard(int index, int k, int n);

#endif /* CUEMU_PARITY_REPORT_H */
