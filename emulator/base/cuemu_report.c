/*
 * cuemu_report.c: the per-OS-thread message of the last failed call.
 */
#include "base/cuemu_report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>

#include "base/cuemu_config.h"
#include "base/cuemu_error_log.h"

#define CUEMU_MESSAGE_SIZE 8192

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

/* Never inlined, and kept by the empty asm, so that a breakpoint on it is
 * hit on every error whatever the optimisation level. */
__attribute__((noinline)) void cuemu__error_stop(cuemu_status status,
                                                 const char *message) {
  __asm__ volatile("" : : "r"(status), "r"(message) : "memory");
}

void cuemu__report_print(const char *message) {
  cuemu__error_log_add(message);
  if (cuemu__config_quiet())
    return;
  fprintf(stderr, "cuemu: %s\n", message);
  fflush(stderr);
}

cuemu_status cuemu__report_print_first(cuemu_status status,
                                       atomic_flag *told) {
  if (!atomic_flag_test_and_set(told))
    cuemu__report_print(cuemu_last_message());
  return status;
}
