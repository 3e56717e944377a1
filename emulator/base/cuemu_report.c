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

/* The name that cuemu-cc gives a unit's unnamed namespace
 * (CUEMU_UNNAMED_NAMESPACE, cuemu_driver.h: "cuemu_unnamed_" and the unit's
 * key in hexadecimal) stays in a kernel's name, which is its identity too;
 * messages show it as CUDA's tools do. */
static const char unnamed_prefix[] = "cuemu_unnamed_";
static const char unnamed_shown[] = "(anonymous namespace)::";

void cuemu__report_display_names(char *text) {
  char *at = text;
  while ((at = strstr(at, unnamed_prefix)) != NULL) {
    size_t n = sizeof unnamed_prefix - 1;
    size_t digits = strspn(at + n, "0123456789abcdef");
    if (digits == 0 || strncmp(at + n + digits, "::", 2) != 0) {
      at += n;
      continue;
    }
    /* The shown form is shorter than the prefix, its 32 digits and "::". */
    size_t old = n + digits + 2, shown = sizeof unnamed_shown - 1;
    if (old < shown) {
      at += old;
      continue;
    }
    memcpy(at, unnamed_shown, shown);
    memmove(at + shown, at + old, strlen(at + old) + 1);
    at += shown;
  }
}

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
  cuemu__report_display_names(last_message);
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
  /* A copy only where a name is rewritten: this runs on kernel threads'
   * small stacks too (the checkers' reports), so not on the stack. */
  char *shown = NULL;
  if (strstr(message, unnamed_prefix) && (shown = strdup(message))) {
    cuemu__report_display_names(shown);
    message = shown;
  }
  cuemu__error_log_add(message);
  if (!cuemu__config_quiet()) {
    fprintf(stderr, "cuemu: %s\n", message);
    fflush(stderr);
  }
  free(shown);
}

cuemu_status cuemu__report_print_first(cuemu_status status,
                                       atomic_flag *told) {
  if (!atomic_flag_test_and_set(told))
    cuemu__report_print(cuemu_last_message());
  return status;
}
