/*
 * cuemu_pch.c: the precompiled prelude of a whole program's passes (see
 * cuemu_pch.h).
 *
 * Each pass of cuemu-cc compiles a translated unit whose first 1.2 MB are
 * the preprocessed prelude: what the preprocessing pass force-included
 * (the shims' cuda_runtime.h and the system headers it reads), the same
 * for every program compiled with the same flags. The prelude is cut out
 * of the unit into a header of its own, which the compile force-includes;
 * the compiler's precompiled form of that header is kept in the compile
 * cache under a key of the header's exact text, the whole compile command
 * and the compiler's context, so that the compile of a unit loads it
 * instead of parsing the prelude again.
 *
 * g++ and clang++ both precompile it; their preprocessors mark the
 * prelude each in its own way (prelude_bounds()), and clang's precompiled
 * header holds the text of the files it was made from, which it would
 * otherwise read again, at their temporary paths, when it is used.
 *
 * A precompiled header is meant to compile as its text would, but GCC's
 * does not keep everything: the state of `#pragma GCC diagnostic` is lost
 * (GCC PR 64117), so a prelude that holds a header the user force-included
 * (-include), or such a pragma outside system headers, is never
 * precompiled; its text is compiled as before. A precompiled header that
 * the compiler refuses (different settings) only costs the parse, and the
 * precompiled header comes from the cache, with its checks (checksum,
 * owner, headers unchanged), never from a file that something else put
 * beside the header. The cache keeps the most recently used precompiled
 * headers only (PCH_ENTRIES, PCH_BYTES).
 *
 * The headers that the main file includes before its first line of code
 * or its first header of its own (the unit's prefix: <vector>, <thread>,
 * the shims' cuda.h, up to a few MB for Thrust's) are precompiled with
 * the prelude, as part of the same header, under the key of its text:
 * the prefix names the main file and the lines of its #includes, which a
 * message about a declaration of those headers prints ("In file included
 * from x.cu:3"), so that a prefix is one file's, used again when that
 * file is compiled again after an edit. The rest of the unit begins at a
 * line marker of the main file, never inside a header, whose include
 * stack it then does not need (with g++ only: clang names the includer of
 * a precompiled prefix's lines by the rest's temporary file). A prefix is
 * precompiled at its PCH_AFTER + 1st compile (the prelude alone before),
 * and once only: one whose precompiled header the bounds dropped (more
 * files in use than they keep) is not made again, the prelude alone is
 * then used.
 * CUEMU_NO_PCH_PREFIX=1: the prelude alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_cache.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"
#include "cuemu_pch.h"

/* The bounds on the cache's precompiled headers (about 50 MB each):
 * CUEMU_PCH_ENTRIES entries (8 unless set), and CUEMU_PCH_MIB mebibytes
 * (PCH_BYTES unless set) in all. */
#define PCH_ENTRIES 8
/* The compiles of a prelude (with one set of flags) made without its
 * precompiled form, before one is made (see cuemu__pch_get()):
 * CUEMU_PCH_AFTER when it is a whole number, else PCH_AFTER. */
#define PCH_AFTER 3
#define PCH_BYTES (400ull << 20)

/* The first bytes of GCC's and of clang's precompiled headers (the same
 * length). */
static const char *const pch_magics[] = {"gpch", "CPCH", NULL};
#define PCH_MAGIC_BYTES 4

long cuemu__find_line(const char *text, size_t size, size_t from,
                      const char *line) {
  size_t n = strlen(line);
  for (const char *p = text + from; p && (size_t)(p - text) + n <= size;) {
    if (memcmp(p, line, n) == 0)
      return (long)(p - text);
    p = memchr(p, '\n', size - (size_t)(p - text));
    if (p)
      p++;
  }
  return -1;
}

