/*
 * cuemu_shared_reach.c: what the functions of relocatable device code
 * reach in other translation units, read at the link as nvlink reads it
 * (cuemu_driver.h): the static shared memory of a kernel's callees, and the
 * references that no input defines. Each -rdc unit's object keeps, in its
 * section cuemu_shared_reach, what each of its global functions reaches in
 * the unit (cuemu__elf_shared_calls()): its static __shared__ declarations
 * ("N FUNCTION ID BYTES"), its references to other objects' symbols ("C
 * FUNCTION NAME" for a function it calls, "D FUNCTION NAME" for another
 * reference: a variable's) and, for a kernel, its static shared memory in
 * the unit ("K FUNCTION 0 BYTES"). The link reads them from every object
 * and follows the references transitively.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"

/* One line of a summary: a declaration (callee NULL), a reference (`data`
 * for a "D" line's), or a kernel's static shared memory in its unit
 * (kernel set, in bytes); `object` indexes the names of the objects read
 * (reach_lines' `objects`). */
typedef struct reach_line {
  char *function, *callee;
  unsigned long long id, bytes;
  int kernel, data;
  size_t object;
} reach_line;

/* The lines read, and the objects they come from as nvlink names them: an
 * object's path, or ARCHIVE:MEMBER; `member` set for an archive's. */
typedef struct reach_lines {
  reach_line *v;
  size_t n, cap;
  char **objects;
  unsigned char *member;
  size_t nobjects;
} reach_lines;

/* Adds the name of the object whose lines come next (to own) to l; 0 when
 * out of memory. */
static int add_object(reach_lines *l, char *name, int member) {
  char **grown = name ? realloc(l->objects, (l->nobjects + 1) * sizeof *grown)
                      : NULL;
  unsigned char *marks =
      grown ? realloc(l->member, l->nobjects + 1) : NULL;
  if (grown)
    l->objects = grown;
  if (!marks) {
    free(name);
    return 0;
  }
  l->member = marks;
  l->objects[l->nobjects] = name;
  l->member[l->nobjects++] = (unsigned char)member;
  return 1;
}

static void free_lines(reach_lines *l) {
  for (size_t k = 0; k < l->n; ++k) {
    free(l->v[k].function);
    free(l->v[k].callee);
  }
  for (size_t k = 0; k < l->nobjects; ++k)
    free(l->objects[k]);
  free(l->v);
  free(l->objects);
  free(l->member);
}

/* Reads `size` bytes at `offset` of f into a new buffer (NULL: failed). */
static char *read_at(FILE *f, unsigned long long offset, size_t size) {
  char *data = size && size < (1u << 30) ? malloc(size) : NULL;
  if (data && (fseeko(f, (off_t)offset, SEEK_SET) != 0 ||
               fread(data, 1, size, f) != size)) {
    free(data);
    data = NULL;
  }
  return data;
}

/* The contents of the section cuemu_shared_reach of the relocatable ELF
 * object at `path` (its length into *length; to free), or NULL: none, or
 * not such an object. Reads the headers and that section alone. */
static char *reach_section(const char *path, unsigned long long base,
                           size_t *length) {
  FILE *f = fopen(path, "rbe");
  if (!f)
    return NULL;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh = NULL;
  char *strings = NULL, *found = NULL;
  if (fseeko(f, (off_t)base, SEEK_SET) != 0 ||
      fread(&eh, 1, sizeof eh, f) != sizeof eh ||
      memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_type != ET_REL ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff == 0)
    goto done;
  Elf64_Shdr zero;
  if (fseeko(f, (off_t)(base + eh.e_shoff), SEEK_SET) != 0 ||
      fread(&zero, 1, sizeof zero, f) != sizeof zero)
    goto done;
  /* Objects with many sections keep the counts in section 0. */
  size_t count = eh.e_shnum ? eh.e_shnum : zero.sh_size;
  size_t names = eh.e_shstrndx == SHN_XINDEX ? zero.sh_link : eh.e_shstrndx;
  if (!count || names >= count || count > (1u << 24))
    goto done;
  sh = (Elf64_Shdr *)read_at(f, base + eh.e_shoff, count * sizeof *sh);
  strings =
      sh ? read_at(f, base + sh[names].sh_offset, sh[names].sh_size) : NULL;
  for (size_t i = 1; strings && i < count && !found; ++i)
    if (sh[i].sh_name < sh[names].sh_size &&
        strncmp(strings + sh[i].sh_name, "cuemu_shared_reach",
                sh[names].sh_size - sh[i].sh_name) == 0 &&
        sh[i].sh_type != SHT_NOBITS &&
        (found = read_at(f, base + sh[i].sh_offset, sh[i].sh_size)))
      *length = sh[i].sh_size;
done:
  free(sh);
  free(strings);
  fclose(f);
  return found;
}

