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
 * 0x10" at the virtual call). This file reads the objects' symbols and
 * the archives' symbol indexes (the `/` or `/SYM64/` member of an `ar`
 * archive, thin or not: a thin one's members are the files it names,
 * cuemu__thin_member()), follows the members that the link pulls in (whose
 * own table references count too: a table that only another member
 * references) and lists the tables that an index defines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"

/* The names of the link's symbols (a hash set), each with what the
 * objects and the archive members read so far tell of it. */
enum { NAME_DEFINED = 1, NAME_UNDEFINED = 2, NAME_TABLE = 4, NAME_LISTED = 8 };
typedef struct names {
  char **v;
  unsigned char *flags;
  size_t n, cap;
  size_t *slot; /* index + 1, 0: empty */
  size_t nslots;
} names;

static size_t hash(const char *s) {
  size_t h = 5381;
  while (*s)
    h = h * 33 + (unsigned char)*s++;
  return h;
}

/* The index of `name` in set, or (size_t)-1. */
static size_t find_name(const names *set, const char *name, size_t length) {
  if (!set->nslots)
    return (size_t)-1;
  char key[4096];
  if (length >= sizeof key)
    return (size_t)-1;
  memcpy(key, name, length);
  key[length] = '\0';
  for (size_t h = hash(key) & (set->nslots - 1);; h = (h + 1) & (set->nslots - 1)) {
    if (!set->slot[h])
      return (size_t)-1;
    if (strcmp(set->v[set->slot[h] - 1], key) == 0)
      return set->slot[h] - 1;
  }
}

static cuemu_status grow(names *set) {
  size_t nslots = set->nslots ? 2 * set->nslots : 256;
  size_t *slot = calloc(nslots, sizeof *slot);
  if (!slot)
    return CUEMU_OUT_OF_MEMORY;
  for (size_t i = 0; i < set->n; ++i) {
    size_t h = hash(set->v[i]) & (nslots - 1);
    while (slot[h])
      h = (h + 1) & (nslots - 1);
    slot[h] = i + 1;
  }
  free(set->slot);
  set->slot = slot;
  set->nslots = nslots;
  return CUEMU_SUCCESS;
}

/* Adds to the set what the objects and members tell of a symbol
 * (cuemu__elf_link_symbols()). */
static cuemu_status note_symbol(void *ctx, const char *name, int kind) {
  names *set = ctx;
  size_t i = find_name(set, name, strlen(name));
  if (i == (size_t)-1) {
    if (2 * (set->n + 1) > set->nslots && grow(set) != CUEMU_SUCCESS)
      return CUEMU_OUT_OF_MEMORY;
    if (set->n == set->cap) {
      size_t cap = set->cap ? 2 * set->cap : 256;
      char **v = realloc(set->v, cap * sizeof *v);
      if (!v)
        return CUEMU_OUT_OF_MEMORY;
      set->v = v;
      unsigned char *flags = realloc(set->flags, cap);
      if (!flags)
        return CUEMU_OUT_OF_MEMORY;
      set->flags = flags;
      set->cap = cap;
    }
    if (!(set->v[set->n] = strdup(name)))
      return CUEMU_OUT_OF_MEMORY;
    set->flags[set->n] = 0;
    size_t h = hash(name) & (set->nslots - 1);
    while (set->slot[h])
      h = (h + 1) & (set->nslots - 1);
    set->slot[h] = set->n + 1;
    i = set->n++;
  }
  set->flags[i] |= kind == CUEMU_LINK_DEFINED     ? NAME_DEFINED
                   : kind == CUEMU_LINK_UNDEFINED ? NAME_UNDEFINED
                                                  : NAME_TABLE;
  return CUEMU_SUCCESS;
}

/* Reads the big-endian number of `width` bytes at p. */
static unsigned long long big_endian(const unsigned char *p, int width) {
  unsigned long long v = 0;
  for (int i = 0; i < width; ++i)
    v = v << 8 | p[i];
  return v;
}

/* An archive of the link: its symbol index, and the members read. */
typedef struct archive {
  char *path;
  int thin;    /* a thin archive: its members are other files */
  int width;   /* of the index's numbers: 4 or 8 */
  unsigned char *index;
  unsigned long long size, count;
  unsigned long long *read; /* the offsets of the members read */
  size_t nread;
} archive;