int cuemu__line_marker(const char *p, const char *end, const char **file,
                       size_t *len, int *enter, int *system) {
  if (end - p < 5 || p[0] != '#' || p[1] != ' ' || p[2] < '0' || p[2] > '9')
    return 0;
  const char *q = memchr(p, '"', (size_t)(end - p));
  if (!q)
    return 0;
  const char *close = q + 1;
  while (close < end && (*close != '"' || close[-1] == '\\'))
    close++;
  if (close >= end)
    return 0;
  *file = q + 1;
  *len = (size_t)(close - q - 1);
  *enter = *system = 0;
  for (const char *f = close + 1; f < end; ++f) {
    if (*f == '1' && (f + 1 == end || f[1] == ' '))
      *enter = 1;
    if (*f == '3' && (f + 1 == end || f[1] == ' '))
      *system = 1;
  }
  return 1;
}

/* Non-zero when the marked file `file` (of `len` bytes) is `name`. */
static int marks(const char *file, size_t len, const char *name) {
  return len == strlen(name) && memcmp(file, name, len) == 0;
}

/* Non-zero when the prelude `text` (of `size` bytes, from its "<built-in>"
 * marker) compiles as its precompiled form would: it force-includes
 * nothing but the shims (whose folder, with its slash, is `shims` of
 * `shims_len` bytes) and the compiler's own stdc-predef.h, and has no
 * `#pragma GCC diagnostic` outside system headers, whose state GCC's
 * precompiled headers do not keep (GCC PR 64117). GCC enters the forced
 * includes from "<command-line>", clang from "<built-in>" (whose text
 * holds them as #include lines after its "<command line>"). */
static int prelude_precompiles(const char *text, size_t size,
                               const char *shims, size_t shims_len) {
  static const char predef[] = "/stdc-predef.h";
  static const char pragma[] = "#pragma GCC diagnostic";
  int in_command_line = 0, system = 0;
  for (const char *p = text, *end; p < text + size; p = end + 1) {
    end = memchr(p, '\n', (size_t)(text + size - p));
    if (!end)
      end = text + size;
    const char *file;
    size_t len;
    int enter, sys;
    if (cuemu__line_marker(p, end, &file, &len, &enter, &sys)) {
      /* Entering "<command line>" from "<built-in>" (clang) is not a
       * forced include. */
      int forced = enter && in_command_line && len > 0 && file[0] != '<';
      if (forced && !(len > shims_len && memcmp(file, shims, shims_len) == 0) &&
          !(len >= sizeof predef - 1 &&
            memcmp(file + len - (sizeof predef - 1), predef,
                   sizeof predef - 1) == 0))
        return 0;
      in_command_line = marks(file, len, "<command-line>") ||
                        marks(file, len, "<command line>") ||
                        marks(file, len, "<built-in>");
      system = sys;
      continue;
    }
    while (p < end && (*p == ' ' || *p == '\t'))
      p++;
    if (!system && (size_t)(end - p) >= sizeof pragma - 1 &&
        memcmp(p, pragma, sizeof pragma - 1) == 0)
      return 0;
  }
  return 1;
}

/* The unit's prefix: its text from `to` (the main file's line 1, where the
 * prelude ends) that comes only from system headers (the shims' and the
 * compiler's), up to the first line with tokens of the main file or of a
 * user header. Returns the offset of the line marker of the main file
 * where that prefix ends (the rest of the unit begins there), or `to`
 * when there is none worth precompiling. The cut is always at a marker of
 * the main file itself, never inside a header, so that the rest needs no
 * include stack of its own: its diagnostics name the same "included from"
 * lines. */
static size_t prefix_end(const char *text, size_t size, size_t to,
                         const char *source) {
  size_t source_len = strlen(source), cut = to;
  int main_file = 1, system = 0, headers = 0;
  for (const char *p = text + to, *end; p < text + size; p = end + 1) {
    end = memchr(p, '\n', (size_t)(text + size - p));
    if (!end)
      return to;
    const char *file;
    size_t len;
    int enter, sys;
    if (cuemu__line_marker(p, end, &file, &len, &enter, &sys)) {
      main_file = len == source_len && memcmp(file, source, len) == 0;
      system = sys;
      if (main_file && (enter || sys))
        return to;
      if (main_file)
        cut = (size_t)(p - text);
      continue;
    }
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t'))
      q++;
    if (q == end)
      continue;
    if (main_file || !system)
      break;
    headers = 1;
  }
  return headers ? cut : to;
}

