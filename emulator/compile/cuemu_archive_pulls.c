/*
 * cuemu_archive_pulls.c: the device virtual tables that a link must name
 * undefined so that the -lib archive's member that defines them is linked,
 * as nvcc's device link links it (see cuemu_driver.h).
 *
 * A device pass of relocatable device code names its tables apart from the
 * host pass's (NAME.cuemu_device, NAME.cuemu_arch_800) and references them
 * weakly: host code that the device pass also compiles may name the table
 * of a class that no device pass defines. A weak reference pulls no
 * archive member in, so a class whose virtual members an archive's member
 * defines, used by another unit's device code only through its table, was
 * left out of the link (a null table: "invalid memory access at address
 * 0x10" at the virtual call). This file reads the objects' weak references
 * and the archives' symbol indexes (the `/` or `/SYM64/` member of an `ar`
 * archive, thin or not) and lists the names that both hold.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"

/* The weak references read from the objects: names, and whether listed. */
typedef struct wanted {
  char **names;
  unsigned char *listed;
  size_t n, cap;
} wanted;

static cuemu_status add_wanted(void *ctx, const char *name) {
  wanted *w = ctx;
  for (size_t i = 0; i < w->n; ++i)
    if (strcmp(w->names[i], name) == 0)
      return CUEMU_SUCCESS;
  if (w->n == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 16;
    char **names = realloc(w->names, cap * sizeof *names);
    if (!names)
      return CUEMU_OUT_OF_MEMORY;
    w->names = names;
    unsigned char *listed = realloc(w->listed, cap);
    if (!listed)
      return CUEMU_OUT_OF_MEMORY;
    w->listed = listed;
    w->cap = cap;
  }
  if (!(w->names[w->n] = strdup(name)))
    return CUEMU_OUT_OF_MEMORY;
  w->listed[w->n++] = 0;
  return CUEMU_SUCCESS;
}

/* Reads the big-endian number of `width` bytes at p. */
static unsigned long long big_endian(const unsigned char *p, int width) {
  unsigned long long v = 0;
  for (int i = 0; i < width; ++i)
    v = v << 8 | p[i];
  return v;
}

/* Calls each() for the names of w that the symbol index of the archive at
 * `path` defines and that are not listed yet. An unreadable file, or one
 * that is not an archive with an index, defines none. */
static cuemu_status scan_archive(const char *path, wanted *w,
                                 cuemu_status (*each)(void *, const char *),
                                 void *ctx) {
  FILE *f = fopen(path, "rbe");
  if (!f)
    return CUEMU_SUCCESS;
  char magic[8];
  unsigned char header[60];
  cuemu_status st = CUEMU_SUCCESS;
  if (fread(magic, 1, 8, f) != 8 ||
      (memcmp(magic, "!<arch>\n", 8) != 0 &&
       memcmp(magic, "!<thin>\n", 8) != 0) ||
      fread(header, 1, sizeof header, f) != sizeof header) {
    fclose(f);
    return CUEMU_SUCCESS;
  }
  /* The index is the first member: "/" (32-bit words) or "/SYM64/". */
  int width = memcmp(header, "/ ", 2) == 0         ? 4
              : memcmp(header, "/SYM64/ ", 8) == 0 ? 8
                                                    : 0;
  char digits[11];
  memcpy(digits, header + 48, 10);
  digits[10] = '\0';
  unsigned long long size = strtoull(digits, NULL, 10);
  unsigned char *index = NULL;
  if (width && size >= (unsigned long long)width && size < (1ull << 31) &&
      (index = malloc(size)) && fread(index, 1, size, f) == size) {
    unsigned long long count = big_endian(index, width);
    if (count < size / (unsigned long long)width) {
      const char *p = (const char *)index + (count + 1) * width;
      const char *end = (const char *)index + size;
      for (unsigned long long k = 0; k < count && p < end; ++k) {
        size_t length = strnlen(p, (size_t)(end - p));
        for (size_t i = 0; i < w->n && st == CUEMU_SUCCESS; ++i)
          if (!w->listed[i] && strlen(w->names[i]) == length &&
              memcmp(w->names[i], p, length) == 0) {
            w->listed[i] = 1;
            st = each(ctx, w->names[i]);
          }
        p += length + 1;
      }
    }
  }
  free(index);
  fclose(f);
  return st;
}

/* Non-zero when `path` ends with `suffix`. */
static int ends_with(const char *path, const char *suffix) {
  size_t a = strlen(path), b = strlen(suffix);
  return a >= b && strcmp(path + a - b, suffix) == 0;
}

/* Non-zero when `path` names a file. */
static int exists(const char *path) {
  FILE *f = fopen(path, "re");
  if (f)
    fclose(f);
  return f != NULL;
}

/* The archive that `-lNAME` (or `-l:FILE`) names among the -L folders of
 * `link`, as ld finds it (a shared library first), or NULL (none, or a
 * shared library). Returns a string to free. */
static char *find_archive(const char *const *link, int m, const char *name) {
  for (int i = 0; i < m; ++i) {
    if (strncmp(link[i], "-L", 2) != 0 || !link[i][2])
      continue;
    char *a = NULL, *so = NULL;
    int ok = name[0] == ':'
                 ? asprintf(&a, "%s/%s", link[i] + 2, name + 1) >= 0 &&
                       (so = strdup("")) != NULL
                 : asprintf(&a, "%s/lib%s.a", link[i] + 2, name) >= 0 &&
                       asprintf(&so, "%s/lib%s.so", link[i] + 2, name) >= 0;
    if (ok && *so && exists(so)) {
      free(a);
      free(so);
      return NULL;
    }
    free(so);
    if (ok && exists(a))
      return a;
    free(a);
  }
  return NULL;
}

cuemu_status cuemu__archive_vtable_pulls(const char *const *files, int n,
                                         const char *const *link, int m,
                                         cuemu_status (*each)(void *ctx,
                                                              const char *name),
                                         void *ctx) {
  wanted w = {0};
  cuemu_status st = CUEMU_SUCCESS;
  for (int i = 0; i < n && st == CUEMU_SUCCESS; ++i)
    if (ends_with(files[i], ".o") && exists(files[i]))
      st = cuemu__elf_weak_vtables(files[i], add_wanted, &w);
  for (int i = 0; i < n && st == CUEMU_SUCCESS && w.n; ++i)
    if (ends_with(files[i], ".a"))
      st = scan_archive(files[i], &w, each, ctx);
  for (int i = 0; i < m && st == CUEMU_SUCCESS && w.n; ++i) {
    if (strncmp(link[i], "-Xlinker", 8) == 0) {
      ++i; /* its word is the linker's */
      continue;
    }
    if (strncmp(link[i], "-l", 2) != 0 || !link[i][2])
      continue;
    char *archive = find_archive(link, m, link[i] + 2);
    if (archive)
      st = scan_archive(archive, &w, each, ctx);
    free(archive);
  }
  for (size_t i = 0; i < w.n; ++i)
    free(w.names[i]);
  free(w.names);
  free(w.listed);
  return st;
}
