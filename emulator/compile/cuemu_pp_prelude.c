/*
 * cuemu_pp_prelude.c: the preprocessing pass without the prelude's text
 * (see cuemu_pp_prelude.h).
 *
 * Each pass of cuemu-cc preprocesses the .cu file with the shims'
 * cuda_runtime.h force-included: 1.3 MB of the shims and of the system
 * headers they read (the prelude), the same for every file compiled with
 * the same flags, which the preprocessor went through again for each
 * (about 0.15 s of a small program's 1.3 s of processor time, per pass).
 * The compile cache now keeps, per set of flags, the prelude preprocessed
 * (its text, line markers included), the macros it leaves defined (each
 * with the file and line of its definition, and whether that file is a
 * system header, which decides how the preprocessor marks the tokens of
 * its expansions) and the headers it read. A pass then preprocesses the
 * .cu file with a header of those macros in the prelude's place, and the
 * prelude's text is put back into its output where the preprocessor
 * resumed the main file: the translation reads what it read before.
 *
 * What macros do not carry: a header the user includes again, which the
 * prelude had read, is entered again (its guard skips its text, so the
 * output has its line markers and nothing else); `#pragma once`,
 * `#pragma push_macro` and `#pragma GCC poison` state, so a prelude whose
 * headers use them is never shortened; `__COUNTER__`, whose value after
 * the prelude the macros' header restores; `__BASE_FILE__` in the prelude,
 * which would name another file (such a prelude is never shortened). A
 * prelude that prints anything (a warning about the user's -D, say) is
 * not shortened either, so that its messages are printed every time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_cache.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"
#include "cuemu_pp_prelude.h"

/* The first bytes of an entry (the cache's kind of entry, see
 * cuemu__cache_bound()); an empty entry says "run the command as it is". */
static const char magic[] = "cuemu-cc prelude 1";

/* The bounds on the cache's preprocessed preludes (about 1.5 MB each). */
#define PRELUDE_ENTRIES 96
#define PRELUDE_BYTES (256ull << 20)

/* A growing string. */
typedef struct text_buf {
  char *s;
  size_t n, cap;
  int failed;
} text_buf;

static void put(text_buf *b, const char *s, size_t n) {
  if (b->failed)
    return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + n + 1)
      cap *= 2;
    char *grown = realloc(b->s, cap);
    if (!grown) {
      b->failed = 1;
      return;
    }
    b->s = grown;
    b->cap = cap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
}

static void puts_(text_buf *b, const char *s) { put(b, s, strlen(s)); }

static int write_file(const char *path, const char *a, size_t na,
                      const char *b, size_t nb, const char *c, size_t nc) {
  FILE *f = fopen(path, "we");
  if (!f)
    return -1;
  int ok = fwrite(a, 1, na, f) == na && fwrite(b, 1, nb, f) == nb &&
           fwrite(c, 1, nc, f) == nc;
  return fclose(f) == 0 && ok ? 0 : -1;
}

static int append_file(const char *path, const char *a, size_t na) {
  FILE *f = fopen(path, "ae");
  if (!f)
    return -1;
  int ok = fwrite(a, 1, na, f) == na;
  return fclose(f) == 0 && ok ? 0 : -1;
}

/* Non-zero for a word of a preprocessing command that changes the form of
 * its output or state that the shortcut does not keep. */
static int unhandled(const char *a) {
  static const char *const words[] = {
      "-C", "-CC", "-P", "-H", "-M", "-MM", "-MMD", "-MG", "-MP", "-MT",
      "-MQ", "-fdirectives-only", "-fpch-preprocess", "-traditional",
      "-traditional-cpp", "-fworking-directory", "-Xpreprocessor", NULL};
  for (int i = 0; words[i]; ++i)
    if (strcmp(a, words[i]) == 0)
      return 1;
  return (a[0] == '-' && a[1] == 'd' && a[2] && !a[3]) ||
         strncmp(a, "-Wp,", 4) == 0 || strncmp(a, "-imacros", 8) == 0 ||
         strncmp(a, "-include", 8) == 0 || strncmp(a, "--include", 9) == 0 ||
         strncmp(a, "-save-temps", 11) == 0;
}