/* What the last split of this thread's unit left for cuemu__pch_get(): the
 * unit's text and where its prelude and prefix end, so that a prefix
 * whose precompiled form is not there (yet) goes back into the rest, and
 * the prelude alone is precompiled as before. */
static __thread struct {
  /* On the heap, not in the thread's block: libcuemu is also loaded by
   * dlopen (Python), where static TLS has little room. */
  char *header, *trimmed, *text;
  size_t size, from, to, cut;
} last;

/* Forgets the last split. */
static void forget_last(void) {
  free(last.text);
  free(last.header);
  free(last.trimmed);
  last.text = last.header = last.trimmed = NULL;
}

/* Writes `header` (the qualifiers' #include `first`, then the unit's text
 * from `from` to `cut`) and `trimmed` (the unit before `from`, then from
 * `cut` on). The rest begins with the main file's marker at `cut` (where
 * the prelude or the prefix ended) without its flags: its flag 2 ("back
 * from an include": clang's marker after the prelude, both compilers'
 * after a prefix) would be refused by the rest, whose include stack is the
 * main file alone. */
static int write_split(const char *header, const char *trimmed,
                       const char *first, const char *text, size_t size,
                       size_t from, size_t cut) {
  FILE *f = fopen(header, "we");
  if (!f)
    return -1;
  int ok = fputs(first, f) >= 0 &&
           fwrite(text + from, 1, cut - from, f) == cut - from;
  if (fclose(f) != 0 || !ok)
    return -1;
  /* The marker: '# LINE "FILE"' and its flags, of which only the line and
   * the file stay. */
  char marker[PATH_MAX + 64];
  const char *end = memchr(text + cut, '\n', size - cut);
  const char *q = memchr(text + cut, '"', size - cut);
  const char *close = q ? q + 1 : NULL;
  while (close && close < end && (*close != '"' || close[-1] == '\\'))
    close++;
  if (!end || !close || close >= end ||
      (size_t)(close + 1 - (text + cut)) + 2 > sizeof marker)
    return -1;
  size_t n = (size_t)(close + 1 - (text + cut));
  memcpy(marker, text + cut, n);
  marker[n] = '\n';
  marker[n + 1] = '\0';
  size_t skip = (size_t)(end + 1 - (text + cut));
  f = fopen(trimmed, "we");
  if (!f)
    return -1;
  ok = fwrite(text, 1, from, f) == from && fputs(marker, f) >= 0 &&
       fwrite(text + cut + skip, 1, size - cut - skip, f) ==
           size - cut - skip;
  return fclose(f) == 0 && ok ? 0 : -1;
}

/* Where the prelude of the preprocessed unit `text` (of `size` bytes) of
 * `source` begins and ends: `*from` at its first "<built-in>" marker, `*to`
 * at the main file's marker of its line 1 after it, which follows the
 * return from the forced includes. GCC writes
 *   # 0 "<built-in>" / ... / # 0 "<command-line>" 2 / # 1 "SRC"
 * and clang
 *   # 1 "<built-in>" 1 / ... / # N "<built-in>" 2 / # 1 "SRC" 2
 * Returns the form (0 GCC's, 1 clang's), or -1 when the unit has
 * neither. */
