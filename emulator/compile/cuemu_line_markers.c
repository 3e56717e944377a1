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

/* A file that cuemu__read_user_marker() has seen: the user's, or a
 * system header (the flag on the first marker that named it). */
struct cuemu_marker_file {
  char *name; /* NULL: an empty slot */
  size_t len;
  size_t hash;
  int system;
};

static size_t name_hash(const char *name, size_t n) {
  size_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
  return h;
}

/* The slot of name[0, n) (hash h) in r's table: its entry, or the empty
 * slot where it would go. */
static cuemu_marker_file *file_slot(const cuemu_marker_reader *r,
                                    const char *name, size_t n, size_t h) {
  for (size_t i = h & (r->cap - 1);; i = (i + 1) & (r->cap - 1)) {
    cuemu_marker_file *f = &r->files[i];
    if (!f->name ||
        (f->hash == h && f->len == n && memcmp(f->name, name, n) == 0))
      return f;
  }
}

/* The entry of name[0, n), added (as `system` says) when it is new; NULL
 * without memory. */
static cuemu_marker_file *file_entry(cuemu_marker_reader *r, const char *name,
                                     size_t n, int system) {
  if (2 * (r->count + 1) > r->cap) {
    cuemu_marker_reader grown = *r;
    grown.cap = r->cap ? 2 * r->cap : 256;
    grown.files = calloc(grown.cap, sizeof *grown.files);
    if (!grown.files)
      return NULL;
    for (size_t i = 0; i < r->cap; ++i)
      if (r->files[i].name)
        *file_slot(&grown, r->files[i].name, r->files[i].len,
                   r->files[i].hash) = r->files[i];
    free(r->files);
    *r = grown;
  }
  const size_t h = name_hash(name, n);
  cuemu_marker_file *f = file_slot(r, name, n, h);
  if (!f->name) {
    f->name = strndup(name, n);
    if (!f->name)
      return NULL;
    f->len = n;
    f->hash = h;
    f->system = system;
    r->count++;
  }
  return f;
}

int cuemu__read_user_marker(cuemu_marker_reader *r, const char *line,
                            size_t n, cuemu_user_marker *m) {
  if (!cuemu__user_marker(line, n, r->skip, r->nskip, m))
    return 0;
  /* A file's first marker says whose it is; files not the user's that
   * the flag never named (<built-in>, the skipped folders) need no
   * entry. */
  if (m->system || m->user) {
    const cuemu_marker_file *f =
        file_entry(r, m->file, m->file_len, m->system);
    if (f && f->system && !m->system)
      m->user = 0;
  }
  return 1;
}

void cuemu__marker_reader_free(cuemu_marker_reader *r) {
  for (size_t i = 0; i < r->cap; ++i)
    free(r->files[i].name);
  free(r->files);
  r->files = NULL;
  r->cap = r->count = 0;
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