/* Reads the symbol index of the archive at `path` into a (the `/` or
 * `/SYM64/` member of an `ar` archive, thin or not); 0 when it has none
 * (an unreadable file, not an archive, no index). */
static int open_archive(const char *path, archive *a) {
  memset(a, 0, sizeof *a);
  FILE *f = fopen(path, "rbe");
  if (!f)
    return 0;
  char magic[8];
  unsigned char header[60];
  if (fread(magic, 1, 8, f) != 8 ||
      (memcmp(magic, "!<arch>\n", 8) != 0 &&
       memcmp(magic, "!<thin>\n", 8) != 0) ||
      fread(header, 1, sizeof header, f) != sizeof header) {
    fclose(f);
    return 0;
  }
  a->thin = memcmp(magic, "!<thin>\n", 8) == 0;
  /* The index is the first member: "/" (32-bit words) or "/SYM64/". */
  a->width = memcmp(header, "/ ", 2) == 0         ? 4
             : memcmp(header, "/SYM64/ ", 8) == 0 ? 8
                                                   : 0;
  char digits[11];
  memcpy(digits, header + 48, 10);
  digits[10] = '\0';
  a->size = strtoull(digits, NULL, 10);
  if (a->width && a->size >= (unsigned long long)a->width &&
      a->size < (1ull << 31) && (a->index = malloc(a->size)) &&
      fread(a->index, 1, a->size, f) == a->size) {
    a->count = big_endian(a->index, a->width);
    if (a->count >= a->size / (unsigned long long)a->width)
      a->count = 0;
  } else {
    a->count = 0;
  }
  fclose(f);
  if (!a->count) {
    free(a->index);
    a->index = NULL;
    return 0;
  }
  a->path = strdup(path);
  return a->path != NULL;
}

/* Reads the member at `offset` of archive a into the set, once; *read set
 * when it was not read before. */
static cuemu_status read_member(archive *a, unsigned long long offset,
                                names *set, int *read) {
  for (size_t i = 0; i < a->nread; ++i)
    if (a->read[i] == offset)
      return CUEMU_SUCCESS;
  unsigned long long *grown = realloc(a->read, (a->nread + 1) * sizeof *grown);
  if (!grown)
    return CUEMU_OUT_OF_MEMORY;
  a->read = grown;
  a->read[a->nread++] = offset;
  *read = 1;
  if (a->thin) {
    /* The member is the file that the archive names. */
    char *member = cuemu__thin_member(a->path, offset);
    cuemu_status st = member ? cuemu__elf_link_symbols(member, 0, 0,
                                                       note_symbol, set)
                             : CUEMU_SUCCESS;
    free(member);
    return st;
  }
  FILE *f = fopen(a->path, "rbe");
  unsigned char header[60];
  int ok = f && fseeko(f, (off_t)offset, SEEK_SET) == 0 &&
           fread(header, 1, sizeof header, f) == sizeof header;
  if (f)
    fclose(f);
  if (!ok)
    return CUEMU_SUCCESS;
  char digits[11];
  memcpy(digits, header + 48, 10);
  digits[10] = '\0';
  size_t size = (size_t)strtoull(digits, NULL, 10);
  return size ? cuemu__elf_link_symbols(a->path, (long long)offset + 60, size,
                                        note_symbol, set)
              : CUEMU_SUCCESS;
}

/* One pass over the index of archive a: calls each() for the tables that
 * the objects and the members read reference and a defines (once each), and
 * reads the members that define them or a strong reference no one
 * defines, as ld pulls them; *read set when a member was read. */
