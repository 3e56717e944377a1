/*
 * cuemu_line_markers.c: the line markers of a preprocessed unit
 * (cuemu_line_markers.h).
 */
#define _GNU_SOURCE
#include "cuemu_line_markers.h"

#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"

int cuemu__ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

int cuemu__user_marker(const char *line, size_t n, const char *const *skip,
                       int nskip, cuemu_user_marker *m) {
  const char *file;
  size_t len;
  int enter, system;
  if (!cuemu__line_marker(line, line + n, &file, &len, &enter, &system))
    return 0;
  m->line = atoi(line + 2);
  m->file = file;
  m->file_len = len;
  m->system = system;
  m->user = len == 0 || file[0] != '<';
  for (int s = 0; s < nskip && m->user; ++s) {
    const size_t dir = strlen(skip[s]);
    if (dir && len > dir && memcmp(file, skip[s], dir) == 0 && file[dir] == '/')
      m->user = 0;
  }
  return 1;
}

long cuemu__unit_line(const char *ii, size_t size, const char *file,
                      size_t file_len, long line) {
  const char *end = ii + size;
  cuemu_user_marker m = {0};
  long at = 0;
  int in_file = 0;
  for (const char *l = ii; l < end;) {
    const char *nl = memchr(l, '\n', (size_t)(end - l));
    size_t len = nl ? (size_t)(nl - l) : (size_t)(end - l);
    if (cuemu__user_marker(l, len, NULL, 0, &m)) {
      at = m.line;
      in_file = m.file_len == file_len && memcmp(m.file, file, file_len) == 0;
    } else {
      if (in_file && at == line && len > 0)
        return (long)(l - ii);
      at++;
    }
    l += len + 1;
  }
  return -1;
}

int cuemu__error_place(const char *line, size_t len, const char **file,
                       size_t *file_len, long *at, long *column) {
  const char *e = memmem(line, len, ": error: ", 9);
  if (!e)
    e = memmem(line, len, ": fatal error: ", 15);
  if (!e)
    e = memmem(line, len, ": note: ", 8);
  if (!e)
    return 0;
  const char *p = e;
  int colons = 0;
  const char *digits[2] = {NULL, NULL};
  while (p > line && colons < 2) {
    const char *q = p;
    while (q > line && q[-1] >= '0' && q[-1] <= '9')
      q--;
    if (q == p || q == line || q[-1] != ':')
      return 0;
    digits[colons++] = q;
    p = q - 1;
  }
  *file = line;
  *file_len = (size_t)(p - line);
  *at = strtol(digits[1], NULL, 10);
  *column = strtol(digits[0], NULL, 10);
  return *file_len > 0;
}
