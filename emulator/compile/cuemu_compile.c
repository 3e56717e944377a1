/*
 * cuemu_compile.c: cuemu_compile(), the compile driver behind cuemu-cc.
 *
 * The .cu file is rewritten (cuemu_rewrite.h), wrapped with its kernel table
 * (cuemu_codegen.h) and compiled by $CXX as C++17 with the shims
 * force-included; the result is cached (cuemu_cache.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>

#include "check/cuemu_check.h"
#include "base/cuemu_report.h"
#include "cuemu_cache.h"
#include "cuemu_codegen.h"
#include "cuemu_rewrite.h"

extern char **environ;

#define MAX_CXX_WORDS 16

/* Where the shims, the public headers and libcuemu are: the environment
 * (for an uninstalled build tree) or the configured install locations. */
static const char *location(const char *env, const char *installed) {
  const char *v = getenv(env);
  return v && *v ? v : installed;
}

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rbe");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
    len += n;
    if (len == cap) {
      char *bigger = realloc(buf, cap *= 2);
      if (!bigger) {
        free(buf);
        buf = NULL;
      }
      buf = bigger;
    }
  }
  if (ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf)
    *size = len;
  return buf;
}

/* Finds `name` on PATH (or takes it as a path) and returns its real path. */
static int resolve_program(const char *name, char *out) {
  if (strchr(name, '/'))
    return realpath(name, out) ? 0 : -1;
  const char *path = getenv("PATH");
  if (!path)
    path = "/usr/bin:/bin";
  while (*path) {
    const char *end = strchr(path, ':');
    size_t len = end ? (size_t)(end - path) : strlen(path);
    char candidate[PATH_MAX];
    if (snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, path,
                 name) < (int)sizeof candidate &&
        access(candidate, X_OK) == 0 && realpath(candidate, out))
      return 0;
    path += len + (end ? 1 : 0);
  }
  return -1;
}

/* Splits the compiler command ("g++", "ccache clang++ -m64") into words. */
static int split_words(char *s, char **words, int max) {
  int n = 0;
  for (char *tok = strtok(s, " \t"); tok && n < max; tok = strtok(NULL, " \t"))
    words[n++] = tok;
  return n;
}

/* Runs argv, waiting for it; returns its exit status or -1. */
static int run(char *const *argv) {
  pid_t pid;
  if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0)
    return -1;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  /* A compiler killed by a signal is a failed compile, not a missing one. */
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

typedef struct compile_job {
  const cuemu_compile_options *opt;
  char source[PATH_MAX];     /* absolute path of the .cu */
  char source_dir[PATH_MAX];
  char compiler[PATH_MAX];   /* real path of the compiler */
  char *cxx_copy;
  char *cxx_words[MAX_CXX_WORDS];
  int cxx_count;
  const char *shims, *include, *libdir;
  char cache[PATH_MAX];
  cuemu_cache_key key;
  int use_cache;             /* look up and store results */
  unsigned checks;           /* checkers built in (check/cuemu_check.h) */
} compile_job;

/* The steps of a build: one command, or (for checked builds, which are
 * instrumented for the checkers but must not link ThreadSanitizer's
 * runtime) a compile and a link. */
enum build_phase { PHASE_ALL, PHASE_COMPILE, PHASE_LINK };