/* Adds the lines of the summary text [p, end) to l; 0 when out of memory. */
static int parse(const char *p, const char *end, reach_lines *l) {
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    char *line = strndup(p, (size_t)(stop - p));
    if (!line)
      return 0;
    char kind, *function = NULL, *other = NULL;
    unsigned long long id = 0, bytes = 0;
    int ok = sscanf(line, "%c %ms %ms %llu", &kind, &function, &other,
                    &bytes) >= 3;
    free(line);
    if (ok && (kind == 'N' || kind == 'K'))
      id = strtoull(other, NULL, 10);
    if (ok && (kind == 'N' || kind == 'C' || kind == 'D' || kind == 'K')) {
      if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        reach_line *grown = realloc(l->v, cap * sizeof *grown);
        if (!grown) {
          free(function);
          free(other);
          return 0;
        }
        l->v = grown;
        l->cap = cap;
      }
      if (kind != 'C' && kind != 'D') {
        free(other);
        other = NULL;
      }
      l->v[l->n++] = (reach_line){function, other,     id,
                                  bytes,    kind == 'K', kind == 'D',
                                  l->nobjects - 1};
    } else {
      free(function);
      free(other);
    }
    p = nl ? nl + 1 : end;
  }
  return 1;
}

/* Adds the summary of the object at `base` of `path` to l, named `name`
 * (to own; an archive's member when `member`); 0 when out of memory. */
static int read_object(const char *path, unsigned long long base,
                       reach_lines *l, char *name, int member) {
  size_t text = 0;
  char *section = reach_section(path, base, &text);
  int ok = !section || (add_object(l, name, member) &&
                        parse(section, section + text, l));
  if (!section)
    free(name);
  free(section);
  return ok;
}

/* ARCHIVE:MEMBER, the member's name read from its ar header `header` (or
 * from the archive's long names, `names` of `size` bytes, for "/OFFSET"),
 * or NULL when out of memory. Returns a string to free. */
static char *member_name(const char *archive, const unsigned char *header,
                         const char *names, size_t size) {
  const char *name = (const char *)header;
  size_t length = 16;
  if (header[0] == '/' && header[1] >= '0' && header[1] <= '9' && names) {
    unsigned long long at = strtoull((const char *)header + 1, NULL, 10);
    name = at < size ? names + at : "";
    length = at < size ? size - at : 0;
  }
  size_t end = 0;
  while (end < length && name[end] != '/' && name[end] != '\n' &&
         !(name == (const char *)header && name[end] == ' '))
    ++end;
  char *joined = NULL;
  return asprintf(&joined, "%s:%.*s", archive, (int)end, name) < 0 ? NULL
                                                                     : joined;
}

/* Adds the summaries of the members of the archive at `path` to l (a thin
 * archive's members are the files it names: cuemu__thin_member()); 0 when
 * out of memory. */
