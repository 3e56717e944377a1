/*
 * cuemu_report.c: the per-OS-thread message of the last failed call.
 */
#include "cuemu_report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>

#define CUEMU_MESSAGE_SIZE 4096

/* A pointer rather than an array keeps libcuemu's static TLS small. */
static __thread char *last_message;

cuemu_status cuemu__report(cuemu_status status, const char *fmt, ...) {
  if (!last_message) {
    last_message = malloc(CUEMU_MESSAGE_SIZE);
    if (!last_message)
      return status;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_message, CUEMU_MESSAGE_SIZE, fmt, ap);
  va_end(ap);
  return status;
}

const char *cuemu_last_message(void) {
  return last_message ? last_message : "";
}

void cuemu__report_print(const char *message) {
  const char *quiet = getenv("CUEMU_QUIET");
  if (quiet && strcmp(quiet, "1") == 0)
    return;
  fprintf(stderr, "cuemu: %s\n", message);
  fflush(stderr);
}