/* The words of a preprocessing command that the prelude's entry does not
 * depend on: its output, its dependency list, its source and the words of
 * the source's folder (its -iquote, the -fmacro-prefix-map of __FILE__). */
#define SOURCE_WORDS 4
typedef struct command {
  const char *const *argv;
  int n;
  int include; /* "-include" of the prelude */
  int output, depfile, source;
  int aside[SOURCE_WORDS]; /* the source's words, -1 where unused */
} command;

/* Whether word i of c is one of the source's words. */
static int is_aside(const command *c, int i) {
  for (int k = 0; k < SOURCE_WORDS; ++k)
    if (c->aside[k] == i)
      return 1;
  return 0;
}

/* Parses `argv` into *c; -1 when the shortcut does not apply. */
static int parse(command *c, const char *const *argv, const char *runtime,
                 const char *const *source_words) {
  memset(c, 0, sizeof *c);
  c->argv = argv;
  c->include = c->output = c->depfile = -1;
  for (int k = 0; k < SOURCE_WORDS; ++k)
    c->aside[k] = -1;
  if (!argv[0] || strstr(argv[0], "clang"))
    return -1;
  int n = 1;
  for (; argv[n]; ++n) {
    const char *a = argv[n];
    if (strcmp(a, "-include") == 0 && argv[n + 1] && c->include < 0 &&
        strcmp(argv[n + 1], runtime) == 0) {
      c->include = n++;
      continue;
    }
    if (strcmp(a, "-o") == 0 && argv[n + 1]) {
      c->output = ++n;
      continue;
    }
    if (strcmp(a, "-MF") == 0 && argv[n + 1]) {
      c->depfile = ++n;
      continue;
    }
    int k = 0;
    while (k < SOURCE_WORDS && source_words[k] &&
           (c->aside[k] >= 0 || strcmp(a, source_words[k]) != 0))
      ++k;
    if (k < SOURCE_WORDS && source_words[k]) {
      c->aside[k] = n;
      continue;
    }
    if (unhandled(a))
      return -1;
  }
  c->n = n;
  /* `-E -x c++ SOURCE -o OUTPUT` ends the command (cuemu_compile.c). */
  if (c->include < 0 || c->depfile < 0 || c->output != n - 1 || n < 7 ||
      strcmp(argv[n - 6], "-E") != 0 || strcmp(argv[n - 5], "-x") != 0 ||
      strcmp(argv[n - 4], "c++") != 0)
    return -1;
  c->source = n - 3;
  return 0;
}

/* ---- The entry's build ------------------------------------------------- */

/* One macro of the prelude's preprocessing: its last definition (NULL when
 * it was undefined last) with where it was made. */
typedef struct macro {
  const char *name;
  size_t name_len;
  const char *def; /* the `#define` line, without its newline */
  size_t def_len;
  const char *file; /* the file of the definition, as the marker writes it */
  size_t file_len;
  long line;
  int system;     /* 0, 3 (a system header) or 4 (one of C, in extern "C") */
  int predefined; /* defined by the compiler or the command line */
  int last_predefined; /* its last definition is the compiler's */
} macro;

typedef struct macro_table {
  macro *v;
  size_t n, cap;
  size_t *slots; /* open addressing: index + 1, 0 when empty */
  size_t nslots;
} macro_table;