static int read_archive(const char *path, reach_lines *l) {
  FILE *f = fopen(path, "rbe");
  if (!f)
    return 1;
  char magic[8], *names = NULL;
  size_t names_size = 0;
  unsigned char header[60];
  unsigned long long at = 8;
  int ok = 1;
  const int thin = fread(magic, 1, 8, f) == 8 &&
                   memcmp(magic, "!<thin>\n", 8) == 0;
  if (thin || memcmp(magic, "!<arch>\n", 8) == 0)
    while (ok && fseeko(f, (off_t)at, SEEK_SET) == 0 &&
           fread(header, 1, sizeof header, f) == sizeof header) {
      if (header[0] == '/' && header[1] == '/' && !names) {
        /* The long names of the members ("//"). */
        char digits[11];
        memcpy(digits, header + 48, 10);
        digits[10] = '\0';
        names_size = (size_t)strtoull(digits, NULL, 10);
        names = read_at(f, at + 60, names_size);
      } else if (header[0] != '/' || (header[1] != ' ' && header[1] != '/' &&
                                      header[1] != 'S')) {
        /* Not the symbol indexes ("/", "/SYM64/") nor the long names. */
        char *member = thin ? cuemu__thin_member(path, at) : NULL;
        char *name = member_name(path, header, names, names_size);
        if (!name)
          ok = 0;
        else if (!thin)
          ok = read_object(path, at + 60, l, name, 1);
        else if (member)
          ok = read_object(member, 0, l, name, 1);
        else
          free(name);
        free(member);
      }
      at = cuemu__archive_next(header, at, thin);
    }
  free(names);
  fclose(f);
  return ok;
}

/* Reads the summaries of the link's objects (`files`, n: those ending in
 * .o, and the members of those ending in .a and of the archives that the
 * link options `link`, m words, name with -l) into l, in the link's order.
 * Returns SUCCESS or OUT_OF_MEMORY. */
