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
  cuemu_parity_result result;
} cuemu__prow;

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
