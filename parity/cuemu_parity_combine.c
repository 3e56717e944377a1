/*
 * cuemu_parity_combine.c: cuemu-parity --one-module. The kernels of the
 * cases that have the same options are compiled as one module, once, before
 * the cases run, instead of one module a source: a build with the checkers
 * costs seconds of compiler time however small the kernel, so 17 examples
 * built as one cost about a fifth of 17 built alone. The module includes
 * each source in turn, its own macros undefined after it; a case loads
 * its kernel from that module by name. Sources that do not compile
 * together (two that define one name) are built alone, as without the
 * option, so that each case's report is still its own.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_parity_internal.h"

/* A growing list of strings. */
typedef struct strings {
  char **s;
  int n, cap;
} strings;

static int strings_add(strings *l, const char *s) {
  if (l->n + 2 > l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    char **grown = realloc(l->s, (size_t)cap * sizeof *grown);
    if (!grown)
      return -1;
    l->s = grown;
    l->cap = cap;
  }
  if (!(l->s[l->n] = strdup(s)))
    return -1;
  l->s[++l->n] = NULL;
  return 0;
}

static int strings_has(const strings *l, const char *s) {
  for (int i = 0; i < l->n; ++i)
    if (strcmp(l->s[i], s) == 0)
      return 1;
  return 0;
}

static void strings_free(strings *l) {
  for (int i = 0; i < l->n; ++i)
    free(l->s[i]);
  free(l->s);
  memset(l, 0, sizeof *l);
}

/* Whether two cases are compiled with the same options. */
static int same_options(const cuemu_parity_case *a, const cuemu_parity_case *b) {
  if (a->noptions != b->noptions)
    return 0;
  for (int i = 0; i < a->noptions; ++i)
    if (strcmp(a->options[i], b->options[i]) != 0)
      return 0;
  return 1;
}

/* Appends to t an #undef for each macro that `file` defines, so that the
 * next source sees none of them. */
static void undefine_macros(cuemu__ptext *t, const char *file) {
  FILE *f = fopen(file, "r");
  char line[4096];
  strings seen = {0};
  while (f && fgets(line, sizeof line, f)) {
    const char *p = line;
    p += strspn(p, " \t");
    if (*p++ != '#')
      continue;
    p += strspn(p, " \t");
    if (strncmp(p, "define", 6) != 0 || (p[6] != ' ' && p[6] != '\t'))
      continue;
    p += 6;
    p += strspn(p, " \t");
    size_t len = 0;
    while (p[len] == '_' || (p[len] >= 'a' && p[len] <= 'z') ||
           (p[len] >= 'A' && p[len] <= 'Z') ||
           (len > 0 && p[len] >= '0' && p[len] <= '9'))
      len++;
    if (!len || len >= 256)
      continue;
    char name[256];
    memcpy(name, p, len);
    name[len] = '\0';
    if (!strings_has(&seen, name) && !strings_add(&seen, name))
      cuemu__ptext_add(t, "#undef %s\n", name);
  }
  if (f)
    fclose(f);
  strings_free(&seen);
}

/* FNV-1a of s: the combined source's name, the same for the same text, so
 * that the compile cache (whose key holds the source's path) knows it again
 * in the next run. */
static uint64_t text_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* Writes `text` to `path` through a temporary file in `tmp` and a rename,
 * so that a run beside this one never reads half of it. */
static int write_file(const char *path, const char *text, const char *tmp) {
  char part[PATH_MAX];
  snprintf(part, sizeof part, "%s/one-module.part", tmp);
  FILE *f = fopen(part, "w");
  if (!f)
    return -1;
  int bad = fputs(text, f) < 0;
  bad |= fclose(f) != 0;
  if (bad || rename(part, path) != 0) {
    unlink(part);
    return -1;
  }
  return 0;
}

/* Builds the group of cases whose `in` is set as one module numbered k;
 * adds the files it made to `made`. */
static void build_group(cuemu_parity_case **cases, int n, const char *in,
                        int k, const char *checks, const char *tmp,
                        strings *made) {
  strings sources = {0}, names = {0};
  int ncases = 0;
  cuemu__ptext t = {0};
  cuemu__ptext_add(&t, "// Made by cuemu-parity --one-module: the kernels of "
                       "several cases in one module.\n");
  for (int i = 0; i < n; ++i) {
    if (!in[i])
      continue;
    ncases++;
    char real[PATH_MAX];
    if (!realpath(cases[i]->source, real) || strings_has(&sources, real))
      continue;
    if (strings_add(&sources, real))
      goto out;
    cuemu__ptext_add(&t, "#include \"%s\"\n", real);
    undefine_macros(&t, real);
  }
  for (int i = 0; i < n; ++i)
    if (in[i] && strchr(cases[i]->kernel, '<') &&
        !strings_has(&names, cases[i]->kernel) &&
        strings_add(&names, cases[i]->kernel))
      goto out;
  if (sources.n < 2 || !t.s)
    goto out;
  const cuemu_parity_case *first = NULL;
  for (int i = 0; i < n && !first; ++i)
    if (in[i])
      first = cases[i];
  char source[PATH_MAX], module[PATH_MAX];
  snprintf(source, sizeof source, "/tmp/cuemu-parity-one-module-%016llx.cu",
           (unsigned long long)text_hash(t.s));
  snprintf(module, sizeof module, "%s/one-module-%d.so", tmp, k);
  if (write_file(source, t.s, tmp)) {
    fprintf(stderr, "cuemu-parity: --one-module: cannot write %s (%s); each "
                    "case compiles its own module\n",
            source, strerror(errno));
    goto out;
  }
  strings_add(made, source);
  char *why = NULL;
  cuemu_status st = cuemu__parity_emu_compile(
      source, first->options, first->noptions, (const char *const *)names.s,
      names.n, checks, module, &why);
  free(why);
  if (st != CUEMU_SUCCESS) {
    fprintf(stderr, "cuemu-parity: --one-module: the %d sources of %d cases "
                    "do not compile as one module (%s); each case compiles "
                    "its own\n",
            sources.n, ncases, cuemu_status_name(st));
    unlink(module);
    goto out;
  }
  strings_add(made, module);
  for (int i = 0; i < n; ++i)
    if (in[i] && !cases[i]->module)
      cases[i]->module = strdup(module);
  fprintf(stderr, "cuemu-parity: one module for %d cases (%d sources)\n",
          ncases, sources.n);
out:
  free(t.s);
  strings_free(&sources);
  strings_free(&names);
}

char **cuemu__parity_combine(cuemu_parity_case **cases, int n,
                             const char *checks, const char *tmp) {
  strings made = {0};
  char *done = calloc((size_t)n + 1, 1), *in = calloc((size_t)n + 1, 1);
  int groups = 0;
  for (int i = 0; done && in && i < n; ++i) {
    if (done[i] || !cases[i] || !cases[i]->source || !cases[i]->kernel)
      continue;
    memset(in, 0, (size_t)n);
    for (int j = i; j < n; ++j)
      if (!done[j] && cases[j] && cases[j]->source && cases[j]->kernel &&
          same_options(cases[i], cases[j]))
        in[j] = done[j] = 1;
    build_group(cases, n, in, groups++, checks, tmp, &made);
  }
  free(done);
  free(in);
  return made.s;
}
