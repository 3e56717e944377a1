/*
 * cuemu_pch.c: the precompiled prelude of a whole program's passes (see
 * cuemu_pch.h).
 *
 * Each pass of cuemu-cc compiles a translated unit whose first 1.2 MB are
 * the preprocessed shim prelude (cuda_runtime.h, force-included, and the
 * system headers it reads), the same for every program compiled with the
 * same flags. The prelude is cut out of the unit into a header of its own,
 * which the compile force-includes; the compiler's precompiled form of that
 * header is kept in the compile cache under a key of the header's exact
 * text and the whole compile command, so that the compile of a unit loads
 * it instead of parsing the prelude again.
 *
 * Nothing here can change what is compiled: the header holds the prelude's
 * text as the unit had it, so that a precompiled header that the compiler
 * refuses (different settings) only costs the parse, as before; and the
 * precompiled header comes from the cache, with its checks (checksum,
 * owner, headers unchanged), never from a file that something else put
 * beside the header.
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
#include "cuemu_pch.h"

/* Reads the whole file at `path` into a NUL-terminated buffer. */
static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rbe");
  if (!f)
    return NULL;
  char *buf = NULL;
  long len = -1;
  if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
      fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)len + 1)) &&
      fread(buf, 1, (size_t)len, f) != (size_t)len) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) {
    buf[len] = '\0';
    *size = (size_t)len;
  }
  return buf;
}

static int write_parts(const char *path, const char *a, size_t na,
                       const char *b, size_t nb) {
  FILE *f = fopen(path, "we");
  if (!f)
    return -1;
  int ok = fwrite(a, 1, na, f) == na && fwrite(b, 1, nb, f) == nb;
  return fclose(f) == 0 && ok ? 0 : -1;
}

/* The offset of the first line of `text` at or after `from` that is exactly
 * `line` (with its newline), or -1. */
static long find_line(const char *text, size_t size, size_t from,
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

int cuemu__pch_split_unit(const char *tu, const char *source,
                          const char *qualifiers, const char *header,
                          const char *trimmed) {
  size_t size = 0;
  char *text = slurp(tu, &size);
  if (!text)
    return -1;
  /* The preprocessor's output begins with markers of the main file (and of
   * the working folder), then "<built-in>" and "<command-line>", whose
   * forced includes (the prelude) end where the main file resumes at its
   * line 1. Everything between is the prelude. */
  char main_line[PATH_MAX + 16];
  long from = find_line(text, size, 0, "# 0 \"<built-in>\"\n"), to = -1;
  if (from >= 0 &&
      snprintf(main_line, sizeof main_line, "# 1 \"%s\"\n", source) <
          (int)sizeof main_line)
    to = find_line(text, size, (size_t)from, main_line);
  /* The prelude ends at the return from the command line's includes. */
  static const char back[] = "# 0 \"<command-line>\" 2\n";
  int ok = to > from && from >= 0 && (size_t)to >= sizeof back - 1 &&
           memcmp(text + to - (sizeof back - 1), back, sizeof back - 1) == 0;
  if (ok) {
    char first[PATH_MAX + 32];
    int n = snprintf(first, sizeof first, "#include \"%s\"\n", qualifiers);
    ok = n > 0 && n < (int)sizeof first &&
         write_parts(header, first, (size_t)n, text + from,
                     (size_t)(to - from)) == 0 &&
         write_parts(trimmed, text, (size_t)from, text + to,
                     size - (size_t)to) == 0;
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

/* Compiles the header (a cuemu_cache_build_fn); its messages go to a log,
 * and a build that says anything (or fails) makes an empty entry, which is
 * not used: the unit's compile, with the prelude's text, says it at its
 * place as before. */
static cuemu_status build_pch(void *data, cuemu_cache_build *b) {
  const pch_job *job = data;
  int count = 0;
  while (job->flags[count])
    count++;
  const char **argv = calloc((size_t)count + 10, sizeof *argv);
  char log[PATH_MAX + 96];
  if (!argv || snprintf(log, sizeof log, "%s.log", b->temp) >= (int)sizeof log) {
    free(argv);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  memcpy(argv, job->flags, (size_t)count * sizeof *argv);
  const char *tail[] = {"-MD", "-MF", b->depfile, "-x", "c++-header",
                        job->header, "-o", b->built, NULL};
  memcpy(argv + count, tail, sizeof tail);
  b->skip = job->header;
  int rc = -1;
  struct stat st;
  cuemu_status st_run = cuemu_command_run(argv, log, &rc);
  int quiet = stat(log, &st) == 0 && st.st_size == 0;
  unlink(log);
  free(argv);
  /* A compiler that could not run or was killed says nothing about the
   * prelude: nothing is stored. */
  if (st_run != CUEMU_SUCCESS || rc > 128)
    return cuemu__report(CUEMU_COMPILE, "the compiler %s did not precompile %s",
                         job->flags[0], job->header);
  if (rc != 0 || !quiet) {
    /* Kept as an empty entry, which says "compile the text" to the next
     * compile of this prelude without compiling it again. */
    FILE *f = fopen(b->built, "we");
    if (!f || fclose(f) != 0)
      return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", b->built);
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

int cuemu__pch_get(const char *const *flags, const char *compiler,
                   const char *plugin, const char *header,
                   const char *qualifiers) {
  char dir[PATH_MAX], gch[PATH_MAX + 8];
  /* No usable cache folder: no precompiled header (the unit is compiled
   * whole; the compile's own build already said why). */
  if (cuemu_cache_dir(dir, sizeof dir) != CUEMU_SUCCESS ||
      snprintf(gch, sizeof gch, "%s.gch", header) >= (int)sizeof gch)
    return -1;
  size_t size = 0;
  char *text = slurp(header, &size);
  if (!text)
    return -1;
  /* The key: the header's text, the compiler (and plugin) and every flag
   * of the compile; the headers the header includes (the qualifiers) are
   * the entry's dependencies. */
  cuemu_hasher *h;
  if (cuemu_hasher_create(&h, "cuemu-cc pch") != CUEMU_SUCCESS) {
    free(text);
    return -1;
  }
  cuemu_hasher_add_file_stamp(h, compiler);
  if (plugin && plugin[0])
    cuemu_hasher_add_file_stamp(h, plugin);
  for (int i = 1; flags[i]; ++i)
    cuemu_hasher_add_string(h, flags[i]);
  cuemu_hasher_add_string(h, "--");
  cuemu_hasher_add(h, text, size);
  free(text);
  cuemu_cache_key key, mark_key;
  cuemu_hasher_finish(h, &key);
  pch_job job = {flags, header, qualifiers};
  /* A prelude is precompiled the second time it is compiled, so that a
   * compile with flags of its own (one test, one experiment) does not pay
   * for a precompiled header that nothing else would use: the first time
   * leaves a mark in the cache (an empty entry of a key of its own). */
  int marked = 0;
  if (cuemu_hasher_create(&h, "cuemu-cc pch mark") != CUEMU_SUCCESS)
    return -1;
  cuemu_hasher_add_string(h, key.hex);
  cuemu_hasher_finish(h, &mark_key);
  cuemu_status mark_st =
      cuemu_cache_get(&mark_key, gch, 1, build_mark, &job, &marked);
  unlink(gch);
  if (mark_st != CUEMU_SUCCESS || !marked)
    return -1;
  struct stat st;
  if (cuemu_cache_get(&key, gch, 1, build_pch, &job, NULL) != CUEMU_SUCCESS ||
      stat(gch, &st) != 0 || st.st_size == 0) {
    unlink(gch);
    return -1;
  }
  return 0;
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