static size_t name_hash(const char *s, size_t n) {
  size_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

/* The macro named `name`, added when missing; NULL without memory. */
static macro *lookup(macro_table *t, const char *name, size_t n) {
  if ((t->n + 1) * 2 > t->nslots) {
    size_t nslots = t->nslots ? t->nslots * 2 : 8192;
    size_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
      return NULL;
    for (size_t i = 0; i < t->n; ++i) {
      size_t s = name_hash(t->v[i].name, t->v[i].name_len) & (nslots - 1);
      while (slots[s])
        s = (s + 1) & (nslots - 1);
      slots[s] = i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
  }
  size_t s = name_hash(name, n) & (t->nslots - 1);
  for (; t->slots[s]; s = (s + 1) & (t->nslots - 1)) {
    macro *m = &t->v[t->slots[s] - 1];
    if (m->name_len == n && memcmp(m->name, name, n) == 0)
      return m;
  }
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 4096;
    macro *grown = realloc(t->v, cap * sizeof *grown);
    if (!grown)
      return NULL;
    t->v = grown;
    t->cap = cap;
  }
  macro *m = &t->v[t->n++];
  memset(m, 0, sizeof *m);
  m->name = name;
  m->name_len = n;
  t->slots[s] = t->n;
  return m;
}

static size_t ident_len(const char *p, const char *end) {
  size_t n = 0;
  while (p + n < end && (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') ||
                         (p[n] >= 'A' && p[n] <= 'Z') ||
                         (p[n] >= '0' && p[n] <= '9')))
    n++;
  return n;
}

/* Writes to `out` the header that defines, as the prelude left them, the
 * macros of `defs` (the prelude's `-dD` output, `size` bytes) that the
 * compiler and the command line do not define as they are: each
 * definition after a line marker of its file and line, and a predefined
 * macro that the prelude changed or removed #undef'd first. */
static int macros_header(const char *defs, size_t size, long counter,
                         text_buf *out) {
  macro_table t;
  memset(&t, 0, sizeof t);
  const char *file = "", *flags = "";
  size_t file_len = 0, flags_len = 0;
  long line = 1;
  int predefined = 1, system = 0, ok = 1;
  static const char predef[] = "/stdc-predef.h";
  for (const char *p = defs, *end; ok && p < defs + size; p = end + 1) {
    end = memchr(p, '\n', (size_t)(defs + size - p));
    if (!end)
      end = defs + size;
    const char *f;
    size_t len;
    int enter, sys;
    if (cuemu__line_marker(p, end, &f, &len, &enter, &sys)) {
      file = f;
      file_len = len;
      line = strtol(p + 2, NULL, 10);
      flags = f + len + 1;
      flags_len = (size_t)(end - flags);
      system = !sys ? 0 : memmem(flags, flags_len, " 4", 2) ? 4 : 3;
      predefined = (len == 10 && memcmp(f, "<built-in>", 10) == 0) ||
                   (len == 14 && memcmp(f, "<command-line>", 14) == 0) ||
                   (len >= sizeof predef - 1 &&
                    memcmp(f + len - (sizeof predef - 1), predef,
                           sizeof predef - 1) == 0);
      continue;
    }
    int is_def = end - p > 8 && memcmp(p, "#define ", 8) == 0;
    int is_undef = end - p > 7 && memcmp(p, "#undef ", 7) == 0;
    if (is_def || is_undef) {
      const char *name = p + (is_def ? 8 : 7);
      size_t n = ident_len(name, end);
      macro *m = n ? lookup(&t, name, n) : NULL;
      if (!m) {
        ok = 0;
        break;
      }
      if (predefined && is_def)
        m->predefined = 1;
      m->def = is_def ? p : NULL;
      m->def_len = is_def ? (size_t)(end - p) : 0;
      m->file = file;
      m->file_len = file_len;
      m->line = line;
      m->system = system;
      m->last_predefined = predefined;
    }
    line++;
  }
  (void)flags;
  for (size_t i = 0; ok && i < t.n; ++i) {
    const macro *m = &t.v[i];
    if (m->last_predefined && m->def)
      continue; /* the command defines it as the prelude leaves it */
    if (m->predefined) {
      puts_(out, "#undef ");
      put(out, m->name, m->name_len);
      puts_(out, "\n");
    }
    if (!m->def)
      continue;
    char marker[64];
    snprintf(marker, sizeof marker, "# %ld \"", m->line);
    puts_(out, marker);
    put(out, m->file, m->file_len);
    puts_(out, m->system == 4 ? "\" 3 4\n" : m->system ? "\" 3\n" : "\"\n");
    put(out, m->def, m->def_len);
    puts_(out, "\n");
  }
  /* __COUNTER__ where the prelude left it. */
  for (long i = 0; i < counter; ++i)
    puts_(out, "#if __COUNTER__\n#endif\n");
  free(t.v);
  free(t.slots);
  return ok && !out->failed ? 0 : -1;
}

/* Appends to `out` the words of the make-style list `deps` (after its
 * target) but `skip`, one per line; sets *unusable when one of those
 * headers holds a directive whose state macros do not carry. */
static void dependency_words(const char *deps, size_t size, const char *skip,
                             text_buf *out, int *unusable) {
  const char *p = memchr(deps, ':', size), *end = deps + size;
  for (p = p ? p + 1 : end; p < end;) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' ||
                       (*p == '\\' && p + 1 < end && p[1] == '\n')))
      p += *p == '\\' ? 2 : 1;
    const char *w = p;
    while (p < end && *p != ' ' && *p != '\n' && *p != '\t') {
      if (*p == '\\' && p + 1 < end && p[1] == ' ')
        p++;
      p++;
    }
    size_t n = (size_t)(p - w);
    if (n == 0 || (n == strlen(skip) && memcmp(w, skip, n) == 0))
      continue;
    put(out, w, n);
    puts_(out, " \\\n ");
    char *path = strndup(w, n);
    size_t hsize = 0;
    char *text = path && !memchr(path, '\\', n) ? cuemu__read_file(path, &hsize)
                                                 : NULL;
    static const char *const state[] = {"pragma once", "push_macro",
                                        "GCC poison", "#import", NULL};
    if (!text)
      *unusable = 1;
    for (int i = 0; text && state[i]; ++i)
      if (memmem(text, hsize, state[i], strlen(state[i])))
        *unusable = 1;
    free(text);
    free(path);
  }
}