/* Builds the compiler's argument vector into argv (at most `max`). */
static int build_argv(const compile_job *job, const char *tu,
                      const char *depfile, const char *built,
                      const char **argv, int max, char *buffers,
                      size_t buffer_size, int phase) {
  const cuemu_compile_options *o = job->opt;
  int n = 0;
  size_t used = 0;
#define ARG(s) (n < max - 1 ? (void)(argv[n++] = (s)) : (void)0)
#define ARGF(...)                                                              \
  do {                                                                         \
    int len_ = snprintf(buffers + used, buffer_size - used, __VA_ARGS__);      \
    if (len_ >= 0 && used + (size_t)len_ + 1 <= buffer_size) {                 \
      ARG(buffers + used);                                                     \
      used += (size_t)len_ + 1;                                                \
    }                                                                          \
  } while (0)
  for (int i = 0; i < job->cxx_count; ++i)
    ARG(job->cxx_words[i]);
  if (phase == PHASE_LINK) {
    ARG("-pthread");
    for (int i = 0; i < o->argc; ++i)
      ARG(o->argv[i]);
    ARG(tu); /* the object */
    goto link;
  }
  ARG("-std=c++17");
  if (o->debug) {
    ARG("-g");
    ARG("-O0");
  } else {
    ARG("-O2");
    /* Takes the "has this thread blocked?" test out of the loop over the
     * threads of a barrier-free kernel (see shims/cuda_builtins/cuemu_kernel_thunks.h); clang
     * has no such flag (it warns) and unswitches on its own. */
    if (!strstr(job->compiler, "clang"))
      ARG("-funswitch-loops");
  }
  ARG("-fPIC");
  /* Kernels are reached through the generated table, never by symbol, so
   * they can be hidden and inlined into their thunks. */
  ARG("-fvisibility=hidden");
  ARG("-fno-semantic-interposition");
  /* Large frames probe their pages in order, so a big local array that
   * overflows a thread's stack hits the guard area instead of jumping over
   * it into other memory. */
  ARG("-fstack-clash-protection");
  ARG("-pthread");
  for (int i = 0; i < o->argc; ++i)
    ARG(o->argv[i]);
  /* After the user's flags, so that -Wall does not bring it back: CUDA's own
   * pragmas (#pragma unroll, nv_diag_suppress) mean nothing to a host
   * compiler, and nvcc does not warn about them. */
  ARG("-Wno-unknown-pragmas");
  ARGF("-I%s", job->shims);
  ARGF("-I%s", job->include);
  ARGF("-iquote%s", job->source_dir);
  ARG("-include");
  ARGF("%s/cuda_runtime.h", job->shims);
  ARG("-MD");
  ARG("-MF");
  ARG(depfile);
  if (job->checks & ~(unsigned)CUEMU_CHECK_SYNC) {
    /* Every access calls libcuemu's __tsan_* functions
     * (emulator/check/cuemu_check_tsan.c); -g gives reports their lines. */
    ARG("-fsanitize=thread");
    /* DWARF 4: binutils' addr2line names the generated .cpp instead of the
     * .cu for some addresses of a DWARF 5 line table with #line. */
    ARG("-gdwarf-4");
    /* Copies stay calls (of the __wrap_ functions, see the link below):
     * inlined, they would be moves that no instrumentation sees. */
    ARG("-fno-builtin-memcpy");
    ARG("-fno-builtin-memmove");
    ARG("-fno-builtin-memset");
    /* memcheck of arrays whose bound the compiler knows (local and static
     * __shared__ arrays): emulator/check/cuemu_check_bounds.c. */
    if (job->checks & (unsigned)CUEMU_CHECK_MEM)
      ARG("-fsanitize=bounds");
    if (strstr(job->compiler, "clang")) {
      ARG("-mllvm");
      ARG("-tsan-instrument-func-entry-exit=0");
    } else {
      ARG("--param=tsan-instrument-func-entry-exit=0");
      ARG("-Wno-tsan");
    }
  }
  ARG("-x");
  ARG("c++");
  ARG(tu);
  ARG("-x");
  ARG("none");
  if (phase == PHASE_COMPILE) {
    ARG("-c");
    ARG("-o");
    ARG(built);
    argv[n] = NULL;
    return n;
  }
link:
  if (o->module)
    ARG("-shared");
  ARG("-o");
  ARG(built);
  ARGF("-L%s", job->libdir);
  ARG("-lcuemu");
  ARGF("-Wl,-rpath,%s", job->libdir);
  if (job->checks) {
    ARGF("-Wl,--defsym=" CUEMU_CHECK_BUILT_SYMBOL "=%u", job->checks);
    /* Calls of these go through libcuemu's __wrap_* (cuemu_check_tsan.c),
     * which tell the checkers what they touch. (Synccheck alone needs no
     * instrumentation.) */
    if (job->checks & ~(unsigned)CUEMU_CHECK_SYNC)
      ARG("-Wl,--wrap=memcpy,--wrap=memmove,--wrap=memset");
  }
  argv[n] = NULL;
  return n;
#undef ARG
#undef ARGF
}

