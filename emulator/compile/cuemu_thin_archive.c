/*
 * cuemu_thin_archive.c: the members of a thin archive (`ar rcT`), which are
 * other files that the archive names: the link's readers of archive
 * members (cuemu_archive_pulls.c's virtual tables, cuemu_shared_reach.c's
 * static shared memory) read those files, as ld and nvlink do.
 *
 * A thin archive keeps its symbol index ("/" or "/SYM64/") and its long
 * names ("//") as an ordinary archive does, and for each member a header
 * alone, whose name is "/OFFSET" into the long names ("dir/a.o/\n") or
 * "NAME/": a path relative to the archive's folder, or an absolute one.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"

/* The size in the ar header `header` (its ten digits at 48). */
static unsigned long long header_size(const unsigned char *header) {
  char digits[11];
  memcpy(digits, header + 48, 10);
  digits[10] = '\0';
  return strtoull(digits, NULL, 10);
}

/* The long names of the thin archive open as f (its "//" member, to
 * free; *size its length), or NULL: none. */
static char *long_names(FILE *f, unsigned long long *size) {
  unsigned char header[60];
  unsigned long long at = 8;
  while (fseeko(f, (off_t)at, SEEK_SET) == 0 &&
         fread(header, 1, sizeof header, f) == sizeof header &&
         header[0] == '/') {
    unsigned long long n = header_size(header);
    if (header[1] == '/' && header[2] == ' ') {
      char *names = n < (1ull << 30) ? malloc(n + 1) : NULL;
      if (names && fread(names, 1, n, f) == n) {
        names[n] = '\0';
        *size = n;
        return names;
      }
      free(names);
      return NULL;
    }
    if (header[1] != ' ' && memcmp(header, "/SYM64/", 7) != 0)
      break; /* a member named by its offset: no "//" before it */
    at += 60 + n + (n & 1);
  }
  return NULL;
}

char *cuemu__thin_member(const char *archive, unsigned long long offset) {
  FILE *f = fopen(archive, "rbe");
  if (!f)
    return NULL;
  unsigned char header[60];
  char name[4096];
  size_t n = 0;
  int ok = fseeko(f, (off_t)offset, SEEK_SET) == 0 &&
           fread(header, 1, sizeof header, f) == sizeof header;
  if (ok && header[0] == '/' && header[1] >= '0' && header[1] <= '9') {
    unsigned long long size = 0;
    char *names = long_names(f, &size);
    unsigned long long at = strtoull((const char *)header + 1, NULL, 10);
    ok = names && at < size;
    if (ok) {
      /* Each name ends with "/\n". */
      const char *end = strstr(names + at, "/\n");
      n = end ? (size_t)(end - (names + at)) : strlen(names + at);
      ok = n && n < sizeof name;
      if (ok)
        memcpy(name, names + at, n);
    }
    free(names);
  } else if (ok) {
    while (n < 16 && header[n] != '/' && header[n] != ' ')
      ++n;
    memcpy(name, header, n);
    ok = n > 0 && header[0] != '/';
  }
  fclose(f);
  if (!ok)
    return NULL;
  name[n] = '\0';
  char *path = NULL;
  const char *slash = strrchr(archive, '/');
  if (name[0] == '/' || !slash)
    path = strdup(name);
  else if (asprintf(&path, "%.*s/%s", (int)(slash - archive), archive,
                    name) < 0)
    path = NULL;
  return path;
}

unsigned long long cuemu__archive_next(const unsigned char *header,
                                       unsigned long long at, int thin) {
  unsigned long long size = header_size(header);
  /* A thin archive holds the data of its index and long names alone. */
  int data = !thin || (header[0] == '/' && (header[1] == ' ' ||
                                            header[1] == '/' ||
                                            header[1] == 'S'));
  return at + 60 + (data ? size + (size & 1) : 0);
}
