/*
 * cuemu_narrowing.c: the host pass's narrowing conversions in braces, as
 * g++ (nvcc's host compiler) judges them, where clang++ compiles a unit in
 * g++'s place (one that includes CUB or Thrust, docs/cccl.md). g++ warns
 * about a variable's value narrowed (`int blocks{(n + t - 1) / t};` with an
 * unsigned n: "narrowing conversion ... [-Wnarrowing]") and refuses a
 * constant narrowed (`int whole{2.5};`); nvcc does the same. clang++ 14
 * refuses both in one warning group, -Wc++11-narrowing, so the host pass
 * runs with -Wno-error=c++11-narrowing and its messages are then read
 * here: each warning about a constant is made an error, which fails the
 * compile as g++ fails it (tests/driver_cccl_narrowing.sh).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"

/* Whether the message line `line` (`len` bytes) is clang++'s warning about
 * a constant narrowed in braces. */
static int constant_narrowing(const char *line, size_t len) {
  static const char group[] = "[-Wc++11-narrowing]";
  static const char variable[] = "non-constant-expression cannot be narrowed";
  return memmem(line, len, ": warning: ", 11) &&
         memmem(line, len, group, sizeof group - 1) &&
         !memmem(line, len, variable, sizeof variable - 1);
}

char *cuemu__constant_narrowing_errors(const char *text, size_t size,
                                       size_t *out_size, int *errors) {
  *errors = 0;
  char *out = malloc(size + 1);
  if (!out)
    return NULL;
  size_t n = 0;
  const char *end = text + size;
  for (const char *line = text; line < end;) {
    const char *nl = memchr(line, '\n', (size_t)(end - line));
    size_t len = nl ? (size_t)(nl - line) + 1 : (size_t)(end - line);
    const char *w = constant_narrowing(line, len)
                        ? memmem(line, len, ": warning: ", 11)
                        : NULL;
    if (w) {
      /* ": error: " is two bytes shorter than ": warning: ". */
      size_t head = (size_t)(w - line);
      memcpy(out + n, line, head);
      memcpy(out + n + head, ": error: ", 9);
      memcpy(out + n + head + 9, w + 11, len - head - 11);
      n += len - 2;
      (*errors)++;
    } else {
      memcpy(out + n, line, len);
      n += len;
    }
    line += len;
  }
  out[n] = '\0';
  *out_size = n;
  return out;
}