/* Computes the job's cache key; returns 0, or -1 when out of memory. */
static int hash_job(compile_job *job, const char *text, size_t size) {
  cuemu_hasher h;
  const cuemu_compile_options *o = job->opt;
  char num[64];
  if (cuemu__hasher_init(&h) != 0)
    return -1;
  cuemu__hasher_add_string(&h, "cuemu " CUEMU_VERSION);
  snprintf(num, sizeof num, "abi %d module %d debug %d", CUEMU_MODULE_ABI,
           o->module, o->debug);
  cuemu__hasher_add_string(&h, num);
  struct stat st;
  cuemu__hasher_add_string(&h, job->compiler);
  if (stat(job->compiler, &st) == 0) {
    snprintf(num, sizeof num, "%lld %lld", (long long)st.st_size,
             (long long)st.st_mtime);
    cuemu__hasher_add_string(&h, num);
  }
  /* The whole compiler command, with fixed names for the temporary files,
   * so that any change of flags (the user's or the driver's) is a miss. */
  int max = 64 + o->argc + job->cxx_count;
  const char **argv = calloc((size_t)max, sizeof *argv);
  char *buffers = malloc(8 * PATH_MAX);
  if (!argv || !buffers) {
    free(argv);
    free(buffers);
    cuemu__hasher_finish(&h, &job->key);
    return -1;
  }
  build_argv(job, "TU", "DEPS", "OUT", argv, max, buffers, 8 * PATH_MAX,
             PHASE_ALL);
  for (int i = 1; argv[i]; ++i)
    cuemu__hasher_add_string(&h, argv[i]);
  free(argv);
  free(buffers);
  cuemu__hasher_add_string(&h, "--");
  for (int i = 0; i < o->name_expression_count; ++i)
    cuemu__hasher_add_string(&h, o->name_expressions[i]);
  cuemu__hasher_add_string(&h, "--");
  cuemu__hasher_add_string(&h, job->source);
  cuemu__hasher_add(&h, text, size);
  cuemu__hasher_finish(&h, &job->key);
  return 0;
}

/* Non-zero when the options bring in link inputs (-l, -L, -Wl,...) whose
 * contents the cache key cannot cover: such builds are not cached. */
static int links_other_files(const cuemu_compile_options *o) {
  for (int i = 0; i < o->argc; ++i) {
    const char *a = o->argv[i];
    if (strncmp(a, "-l", 2) == 0 || strncmp(a, "-L", 2) == 0 ||
        strncmp(a, "-Wl,", 4) == 0 || strcmp(a, "-Xlinker") == 0)
      return 1;
  }
  return 0;
}

static cuemu_status build(compile_job *job, const char *text, size_t size,
                          const char *output) {
  const cuemu_compile_options *o = job->opt;
  cuemu_rewrite rw;
  cuemu_status st = cuemu__rewrite_source(text, size, job->source, &rw);
  if (st != CUEMU_SUCCESS)
    return cuemu__report(st, "%s", rw.message);

  char tu[PATH_MAX + 96], depfile[PATH_MAX + 96], built[PATH_MAX + 96];
  char suffix[64];
  cuemu__temp_suffix(suffix, sizeof suffix);
  if (snprintf(tu, sizeof tu, "%s/%s%s.cpp", job->cache, job->key.hex,
               suffix) >= (int)sizeof tu ||
      snprintf(depfile, sizeof depfile, "%s/%s%s.d", job->cache,
               job->key.hex, suffix) >= (int)sizeof depfile ||
      snprintf(built, sizeof built, "%s/%s%s.bin", job->cache, job->key.hex,
               suffix) >= (int)sizeof built) {
    cuemu__rewrite_free(&rw);
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  }
  /* File times come from the coarse clock: compare with it. */
  struct timespec since;
  clock_gettime(CLOCK_REALTIME_COARSE, &since);
  FILE *f = fopen(tu, "we");
  if (!f) {
    int err = errno;
    cuemu__rewrite_free(&rw);
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", tu,
                         strerror(err));
  }
  int werr = cuemu__codegen_write(f, job->source, &rw, o->module,
                                  o->name_expressions,
                                  o->name_expression_count);
  cuemu__rewrite_free(&rw);
  if (fclose(f) != 0 || werr != 0) {
    unlink(tu);
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", tu);
  }

  int max = 64 + o->argc + job->cxx_count;
  const char **argv = calloc((size_t)max, sizeof *argv);
  size_t bufsize = 8 * PATH_MAX;
  char *buffers = malloc(bufsize);
  if (!argv || !buffers) {
    free(argv);
    free(buffers);
    unlink(tu);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  int rc;
  if (job->checks) {
    char object[PATH_MAX + 100];
    snprintf(object, sizeof object, "%s.o", built);
    build_argv(job, tu, depfile, object, argv, max, buffers, bufsize,
               PHASE_COMPILE);
    rc = run((char *const *)argv);
    if (rc == 0) {
      build_argv(job, object, depfile, built, argv, max, buffers, bufsize,
                 PHASE_LINK);
      rc = run((char *const *)argv);
    }
    unlink(object);
  } else {
    build_argv(job, tu, depfile, built, argv, max, buffers, bufsize,
               PHASE_ALL);
    rc = run((char *const *)argv);
  }
  free(argv);
  free(buffers);
  if (!getenv("CUEMU_KEEP_TU"))
    unlink(tu);
  if (rc != 0) {
    unlink(depfile);
    unlink(built);
    if (rc < 0)
      return cuemu__report(CUEMU_COMPILE, "cannot run the compiler %s",
                           job->cxx_words[0]);
    return cuemu__report(CUEMU_COMPILE,
                         "%s did not compile (the compiler's messages are "
                         "above)",
                         job->source);
  }
  st = CUEMU_SUCCESS;
  if (cuemu__file_install(built, output) != 0) {
    int err = errno;
    st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", output,
                       strerror(err));
  } else if (job->use_cache && cuemu__cache_store(job->cache, &job->key, built,
                                                  depfile, tu, &since) != 0) {
    /* The output is there; only later compiles lose the cache. */
    fprintf(stderr,
            "cuemu-cc: note: %s was not stored in the cache %s (a header "
            "changed during the compile, or the cache cannot be written)\n",
            job->source, job->cache);
  }
  unlink(depfile);
  unlink(built);
  return st;
}