typedef struct prelude_job {
  const command *c;
  const char *const *search;
  char source[PATH_MAX + 96]; /* the empty source (the cache's skip, which
                               * outlives the build) */
} prelude_job;

/* Runs the prelude's preprocessing: the command with an empty `source`,
 * `-o output`, its dependency list to `depfile` and `-dD` (the macros'
 * definitions in the output, where they are made), its messages in `log`.
 * Returns 1 when it ran cleanly, 0 when it printed something or failed, -1
 * when the compiler could not run or was killed. */
static int run_prelude(const command *c, const char *source,
                       const char *output, const char *depfile,
                       const char *log) {
  const char **argv = calloc((size_t)c->n + 2, sizeof *argv);
  if (!argv)
    return -1;
  int k = 0;
  for (int i = 0; i < c->n; ++i)
    if (!is_aside(c, i))
      argv[k++] = i == c->depfile   ? depfile
                  : i == c->source ? source
                  : i == c->output ? output
                                   : c->argv[i];
  argv[k++] = "-dD";
  argv[k] = NULL;
  int rc = -1;
  cuemu_status st = cuemu_command_run(argv, log, &rc);
  free(argv);
  size_t size = 0;
  char *messages = cuemu__read_file(log, &size);
  int silent = messages && size == 0;
  free(messages);
  unlink(log);
  if (st != CUEMU_SUCCESS || rc >= 128)
    return -1;
  return rc == 0 && silent;
}

/* Appends to `out` the `n` bytes of the preprocessor's `-dD` output at `s`
 * with each `#define` and `#undef` line left empty: the output without
 * -dD, but for runs of empty lines that the preprocessor would have
 * written as a line marker (the lines of the tokens are the same). */
static void without_definitions(const char *s, size_t n, text_buf *out) {
  for (const char *p = s, *end; p < s + n; p = end + 1) {
    end = memchr(p, '\n', (size_t)(s + n - p));
    if (!end)
      end = s + n;
    size_t len = (size_t)(end - p);
    if (!((len > 8 && memcmp(p, "#define ", 8) == 0) ||
          (len > 7 && memcmp(p, "#undef ", 7) == 0)))
      put(out, p, len);
    if (end < s + n)
      put(out, "\n", 1);
  }
}

/* The entry (a cuemu_cache_build_fn): `magic ULEN MLEN DLEN`, then the
 * prelude's text, its macros' header and its headers; or empty when the
 * shortcut does not apply to this prelude. One preprocessing of the
 * prelude gives all three, so that making the entry costs about what the
 * preprocessing of a unit saves. */
