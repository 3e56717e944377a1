/*
 * cuemu_parity_text.c: formatted strings, growing messages and reading
 * files, for every part of the parity runner.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_parity_text.h"

char *cuemu__parity_format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    return NULL;
  char *text = malloc((size_t)n + 1);
  if (!text)
    return NULL;
  va_start(ap, fmt);
  vsnprintf(text, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return text;
}

void cuemu__ptext_add(cuemu__ptext *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if (t->len + (size_t)n + 1 > t->cap) {
    size_t cap = (t->cap ? t->cap * 2 : 256) + (size_t)n;
    char *s = realloc(t->s, cap);
    if (!s)
      return;
    t->s = s;
    t->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

char *cuemu__parity_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t len = 0, cap = 4096;
  char *buf = malloc(cap);
  while (buf) {
    len += fread(buf + len, 1, cap - len - 1, f);
    if (len < cap - 1)
      break;
    cap *= 2;
    char *grown = realloc(buf, cap);
    if (!grown)
      free(buf);
    buf = grown;
  }
  int failed = ferror(f);
  fclose(f);
  if (!buf || failed) {
    free(buf);
    errno = buf ? EIO : ENOMEM;
    return NULL;
  }
  buf[len] = 0;
  if (size)
    *size = len;
  return buf;
}

char *cuemu__parity_read_tail(int fd, size_t max) {
  off_t size = lseek(fd, 0, SEEK_END);
  if (size < 0)
    size = 0;
  off_t from = (size_t)size > max ? size - (off_t)max : 0;
  char *s = calloc(1, (size_t)(size - from) + 1);
  if (s && pread(fd, s, (size_t)(size - from), from) < 0)
    s[0] = 0;
  return s;
}