cuemu_status cuemu_compile(const char *source, const char *output,
                           const cuemu_compile_options *options,
                           int *cache_hit) {
  cuemu_compile_options defaults;
  if (!options) {
    memset(&defaults, 0, sizeof defaults);
    options = &defaults;
  }
  if (cache_hit)
    *cache_hit = 0;
  if (!source || !output)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_compile: source and output are required");
  compile_job job;
  memset(&job, 0, sizeof job);
  job.opt = options;
  if (!realpath(source, job.source))
    return cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s", source,
                         strerror(errno));
  snprintf(job.source_dir, sizeof job.source_dir, "%s", job.source);
  dirname(job.source_dir);
  const char *cxx = options->cxx;
  if (!cxx || !*cxx)
    cxx = getenv("CXX");
  if (!cxx || !*cxx)
    cxx = "c++";
  job.cxx_copy = strdup(cxx);
  if (!job.cxx_copy)
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  job.cxx_count = split_words(job.cxx_copy, job.cxx_words, MAX_CXX_WORDS);
  char bad[64];
  /* CUEMU_CC_CHECK builds checkers into every compile that asks for none,
   * so that a whole test suite can run checked. */
  const char *checks = options->checks;
  if (!checks)
    checks = getenv("CUEMU_CC_CHECK");
  if (cuemu__check_parse(checks, &job.checks, bad, sizeof bad) != 0) {
    free(job.cxx_copy);
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "--check: unknown checker '%s' (expected a list of "
                         "sync, race, mem, init or all)",
                         bad);
  }
  if (job.cxx_count == 0 || resolve_program(job.cxx_words[0], job.compiler)) {
    cuemu_status st = cuemu__report(CUEMU_COMPILE,
                                    "compiler '%s' not found (set CXX)", cxx);
    free(job.cxx_copy);
    return st;
  }
  job.shims = location("CUEMU_SHIMS_DIR", CUEMU_INSTALL_SHIMS_DIR);
  job.include = location("CUEMU_INCLUDE_DIR", CUEMU_INSTALL_INCLUDE_DIR);
  job.libdir = location("CUEMU_LIB_DIR", CUEMU_INSTALL_LIB_DIR);

  size_t size = 0;
  char *text = read_file(job.source, &size);
  if (!text) {
    free(job.cxx_copy);
    return cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s", source,
                         strerror(errno));
  }
  cuemu_status st = CUEMU_SUCCESS;
  if (cuemu__cache_dir(job.cache, sizeof job.cache) != 0) {
    st = cuemu__report(CUEMU_CACHE, "cannot create the cache folder %s",
                       job.cache);
  } else {
    const char *no_cache = getenv("CUEMU_NO_CACHE");
    job.use_cache = !options->no_cache && !links_other_files(options) &&
                    !(no_cache && strcmp(no_cache, "1") == 0);
    if (hash_job(&job, text, size) != 0) {
      st = cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
    } else if (job.use_cache &&
               cuemu__cache_fetch(job.cache, &job.key, output) == 1) {
      if (cache_hit)
        *cache_hit = 1;
    } else {
      st = build(&job, text, size, output);
    }
  }
  free(text);
  free(job.cxx_copy);
  return st;
}