static cuemu_status scan_archive(archive *a, names *set,
                                 cuemu_status (*each)(void *, const char *),
                                 void *ctx, int *read) {
  const int width = a->width;
  const char *p = (const char *)a->index + (a->count + 1) * width;
  const char *end = (const char *)a->index + a->size;
  cuemu_status st = CUEMU_SUCCESS;
  for (unsigned long long k = 0; k < a->count && p < end && st == CUEMU_SUCCESS;
       ++k) {
    size_t length = strnlen(p, (size_t)(end - p));
    size_t i = find_name(set, p, length);
    p += length + 1;
    if (i == (size_t)-1)
      continue;
    const unsigned char flags = set->flags[i];
    const int table = flags & NAME_TABLE;
    if (!table && !((flags & NAME_UNDEFINED) && !(flags & NAME_DEFINED)))
      continue;
    if (table && !(flags & NAME_LISTED)) {
      set->flags[i] |= NAME_LISTED;
      st = each(ctx, set->v[i]);
    }
    if (st == CUEMU_SUCCESS)
      st = read_member(a, big_endian(a->index + (k + 1) * width, width), set,
                       read);
  }
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
char *cuemu__link_archive(const char *const *link, int m, const char *name) {
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

/* Reads into *set the symbols of the link's objects (the files that end
 * in .o) and of the archive members that the link pulls in, calling
 * each(ctx, NAME) for the device virtual tables that an archive defines
 * (see cuemu__archive_vtable_pulls()). */
static cuemu_status link_names(names *set, const char *const *files, int n,
                               const char *const *link, int m,
                               cuemu_status (*each)(void *ctx, const char *name),
                               void *ctx) {
  archive *archives = NULL;
  size_t narchives = 0;
  cuemu_status st = CUEMU_SUCCESS;
  for (int i = 0; i < n && st == CUEMU_SUCCESS; ++i)
    if (ends_with(files[i], ".o") && exists(files[i]))
      st = cuemu__elf_link_symbols(files[i], 0, 0, note_symbol, set);
  /* The archives in the link's order: the .a inputs, then the -l ones. */
  for (int i = 0; i < n + m && st == CUEMU_SUCCESS; ++i) {
    char *path = NULL;
    if (i < n) {
      if (!ends_with(files[i], ".a"))
        continue;
      path = strdup(files[i]);
    } else {
      const char *word = link[i - n];
      if (strncmp(word, "-Xlinker", 8) == 0) {
        ++i; /* its word is the linker's */
        continue;
      }
      if (strncmp(word, "-l", 2) != 0 || !word[2])
        continue;
      path = cuemu__link_archive(link, m, word + 2);
    }
    archive a;
    if (path && open_archive(path, &a)) {
      archive *grown = realloc(archives, (narchives + 1) * sizeof *grown);
      if (grown) {
        archives = grown;
        archives[narchives++] = a;
      } else {
        free(a.index);
        free(a.path);
        st = CUEMU_OUT_OF_MEMORY;
      }
    }
    free(path);
  }
  /* Until no member is read: a member pulled in (by a table, or by a
   * function that the link's code calls) may reference the table of a
   * class whose virtual members another member defines. */
  for (int read = 1; read && st == CUEMU_SUCCESS && set->n;) {
    read = 0;
    for (size_t k = 0; k < narchives && st == CUEMU_SUCCESS; ++k)
      st = scan_archive(&archives[k], set, each, ctx, &read);
  }
  for (size_t k = 0; k < narchives; ++k) {
    free(archives[k].index);
    free(archives[k].path);
    free(archives[k].read);
  }
  free(archives);
  return st;
}

static void free_names(names *set) {
  for (size_t i = 0; i < set->n; ++i)
    free(set->v[i]);
  free(set->v);
  free(set->flags);
  free(set->slot);
}

cuemu_status cuemu__archive_vtable_pulls(const char *const *files, int n,
                                         const char *const *link, int m,
                                         cuemu_status (*each)(void *ctx,
                                                              const char *name),
                                         void *ctx) {
  names set = {0};
  cuemu_status st = link_names(&set, files, n, link, m, each, ctx);
  free_names(&set);
  if (st == CUEMU_OUT_OF_MEMORY)
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  return st;
}

static cuemu_status no_table(void *ctx, const char *name) {
  (void)ctx;
  (void)name;
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__archive_undefined(
    const char *const *files, int n, const char *const *link, int m,
    cuemu_status (*each)(void *ctx, const char *name), void *ctx) {
  names set = {0};
  cuemu_status st = link_names(&set, files, n, link, m, no_table, NULL);
  for (size_t i = 0; i < set.n && st == CUEMU_SUCCESS; ++i)
    if ((set.flags[i] & NAME_UNDEFINED) && !(set.flags[i] & NAME_DEFINED))
      st = each(ctx, set.v[i]);
  free_names(&set);
  if (st == CUEMU_OUT_OF_MEMORY)
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  return st;
}