static cuemu_status build_prelude(void *data, cuemu_cache_build *b) {
  prelude_job *job = data;
  const command *c = job->c;
  char *source = job->source, defs[PATH_MAX + 96], log[PATH_MAX + 96];
  if (snprintf(source, sizeof job->source, "%s.cu", b->temp) >=
          (int)sizeof job->source ||
      snprintf(defs, sizeof defs, "%s.dD.ii", b->temp) >= (int)sizeof defs ||
      snprintf(log, sizeof log, "%s.log", b->temp) >= (int)sizeof log)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  /* The source's one token shows __COUNTER__ after the prelude. */
  if (write_file(source, "__COUNTER__\n", 12, "", 0, "", 0) != 0)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", source);
  b->skip = source;
  b->search = job->search;
  int clean = run_prelude(c, source, defs, b->depfile, log);
  char *dtext = NULL, *deps = NULL;
  size_t dsize = 0, depsize = 0;
  text_buf text = {0}, macros = {0}, words = {0};
  long from = -1, to = -1, counter = -1;
  int unusable = clean <= 0;
  if (!unusable && (dtext = cuemu__read_file(defs, &dsize)) &&
      (deps = cuemu__read_file(b->depfile, &depsize))) {
    char resume[PATH_MAX + 128];
    from = cuemu__find_line(dtext, dsize, 0, "# 0 \"<built-in>\"\n");
    if (from >= 0 && snprintf(resume, sizeof resume, "# 1 \"%s\"\n", source) <
                         (int)sizeof resume)
      to = cuemu__find_line(dtext, dsize, (size_t)from, resume);
    /* The value of __COUNTER__: the first line of the source that is not
     * a line marker. */
    for (const char *p = to > from ? dtext + to : NULL;
         p && p < dtext + dsize;) {
      const char *nl = memchr(p, '\n', (size_t)(dtext + dsize - p));
      if (*p != '#' && *p != '\n') {
        char *e;
        counter = strtol(p, &e, 10);
        if (e == p)
          counter = -1;
        break;
      }
      p = nl ? nl + 1 : NULL;
    }
    unusable = to <= from || counter < 0 ||
               memmem(dtext + from, (size_t)(to - from), source,
                      strlen(source)) ||
               macros_header(dtext, (size_t)to, counter, &macros) != 0;
    if (!unusable) {
      without_definitions(dtext + from, (size_t)(to - from), &text);
      dependency_words(deps, depsize, source, &words, &unusable);
    }
  } else {
    unusable = 1;
  }
  cuemu_status st = CUEMU_SUCCESS;
  if (clean < 0) {
    st = cuemu__report(CUEMU_COMPILE, "the compiler %s did not preprocess %s",
                       c->argv[0], c->argv[c->include + 1]);
  } else if (unusable || text.failed || words.failed) {
    /* Kept as an empty entry, which says "run the command as it is"; it
     * depends on the prelude's header, at least. */
    if (write_file(b->built, "", 0, "", 0, "", 0) != 0 ||
        (!deps && write_file(b->depfile, "prelude: ", 9, c->argv[c->include + 1],
                             strlen(c->argv[c->include + 1]), "\n", 1) != 0))
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", b->built);
  } else {
    char head[128];
    int n = snprintf(head, sizeof head, "%s %zu %zu %zu\n", magic, text.n,
                     macros.n, words.n);
    if (write_file(b->built, head, (size_t)n, text.s, text.n,
                   macros.s ? macros.s : "", macros.n) != 0 ||
        append_file(b->built, words.s ? words.s : "", words.n) != 0)
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", b->built);
  }
  free(dtext);
  free(deps);
  free(text.s);
  free(macros.s);
  free(words.s);
  unlink(source);
  unlink(defs);
  return st;
}

/* ---- Use ---------------------------------------------------------------- */