static int prelude_bounds(const char *text, size_t size, const char *source,
                          size_t *from, size_t *to) {
  static const struct {
    const char *first, *main_flags, *back, *back_end;
  } forms[] = {
      {"# 0 \"<built-in>\"\n", "", "# 0 \"<command-line>\" 2\n", ""},
      {"# 1 \"<built-in>\" 1\n", " 2", "# ", " \"<built-in>\" 2\n"},
  };
  char main_line[PATH_MAX + 16];
  for (size_t k = 0; k < sizeof forms / sizeof forms[0]; ++k) {
    long f = cuemu__find_line(text, size, 0, forms[k].first), t = -1;
    if (f < 0 || snprintf(main_line, sizeof main_line, "# 1 \"%s\"%s\n",
                          source, forms[k].main_flags) >=
                     (int)sizeof main_line)
      continue;
    t = cuemu__find_line(text, size, (size_t)f, main_line);
    if (t <= f)
      continue;
    /* The line before the main file's: the return from the forced
     * includes, its beginning `back` and its end `back_end`. */
    const char *line_end = text + t - 1, *line = line_end;
    while (line > text + f && line[-1] != '\n')
      line--;
    size_t len = (size_t)(line_end + 1 - line);
    size_t nb = strlen(forms[k].back), ne = strlen(forms[k].back_end);
    if (len >= nb + ne && memcmp(line, forms[k].back, nb) == 0 &&
        memcmp(line_end + 1 - ne, forms[k].back_end, ne) == 0) {
      *from = (size_t)f;
      *to = (size_t)t;
      return (int)k;
    }
  }
  return -1;
}

int cuemu__pch_split_unit(const char *tu, const char *source,
                          const char *qualifiers, const char *header,
                          const char *trimmed) {
  size_t size = 0;
  forget_last();
  char *text = cuemu__read_file(tu, &size);
  if (!text)
    return -1;
  /* The preprocessor's output begins with markers of the main file (and of
   * the working folder), then "<built-in>" and the command line's, whose
   * forced includes (the prelude) end where the main file resumes at its
   * line 1. Everything between is the prelude. */
  size_t from = 0, to = 0;
  int form = prelude_bounds(text, size, source, &from, &to);
  int ok = form >= 0;
  /* The shims' folder is the qualifiers' (with its slash). */
  const char *slash = strrchr(qualifiers, '/');
  ok = ok && slash &&
       prelude_precompiles(text + from, to - from, qualifiers,
                           (size_t)(slash + 1 - qualifiers));
  char first[PATH_MAX + 32];
  int n = snprintf(first, sizeof first, "#include \"%s\"\n", qualifiers);
  ok = ok && n > 0 && n < (int)sizeof first;
  if (ok) {
    /* The prelude and the unit's prefix of headers, if it has one and the
     * paths fit; cuemu__pch_get() puts the prefix back when its
     * precompiled form is not to be used. */
    /* Not with clang, whose messages about a line of a precompiled prefix
     * would name the rest's temporary file as the includer of the main
     * file ("In file included from x.rest.cpp:1:"). */
    size_t cut = form == 0 ? prefix_end(text, size, to, source) : to;
    if (cut > to &&
        (!(last.header = strdup(header)) || !(last.trimmed = strdup(trimmed))))
      cut = to;
    ok = write_split(header, trimmed, first, text, size, from, cut) == 0;
    if (ok && cut > to) {
      last.text = text;
      last.size = size;
      last.from = from;
      last.to = to;
      last.cut = cut;
      text = NULL;
    }
    if (!ok) {
      unlink(header);
      unlink(trimmed);
    }
  }
  free(text);
  return ok ? 0 : -1;
}

/* What the cache's build callback needs. */
typedef struct pch_job {
  const char *const *flags;
  const char *header;
  const char *qualifiers;
} pch_job;

/* Non-zero when the compiler's messages `log` (of `size` bytes) name an
 * error located in `header` (a line "HEADER:LINE:COLUMN: error: ..."), one
 * that the prelude's text itself has, not one of the compiler's run. */
