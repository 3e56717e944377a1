/*
 * cuemu_deps_merge.c: the dependencies of a .cu file, as nvcc gives them.
 *
 * nvcc's -M (and -MD, -MM, -MMD) preprocesses the file twice, for the
 * device (with __CUDA_ARCH__) and for the host, and lists the union: the
 * device pass's files in order, then those only the host pass read
 * (`nvcc -M --dryrun` shows the two runs and a "Filter Dependencies"
 * step). cuemu-nvcc does the same with the compiler's own -M output of each
 * pass, merged here, and writes it in nvcc's layout (one file a line).
 */
#define _GNU_SOURCE
#include "cuemu_driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cuemu_report.h"

typedef struct dep_list {
  char **v;
  int n, cap;
} dep_list;

static int seen(const dep_list *l, const char *s) {
  for (int i = 0; i < l->n; ++i)
    if (strcmp(l->v[i], s) == 0)
      return 1;
  return 0;
}

static int push(dep_list *l, char *s) {
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 64;
    char **grown = realloc(l->v, (size_t)cap * sizeof *grown);
    if (!grown)
      return -1;
    l->v = grown;
    l->cap = cap;
  }
  l->v[l->n++] = s;
  return 0;
}

/* Adds the prerequisites of the make rule in file `path` (the compiler's
 * -M output: `target: a b \` lines; a space in a name is `\ `) that are not
 * listed yet. */
static cuemu_status read_rule(const char *path, dep_list *l) {
  FILE *f = fopen(path, "re");
  if (!f)
    return cuemu__report(CUEMU_IO_ERROR, "cannot read %s", path);
  char *text = NULL;
  size_t size = 0;
  FILE *m = open_memstream(&text, &size);
  int ch;
  while (m && (ch = fgetc(f)) != EOF)
    fputc(ch, m);
  fclose(f);
  if (!m || fclose(m) != 0 || !text) {
    free(text);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  /* The prerequisites start after the first `: ` (the target is ours). */
  char *p = strstr(text, ": ");
  p = p ? p + 2 : text + size;
  while (*p) {
    if (*p == ' ' || *p == '\t' || *p == '\n' ||
        (*p == '\\' && p[1] == '\n')) {
      p += *p == '\\' ? 2 : 1;
      continue;
    }
    char *start = p;
    while (*p && !(*p == ' ' || *p == '\t' || *p == '\n' ||
                   (*p == '\\' && p[1] == '\n'))) {
      if (*p == '\\' && p[1])
        p++; /* an escaped character */
      p++;
    }
    char *word = strndup(start, (size_t)(p - start));
    if (!word || (!seen(l, word) ? push(l, word) : (free(word), 0)) != 0) {
      free(word);
      free(text);
      return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
    }
  }
  free(text);
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__deps_merge(const char *device, const char *host,
                               const char *target, int phony,
                               const char *out) {
  dep_list l = {0};
  cuemu_status st = read_rule(device, &l);
  if (st == CUEMU_SUCCESS)
    st = read_rule(host, &l);
  FILE *f = NULL;
  if (st == CUEMU_SUCCESS) {
    f = out ? fopen(out, "we") : stdout;
    if (!f)
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", out);
  }
  if (f) {
    fprintf(f, "%s :", target);
    for (int i = 0; i < l.n; ++i)
      fprintf(f, " %s%s", l.v[i], i + 1 < l.n ? " \\\n   " : "");
    fputc('\n', f);
    /* -MP: each header is a target of its own, so that a removed header
     * does not stop make. */
    for (int i = 1; phony && i < l.n; ++i)
      fprintf(f, "\n%s :\n", l.v[i]);
    if ((f == stdout ? fflush(f) : fclose(f)) != 0)
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s",
                         out ? out : "the standard output");
  }
  for (int i = 0; i < l.n; ++i)
    free(l.v[i]);
  free(l.v);
  return st;
}