int cuemu__pp_prelude_prepare(cuemu_pp_prelude *pp, const char *const *argv,
                              const char *runtime_header,
                              const char *const *source_words,
                              const char *context,
                              const char *const *search, const char *temp) {
  memset(pp, 0, sizeof *pp);
  command c;
  if (parse(&c, argv, runtime_header, source_words) != 0 ||
      snprintf(pp->entry, sizeof pp->entry, "%s.prelude", temp) >=
          (int)sizeof pp->entry ||
      snprintf(pp->macros, sizeof pp->macros, "%s.prelude.h", temp) >=
          (int)sizeof pp->macros)
    return -1;
  cuemu_hasher *h;
  if (cuemu_hasher_create(&h, "cuemu-cc prelude") != CUEMU_SUCCESS)
    return -1;
  cuemu_hasher_add_string(h, context);
  for (int i = 0; i < c.n; ++i)
    if (i != c.output && i != c.depfile && i != c.source && !is_aside(&c, i))
      cuemu_hasher_add_string(h, argv[i]);
  cuemu_cache_key key;
  cuemu_hasher_finish(h, &key);
  prelude_job job = {&c, search, ""};
  int hit = 0;
  /* A failure to make the entry is said when the command itself runs. */
  cuemu_status st = cuemu_cache_get(&key, pp->entry, 1, build_prelude, &job,
                                    &hit);
  if (st == CUEMU_SUCCESS && !hit)
    cuemu__cache_bound((const char *const[]){magic, NULL}, sizeof magic - 1,
                       PRELUDE_ENTRIES, PRELUDE_BYTES);
  size_t size = 0;
  size_t lens[3];
  char *payload = st == CUEMU_SUCCESS ? cuemu__read_file(pp->entry, &size)
                                      : NULL;
  unlink(pp->entry);
  char *body = payload ? memchr(payload, '\n', size) : NULL;
  if (!body || size < sizeof magic ||
      memcmp(payload, magic, sizeof magic - 1) != 0 ||
      sscanf(payload + sizeof magic - 1, " %zu %zu %zu", &lens[0], &lens[1],
             &lens[2]) != 3 ||
      (size_t)(payload + size - (body + 1)) != lens[0] + lens[1] + lens[2] ||
      write_file(pp->macros, body + 1 + lens[0], lens[1], "", 0, "", 0) != 0) {
    free(payload);
    return -1;
  }
  pp->payload = payload;
  pp->text = body + 1;
  pp->text_len = lens[0];
  pp->deps = body + 1 + lens[0] + lens[1];
  pp->deps_len = lens[2];
  pp->argv = calloc((size_t)c.n + 1, sizeof *pp->argv);
  if (!pp->argv) {
    cuemu__pp_prelude_free(pp);
    return -1;
  }
  memcpy(pp->argv, argv, (size_t)c.n * sizeof *argv);
  pp->argv[c.include + 1] = pp->macros;
  pp->output = argv[c.output];
  pp->depfile = argv[c.depfile];
  pp->source = argv[c.source];
  return 0;
}

int cuemu__pp_prelude_finish(cuemu_pp_prelude *pp) {
  size_t size = 0, dsize = 0;
  char *text = cuemu__read_file(pp->output, &size);
  char *deps = cuemu__read_file(pp->depfile, &dsize);
  char resume[PATH_MAX + 128];
  long from = text ? cuemu__find_line(text, size, 0, "# 0 \"<built-in>\"\n")
                   : -1,
       to = -1;
  if (from >= 0 && snprintf(resume, sizeof resume, "# 1 \"%s\"\n",
                            pp->source) < (int)sizeof resume)
    to = cuemu__find_line(text, size, (size_t)from, resume);
  /* The macros' header in the dependency list, as a whole word. */
  size_t n = strlen(pp->macros);
  char *at = deps ? memmem(deps, dsize, pp->macros, n) : NULL;
  int ok = to > from && at && at > deps && at[-1] == ' ' &&
           (at[n] == ' ' || at[n] == '\n' || at[n] == '\0');
  if (ok) {
    /* The prelude's words end with " \\\n ", which the word's own
     * separator follows. */
    ok = write_file(pp->output, text, (size_t)from, pp->text, pp->text_len,
                    text + to, size - (size_t)to) == 0 &&
         write_file(pp->depfile, deps, (size_t)(at - deps), pp->deps,
                    pp->deps_len, at + n, dsize - (size_t)(at + n - deps)) == 0;
  }
  free(text);
  free(deps);
  return ok ? 0 : -1;
}

void cuemu__pp_prelude_free(cuemu_pp_prelude *pp) {
  if (pp->macros[0])
    unlink(pp->macros);
  free(pp->payload);
  free(pp->argv);
  memset(pp, 0, sizeof *pp);
}
