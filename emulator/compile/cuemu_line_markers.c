/*
 * cuemu_line_markers.c: the line markers of a preprocessed unit
 * (cuemu_line_markers.h).
 */
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