static int error_in_header(const char *log, size_t size, const char *header) {
  size_t n = strlen(header);
  for (const char *p = log, *end; p < log + size; p = end + 1) {
    end = memchr(p, '\n', (size_t)(log + size - p));
    if (!end)
      end = log + size;
    if ((size_t)(end - p) > n && memcmp(p, header, n) == 0 && p[n] == ':' &&
        p[n + 1] >= '0' && p[n + 1] <= '9' &&
        memmem(p, (size_t)(end - p), " error: ", 8) &&
        !memmem(p, (size_t)(end - p), "PCH", 3))
      return 1;
  }
  return 0;
}

/* Compiles the header (a cuemu_cache_build_fn); its messages go to a log.
 * A build that succeeds with messages, or fails at an error in the
 * prelude's text, makes an empty entry, which is not used: the unit's
 * compile, with the prelude's text, says it at its place as before. A
 * build that fails otherwise (the compiler killed, out of memory, a full
 * disk) stores nothing, so that the next compile tries again. */
static cuemu_status build_pch(void *data, cuemu_cache_build *b) {
  const pch_job *job = data;
  int count = 0;
  while (job->flags[count])
    count++;
  const char **argv = calloc((size_t)count + 12, sizeof *argv);
  char log[PATH_MAX + 96];
  if (!argv || snprintf(log, sizeof log, "%s.log", b->temp) >= (int)sizeof log) {
    free(argv);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  memcpy(argv, job->flags, (size_t)count * sizeof *argv);
  /* clang's precompiled header reads the files it was made from again
   * when it is used (where g++'s keeps what it needs): the header, whose
   * temporary path is gone by then, and the qualifiers. Their text goes
   * into it. */
  if (strstr(job->flags[0], "clang")) {
    argv[count++] = "-Xclang";
    argv[count++] = "-fmodules-embed-all-files";
  }
  const char *tail[] = {"-MD", "-MF", b->depfile, "-x", "c++-header",
                        job->header, "-o", b->built, NULL};
  memcpy(argv + count, tail, sizeof tail);
  b->skip = job->header;
  int rc = -1;
  cuemu_status st_run = cuemu_command_run(argv, log, &rc);
  size_t size = 0;
  char *messages = cuemu__read_file(log, &size);
  int said = !messages || size > 0;
  int prelude_error = rc != 0 && messages &&
                      error_in_header(messages, size, job->header);
  free(messages);
  unlink(log);
  free(argv);
  if (st_run != CUEMU_SUCCESS || (rc != 0 && !prelude_error))
    return cuemu__report(CUEMU_COMPILE, "the compiler %s did not precompile %s",
                         job->flags[0], job->header);
  if (rc != 0 || said) {
    /* Kept as an empty entry, which says "compile the text" to the next
     * compile of this prelude without compiling it again. */
    FILE *f = fopen(b->built, "we");
    if (!f || fclose(f) != 0)
      return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", b->built);
    struct stat st;
    if (rc != 0 || stat(b->depfile, &st) != 0) {
      /* No dependency file from a failed compile: the entry depends on the
       * header that the prelude includes first. */
      FILE *d = fopen(b->depfile, "we");
      if (!d)
        return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", b->depfile);
      fprintf(d, "pch: %s\n", job->qualifiers);
      fclose(d);
    }
  }
  return CUEMU_SUCCESS;
}

/* Makes the empty mark of a prelude's first sighting (a
 * cuemu_cache_build_fn), which depends on the header its prelude includes
 * first. */
static cuemu_status build_mark(void *data, cuemu_cache_build *b) {
  const pch_job *job = data;
  FILE *f = fopen(b->built, "we");
  FILE *d = fopen(b->depfile, "we");
  int ok = f && d && fprintf(d, "mark: %s\n", job->qualifiers) > 0;
  if (f && fclose(f) != 0)
    ok = 0;
  if (d && fclose(d) != 0)
    ok = 0;
  return ok ? CUEMU_SUCCESS
            : cuemu__report(CUEMU_IO_ERROR, "cannot write %s", b->built);
}

/* The whole number in the environment variable `name` (0 included), or
 * `fallback` when it is unset or not one (with a warning). */
static size_t env_count(const char *name, size_t fallback, const char *what) {
  const char *v = getenv(name);
  char *end;
  if (!v || !*v)
    return fallback;
  errno = 0;
  unsigned long n = strtoul(v, &end, 10);
  if (*end || errno || v[0] == '-') {
    cuemu__driver_say("warning", "%s=%s is not a whole number; %s %zu", name,
                      v, what, fallback);
    return fallback;
  }
  return (size_t)n;
}

/* The bound on the number of precompiled headers in the cache:
 * CUEMU_PCH_ENTRIES when it is a whole number (0: none kept), else
 * PCH_ENTRIES. */
static size_t pch_entries(void) {
  return env_count("CUEMU_PCH_ENTRIES", PCH_ENTRIES,
                   "keeping this many precompiled preludes:");
}

/* The bound on the bytes of the precompiled headers in the cache:
 * CUEMU_PCH_MIB mebibytes when it is a whole number, else PCH_BYTES. */
static unsigned long long pch_bytes(void) {
  return (unsigned long long)env_count("CUEMU_PCH_MIB",
                                       (size_t)(PCH_BYTES >> 20),
                                       "keeping this many MiB of "
                                       "precompiled preludes:")
         << 20;
}

/* cuemu__pch_get() of one header as it is written. */
static int get_keyed(const char *const *flags, const char *context,
                     const char *header, const char *qualifiers, int once) {
  char dir[PATH_MAX], gch[PATH_MAX + 8];
  /* No usable cache folder: no precompiled header (the unit is compiled
   * whole; the compile's own build already said why). */
  if (cuemu_cache_dir(dir, sizeof dir) != CUEMU_SUCCESS ||
      snprintf(gch, sizeof gch, "%s.gch", header) >= (int)sizeof gch)
    return -1;
  size_t size = 0;
  char *text = cuemu__read_file(header, &size);
  if (!text)
    return -1;
  /* The key: the header's text, the compiler's context (the compiler, its
   * plugin, libcuemu, the environment) and every flag of the compile; the
   * headers the header includes (the qualifiers) are the entry's
   * dependencies. */
  cuemu_hasher *h;
  if (cuemu_hasher_create(&h, "cuemu-cc pch") != CUEMU_SUCCESS) {
    free(text);
    return -1;
  }
  cuemu_hasher_add_string(h, context);
  for (int i = 0; flags[i]; ++i)
    cuemu_hasher_add_string(h, flags[i]);
  cuemu_hasher_add_string(h, "--");
  cuemu_hasher_add(h, text, size);
  free(text);
  cuemu_cache_key key, mark_key;
  cuemu_hasher_finish(h, &key);
  pch_job job = {flags, header, qualifiers};
  /* A prelude is precompiled the PCH_AFTER + 1st time it is compiled, so
   * that compiles with flags of their own (one test, one project's few
   * files, one experiment) do not pay for a precompiled header that
   * little else would use: making one costs about as much as six compiles
   * save with it (measured on the test programs: 0.55 s of 1.8 s saved per
   * compile, about 3 s to make and store). Each of the first PCH_AFTER compiles
   * leaves a mark in the cache (an empty entry of a key of its own). */
  size_t after = env_count("CUEMU_PCH_AFTER", PCH_AFTER,
                           "precompiling a prelude after this many compiles:");
  for (size_t i = 1; i <= after; ++i) {
    int marked = 0;
    if (cuemu_hasher_create(&h, "cuemu-cc pch mark") != CUEMU_SUCCESS)
      return -1;
    cuemu_hasher_add_string(h, key.hex);
    if (i > 1)
      cuemu_hasher_add(h, &i, sizeof i);
    cuemu_hasher_finish(h, &mark_key);
    cuemu_status mark_st =
        cuemu_cache_get(&mark_key, gch, 1, build_mark, &job, &marked);
    unlink(gch);
    if (mark_st != CUEMU_SUCCESS || !marked)
      return -1;
  }
  int hit = 0;
  struct stat st;
  /* A prefix (`once`) is precompiled once: when its precompiled header has
   * left the cache (the bounds dropped it for more recent ones), the mark
   * of its making says so, and the prelude alone is used, so that more
   * prefixes in use than the bounds keep do not make the same ones over
   * and over. */
  char entry[PATH_MAX + 64];
  int absent = 0;
  if (once) {
    if (cuemu_hasher_create(&h, "cuemu-cc pch made") != CUEMU_SUCCESS)
      return -1;
    cuemu_hasher_add_string(h, key.hex);
    cuemu_hasher_finish(h, &mark_key);
    absent = snprintf(entry, sizeof entry, "%s/%s.entry", dir, key.hex) <
                 (int)sizeof entry &&
             stat(entry, &st) != 0;
    if (absent &&
        (snprintf(entry, sizeof entry, "%s/%s.entry", dir, mark_key.hex) >=
             (int)sizeof entry ||
         stat(entry, &st) == 0))
      return -1;
  }
  cuemu_status pch_st = cuemu_cache_get(&key, gch, 1, build_pch, &job, &hit);
  /* A new precompiled header: the least recently used go beyond the
   * bounds. */
  if (pch_st == CUEMU_SUCCESS && !hit)
    cuemu__cache_bound(pch_magics, PCH_MAGIC_BYTES, pch_entries(),
                       pch_bytes());
  if (pch_st == CUEMU_SUCCESS && !hit && absent) {
    int made = 0;
    char made_path[PATH_MAX + 16];
    if (snprintf(made_path, sizeof made_path, "%s.made", gch) <
            (int)sizeof made_path &&
        cuemu_cache_get(&mark_key, made_path, 1, build_mark, &job, &made) ==
            CUEMU_SUCCESS)
      unlink(made_path);
  }
  if (pch_st != CUEMU_SUCCESS || stat(gch, &st) != 0 || st.st_size == 0) {
    unlink(gch);
    return -1;
  }
  return 0;
}

int cuemu__pch_get(const char *const *flags, const char *context,
                   const char *header, const char *qualifiers) {
  const char *no_prefix = getenv("CUEMU_NO_PCH_PREFIX");
  if (last.text && no_prefix && strcmp(no_prefix, "1") == 0) {
    /* CUEMU_NO_PCH_PREFIX=1: the prelude alone, as before prefixes. */
    char first[PATH_MAX + 32];
    int n = snprintf(first, sizeof first, "#include \"%s\"\n", qualifiers);
    int ok = n > 0 && n < (int)sizeof first &&
             write_split(header, last.trimmed, first, last.text, last.size,
                         last.from, last.to) == 0;
    forget_last();
    if (!ok)
      return -1;
  }
  if (!last.text || strcmp(last.header, header) != 0)
    return get_keyed(flags, context, header, qualifiers, 0);
  /* The prelude and the prefix, precompiled at the PCH_AFTER + 1st compile
   * of that prefix; until then, or when its text does not precompile
   * silently, the prelude alone, the prefix being put back into the rest. */
  int rc = get_keyed(flags, context, header, qualifiers, 1);
  char first[PATH_MAX + 32];
  if (rc != 0) {
    int n = snprintf(first, sizeof first, "#include \"%s\"\n", qualifiers);
    rc = n > 0 && n < (int)sizeof first &&
                 write_split(header, last.trimmed, first, last.text,
                             last.size, last.from, last.to) == 0
             ? get_keyed(flags, context, header, qualifiers, 0)
             : -1;
  }
  forget_last();
  return rc;
}

void cuemu__pch_remove(const char *header, const char *trimmed,
                       int keep_text) {
  char gch[PATH_MAX + 8];
  if (snprintf(gch, sizeof gch, "%s.gch", header) < (int)sizeof gch)
    unlink(gch);
  if (!keep_text) {
    unlink(header);
    unlink(trimmed);
  }
}
