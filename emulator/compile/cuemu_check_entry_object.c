/*
 * cuemu_check_entry_object.c: the object that defines a checked build's
 * ThreadSanitizer entry points (shims/cuda_builtins/cuemu_check_entry.h),
 * compiled once per compiler and checker set into the compile cache.
 *
 * Every translated unit of a checked build used to define the 30 entry
 * points itself, in both passes: they were most of the compile of a small
 * unit (1.14 s of a device pass with them, 0.40 s without; 0.73 s and
 * 0.22 s of a host pass). The units now declare them, and cuemu-cc links
 * this object into each checked output (cuemu_compile.c). What its code
 * depends on is the compiler and the macros of the checkers built in
 * (racecheck's one-function fast path, initcheck's "written" maps); it is
 * always optimised (-O2) and never instrumented, whatever the unit's -O,
 * -g or -fsanitize, and its flags are those that the units' compiles gave
 * the entry points, so that their code is what it was.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/cuemu_report.h"
#include "check/cuemu_check.h"
#include "cuemu/cuemu_cache.h"
#include "cuemu_driver.h"

/* What the build callback needs. */
typedef struct entry_job {
  char *const *cxx; /* the compiler's words */
  int ncxx;
  const char *const *macros; /* the checkers' macros, NULL-terminated */
  const char *shims, *include;
  /* The generated source, which the build's dependency list names and the
   * cache must not record (cuemu_cache_build's `skip`): it lives here, not
   * on build_entry()'s stack, because the cache reads `skip` after the
   * callback has returned (a pointer into the callback's stack frame read
   * garbage there, so the removed source was recorded, its path could not
   * be resolved, and no checked build's entry object was ever stored). */
  char source[PATH_MAX + 96];
} entry_job;

/* The macros of the checkers in `checks` that the entry points' code
 * depends on, as cuemu-cc gives them to a unit's compile (build_argv() in
 * cuemu_compile.c), into `out` (room for 3, NULL-terminated). */
static void entry_macros(unsigned checks, const char **out) {
  int n = 0;
  if (checks & (unsigned)CUEMU_CHECK_RACE)
    out[n++] = "-DCUEMU_CHECK_ENTRY_RACE=1";
  if (!(checks & (unsigned)CUEMU_CHECK_INIT))
    out[n++] = "-DCUEMU_CHECK_FAST_NO_INIT=1";
  out[n] = NULL;
}

/* The unit's flags that shape the entry points' code (build_argv()),
 * without -fsanitize=thread: the checked build's macro is given
 * instead, and nothing is instrumented, nor does the object call
 * __tsan_init. Each function in a section of its own, as in the units:
 * `ld -r` then places them after the units' sections, so that a -c
 * object linked without libcuemu still fails first on the link advice
 * (cuemu_codegen.c), not on these functions' calls of libcuemu, which a
 * plain .text section would put before it. */
static const char *const entry_flags[] = {"-std=c++17",
                                          "-O2",
                                          "-fPIC",
                                          "-ffunction-sections",
                                          "-fno-strict-aliasing",
                                          "-fno-optimize-sibling-calls",
                                          "-fno-semantic-interposition",
                                          "-fvisibility=hidden",
                                          "-w",
                                          "-DCUEMU_CHECKED_BUILD=1",
                                          "-DCUEMU_CHECK_ENTRY_DEFINE=1",
                                          NULL};

/* Compiles the object (a cuemu_cache_build_fn). */
static cuemu_status build_entry(void *data, cuemu_cache_build *b) {
  entry_job *job = data;
  char *source = job->source, shims[PATH_MAX + 4], include[PATH_MAX + 4];
  if ((size_t)snprintf(source, sizeof job->source, "%s.entry.cpp", b->temp) >=
          sizeof job->source ||
      (size_t)snprintf(shims, sizeof shims, "-I%s", job->shims) >=
          sizeof shims ||
      (size_t)snprintf(include, sizeof include, "-I%s", job->include) >=
          sizeof include)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  FILE *f = fopen(source, "we");
  if (!f)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", source);
  int werr = fputs("#include <cuemu_check_entry.h>\n", f) < 0;
  if (fclose(f) != 0 || werr) {
    unlink(source);
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", source);
  }
  const char *argv[64];
  int n = 0;
  for (int i = 0; i < job->ncxx && n < 32; ++i)
    argv[n++] = job->cxx[i];
  for (int i = 0; entry_flags[i]; ++i)
    argv[n++] = entry_flags[i];
  for (int i = 0; job->macros[i]; ++i)
    argv[n++] = job->macros[i];
  const char *tail[] = {shims,      include, "-MD", "-MF", b->depfile, "-c",
                        source,     "-o",    b->built, NULL};
  for (int i = 0; tail[i]; ++i)
    argv[n++] = tail[i];
  argv[n] = NULL;
  b->skip = source;
  int rc = -1;
  cuemu_status st = cuemu_command_run(argv, NULL, &rc);
  unlink(source);
  if (st != CUEMU_SUCCESS || rc != 0)
    return cuemu__report(CUEMU_COMPILE,
                         "%s did not compile the checkers' entry points",
                         job->cxx[0]);
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__check_entry_object(char *const *cxx, int ncxx,
                                       const char *compiler, unsigned checks,
                                       const char *shims, const char *include,
                                       int use_cache, const char *temp,
                                       char *object, size_t size) {
  if ((size_t)snprintf(object, size, "%s.entry.o", temp) >= size)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  const char *macros[3];
  entry_macros(checks, macros);
  /* The key: the compiler (its words and the program they run), the
   * flags given it and the checkers' macros, the shims' and libcuemu's
   * folders, and the environment that moves the compiler's search paths;
   * the headers read are the entry's dependencies. */
  cuemu_hasher *h;
  cuemu_status st = cuemu_hasher_create(&h, "cuemu-cc check entry");
  if (st != CUEMU_SUCCESS)
    return st;
  for (int i = 0; i < ncxx; ++i)
    cuemu_hasher_add_string(h, cxx[i]);
  cuemu_hasher_add_string(h, "--");
  cuemu_hasher_add_file_stamp(h, compiler);
  for (int i = 0; entry_flags[i]; ++i)
    cuemu_hasher_add_string(h, entry_flags[i]);
  for (int i = 0; macros[i]; ++i)
    cuemu_hasher_add_string(h, macros[i]);
  cuemu_hasher_add_string(h, shims);
  cuemu_hasher_add_string(h, include);
  st = cuemu_hasher_add_context(h, 0, NULL);
  cuemu_cache_key key;
  cuemu_hasher_finish(h, st == CUEMU_SUCCESS ? &key : NULL);
  if (st != CUEMU_SUCCESS)
    return st;
  entry_job job = {cxx, ncxx, macros, shims, include, ""};
  st = cuemu_cache_get(&key, object, use_cache, build_entry, &job, NULL);
  if (st != CUEMU_SUCCESS)
    unlink(object);
  return st;
}