static cuemu_status read_link(const char *const *files, int n,
                              const char *const *link, int m,
                              reach_lines *l) {
  for (int i = 0; i < n; ++i) {
    size_t length = strlen(files[i]);
    int ok = 1;
    if (length >= 2 && strcmp(files[i] + length - 2, ".o") == 0)
      ok = read_object(files[i], 0, l, strdup(files[i]), 0);
    else if (length >= 2 && strcmp(files[i] + length - 2, ".a") == 0)
      ok = read_archive(files[i], l);
    if (!ok)
      return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  for (int i = 0; i < m; ++i) {
    if (strcmp(link[i], "-Xlinker") == 0) {
      ++i; /* its word is the linker's */
      continue;
    }
    if (strncmp(link[i], "-l", 2) != 0 || !link[i][2])
      continue;
    char *archive = cuemu__link_archive(link, m, link[i] + 2);
    int ok = !archive || read_archive(archive, l);
    free(archive);
    if (!ok)
      return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  return CUEMU_SUCCESS;
}

static int by_function(const void *a, const void *b) {
  return strcmp(((const reach_line *)a)->function,
                ((const reach_line *)b)->function);
}

/* The index of the first line of `name` in the sorted lines, or l->n. */
static size_t first_of(const reach_lines *l, const char *name) {
  size_t lo = 0, hi = l->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(l->v[mid].function, name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < l->n && strcmp(l->v[lo].function, name) == 0 ? lo : l->n;
}

/* Writes the records of `function` (its lines start at `from`): the
 * declarations of the functions it reaches through other objects, whose
 * bytes it adds to *bytes. */
static cuemu_status records_of(const reach_lines *l, size_t from,
                               unsigned char *mark, size_t *queue,
                               FILE **out, const char *source, int *count,
                               unsigned long long *bytes) {
  const char *function = l->v[from].function;
  size_t head = 0, tail = 0;
  memset(mark, 0, l->n);
  mark[from] = 1;
  queue[tail++] = from;
  cuemu_status st = CUEMU_SUCCESS;
  while (head < tail && st == CUEMU_SUCCESS) {
    size_t start = queue[head++];
    for (size_t k = start;
         k < l->n && strcmp(l->v[k].function, l->v[start].function) == 0; ++k) {
      const reach_line *r = &l->v[k];
      if (r->kernel)
        continue;
      if (!r->callee) {
        if (start == from)
          continue; /* the function's own unit recorded these */
        int repeated = 0;
        for (size_t q = 0; q < k && !repeated; ++q)
          repeated = mark[q] == 2 && !l->v[q].callee && l->v[q].id == r->id;
        if (repeated)
          continue;
        mark[k] = 2;
        if (!*out && !(*out = fopen(source, "we")))
          return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", source,
                               strerror(errno));
        if (!*count)
          fputs("\t.section cuemu_static_shared_calls,\"aw\"\n\t.balign 8\n",
                *out);
        fprintf(*out, "\t.weak \"%s\"\n\t.quad \"%s\", %llu, %llu\n",
                function, function, r->id, r->bytes);
        ++*count;
        *bytes += r->bytes;
        continue;
      }
      size_t callee = first_of(l, r->callee);
      if (callee < l->n && !mark[callee]) {
        mark[callee] = 1;
        queue[tail++] = callee;
      }
    }
  }
  return st;
}

cuemu_status cuemu__shared_reach_source(const char *const *files, int n,
                                        const char *const *link, int m,
                                        const char *source, int *count) {
  reach_lines l = {0};
  *count = 0;
  cuemu_status st = read_link(files, n, link, m, &l);
  int crosses = 0;
  if (l.n)
    qsort(l.v, l.n, sizeof *l.v, by_function);
  for (size_t k = 0; k < l.n && !crosses; ++k)
    crosses = l.v[k].callee && first_of(&l, l.v[k].callee) < l.n;
  unsigned char *mark = crosses ? malloc(l.n) : NULL;
  size_t *queue = crosses ? malloc(l.n * sizeof *queue) : NULL;
  if (crosses && (!mark || !queue) && st == CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  FILE *out = NULL;
  /* nvlink's limit on a kernel's static shared memory: a line for each
   * kernel past it, as nvlink prints them. */
  char *message = NULL;
  size_t length = 0;
  FILE *lines = crosses ? open_memstream(&message, &length) : NULL;
  /* Each function that references another object's function that the
   * summaries know. */
  for (size_t k = 0; crosses && st == CUEMU_SUCCESS && k < l.n;) {
    size_t next = k;
    int reaches = 0;
    unsigned long long own = 0, bytes = 0;
    const char *kernel = NULL;
    while (next < l.n && strcmp(l.v[next].function, l.v[k].function) == 0) {
      reaches |= l.v[next].callee && first_of(&l, l.v[next].callee) < l.n;
      if (l.v[next].kernel) {
        kernel = l.v[next].function;
        own = l.v[next].bytes;
      }
      ++next;
    }
    if (reaches)
      st = records_of(&l, k, mark, queue, &out, source, count, &bytes);
    if (st == CUEMU_SUCCESS && kernel && lines && own + bytes > 0xc000)
      fprintf(lines,
              "%sEntry function '%s' uses too much shared data (0x%llx "
              "bytes, 0xc000 max), as nvlink refuses it",
              ftell(lines) ? "\n" : "", kernel, own + bytes);
    k = next;
  }
  if (lines && fclose(lines) == 0 && length && st == CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_COMPILE, "%s", message);
  free(message);
  if (out) {
    fputs("\t.section .note.GNU-stack,\"\",@progbits\n", out);
    if (fclose(out) != 0 && st == CUEMU_SUCCESS)
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", source);
  }
  free_lines(&l);
  free(mark);
  free(queue);
  return st;
}

/* Orders indexes of the lines `l` by function, then by index (qsort_r). */
static int by_function_index(const void *a, const void *b, void *l) {
  const reach_lines *lines = l;
  const size_t x = *(const size_t *)a, y = *(const size_t *)b;
  int c = strcmp(lines->v[x].function, lines->v[y].function);
  return c ? c : (x > y) - (x < y);
}

/* The position in `order` (n indexes of l's lines sorted by function) of
 * the first line of `name`, or n. */
static size_t first_in(const reach_lines *l, const size_t *order, size_t n,
                       const char *name) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(l->v[order[mid]].function, name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && strcmp(l->v[order[lo]].function, name) == 0 ? lo : n;
}

/* Marks in reached[] (by line) the functions that the kernels of the
 * link's objects reach, through the references of each function's lines
 * to other objects' functions; an archive's member that a reached line
 * names is linked (pulled[]), and its kernels reached in turn, as nvlink
 * links it. `queue` holds l->n entries. */
static void reach_kernels(const reach_lines *l, const size_t *order,
                          unsigned char *reached, unsigned char *pulled,
                          size_t *queue) {
  for (int more = 1; more;) {
    size_t head = 0, tail = 0;
    more = 0;
    /* The queue holds the first line (in `order`) of each function
     * reached, whose lines are all marked. */
    for (size_t k = 0; k < l->n; ++k)
      if (l->v[k].kernel && !reached[k] &&
          (!l->member[l->v[k].object] || pulled[l->v[k].object])) {
        size_t p = first_in(l, order, l->n, l->v[k].function);
        for (size_t q = p; q < l->n && strcmp(l->v[order[q]].function,
                                              l->v[k].function) == 0;
             ++q)
          reached[order[q]] = 1;
        queue[tail++] = p;
      }
    while (head < tail) {
      const size_t p = queue[head++];
      const char *function = l->v[order[p]].function;
      for (size_t q = p;
           q < l->n && strcmp(l->v[order[q]].function, function) == 0; ++q) {
        const reach_line *r = &l->v[order[q]];
        if (l->member[r->object] && !pulled[r->object])
          more = pulled[r->object] = 1;
        size_t c = r->callee ? first_in(l, order, l->n, r->callee) : l->n;
        if (c == l->n || reached[order[c]])
          continue;
        for (size_t d = c; d < l->n && strcmp(l->v[order[d]].function,
                                              r->callee) == 0;
             ++d)
          reached[order[d]] = 1;
        queue[tail++] = c;
      }
    }
  }
}

cuemu_status cuemu__reach_undefined(
    const char *const *files, int n, const char *const *link, int m,
    int (*undefined)(void *ctx, const char *name),
    cuemu_status (*each)(void *ctx, const char *name, const char *object),
    void *ctx) {
  reach_lines l = {0};
  cuemu_status st = read_link(files, n, link, m, &l);
  size_t *order = l.n ? malloc(l.n * sizeof *order) : NULL;
  size_t *queue = l.n ? malloc(l.n * sizeof *queue) : NULL;
  unsigned char *reached = l.n ? calloc(l.n, 1) : NULL;
  unsigned char *told = l.n ? calloc(l.n, 1) : NULL;
  unsigned char *pulled = l.nobjects ? calloc(l.nobjects, 1) : NULL;
  if (st == CUEMU_SUCCESS && l.n &&
      (!order || !queue || !reached || !told || !pulled))
    st = cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  if (st == CUEMU_SUCCESS && l.n) {
    for (size_t k = 0; k < l.n; ++k)
      order[k] = k;
    qsort_r(order, l.n, sizeof *order, by_function_index, &l);
    reach_kernels(&l, order, reached, pulled, queue);
  }
  /* Object by object, in the link's order: the functions that a reached
   * function calls, then the variables that any of the object's functions
   * references (nvlink drops the functions that no kernel reaches before
   * it looks for them, and keeps every variable), each name once, where it
   * is first referenced. */
  for (size_t o = 0; st == CUEMU_SUCCESS && o < l.nobjects; ++o) {
    if (l.member[o] && !pulled[o])
      continue;
    for (int data = 0; data < 2 && st == CUEMU_SUCCESS; ++data)
      for (size_t k = 0; k < l.n && st == CUEMU_SUCCESS; ++k) {
        const reach_line *r = &l.v[k];
        if (r->object != o || !r->callee || r->data != data ||
            (!data && !reached[k]) ||
            first_in(&l, order, l.n, r->callee) < l.n ||
            !undefined(ctx, r->callee))
          continue;
        int repeated = 0;
        for (size_t q = 0; q < l.n && !repeated; ++q)
          repeated = told[q] && strcmp(l.v[q].callee, r->callee) == 0;
        if (repeated)
          continue;
        told[k] = 1;
        st = each(ctx, r->callee, l.objects[o]);
      }
  }
  free(order);
  free(queue);
  free(reached);
  free(told);
  free(pulled);
  free_lines(&l);
  return st;
}
