/*
 * cuemu_compile.c: cuemu_compile(), the compile driver behind cuemu-cc.
 *
 * The .cu file is rewritten (cuemu_rewrite.h), wrapped with its kernel table
 * (cuemu_codegen.h) and compiled by $CXX as C++17 with the shims
 * force-included; the result is cached (<cuemu/cuemu_cache.h>).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_cache.h>
#include <cuemu/cuemu_device.h>

#include "check/cuemu_check.h"
#include "base/cuemu_report.h"
#include "cuemu_codegen.h"
#include "cuemu_rewrite.h"

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

/* Splits the compiler command ("g++", "ccache clang++ -m64") into words. */
static int split_words(char *s, char **words, int max) {
  int n = 0;
  for (char *tok = strtok(s, " \t"); tok && n < max; tok = strtok(NULL, " \t"))
    words[n++] = tok;
  return n;
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
  cuemu_cache_key key;
  const char *text;          /* the source's contents */
  size_t size;
  char tu[PATH_MAX + 96];    /* the generated translation unit */
  const char **search;       /* the header search folders, for the cache */
  const char **quote_dirs;   /* the folders of quoted includes: its start */
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

/* Computes the job's cache key. */
static cuemu_status hash_job(compile_job *job) {
  cuemu_hasher *h;
  const cuemu_compile_options *o = job->opt;
  char num[64];
  cuemu_status st = cuemu_hasher_create(&h, "cuemu-cc");
  if (st != CUEMU_SUCCESS)
    return st;
  snprintf(num, sizeof num, "abi %d module %d debug %d", CUEMU_MODULE_ABI,
           o->module, o->debug);
  cuemu_hasher_add_string(h, num);
  cuemu_hasher_add_file_stamp(h, job->compiler);
  st = cuemu_hasher_add_context(h, o->argc, (const char *const *)o->argv);
  if (st != CUEMU_SUCCESS) {
    cuemu_hasher_finish(h, NULL);
    return st;
  }
  /* The whole compiler command, with fixed names for the temporary files,
   * so that any change of flags (the user's or the driver's) is a miss. */
  int max = 64 + o->argc + job->cxx_count;
  const char **argv = calloc((size_t)max, sizeof *argv);
  char *buffers = malloc(8 * PATH_MAX);
  if (!argv || !buffers) {
    free(argv);
    free(buffers);
    cuemu_hasher_finish(h, NULL);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  build_argv(job, "TU", "DEPS", "OUT", argv, max, buffers, 8 * PATH_MAX,
             PHASE_ALL);
  for (int i = 1; argv[i]; ++i)
    cuemu_hasher_add_string(h, argv[i]);
  free(argv);
  free(buffers);
  cuemu_hasher_add_string(h, "--");
  for (int i = 0; i < o->name_expression_count; ++i)
    cuemu_hasher_add_string(h, o->name_expressions[i]);
  cuemu_hasher_add_string(h, "--");
  cuemu_hasher_add_string(h, job->source);
  cuemu_hasher_add(h, job->text, job->size);
  cuemu_hasher_finish(h, &job->key);
  return CUEMU_SUCCESS;
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

/* Runs one compiler command; returns SUCCESS or COMPILE. */
static cuemu_status run_compiler(const compile_job *job, const char **argv) {
  int rc;
  if (cuemu_command_run(argv, NULL, &rc) != CUEMU_SUCCESS)
    return cuemu__report(CUEMU_COMPILE, "cannot run the compiler %s",
                         job->cxx_words[0]);
  if (rc != 0)
    return cuemu__report(CUEMU_COMPILE,
                         "%s did not compile (the compiler's messages are "
                         "above)",
                         job->source);
  return CUEMU_SUCCESS;
}

/* The build of a cache miss (a cuemu_cache_build_fn): rewrites the source
 * into a translation unit beside the other temporary files and compiles it
 * into `b->built`. */
static cuemu_status build(void *data, cuemu_cache_build *b) {
  compile_job *job = data;
  const cuemu_compile_options *o = job->opt;
  cuemu_rewrite rw;
  cuemu_status st = cuemu__rewrite_source(job->text, job->size, job->source,
                                          &rw);
  if (st != CUEMU_SUCCESS)
    return cuemu__report(st, "%s", rw.message);

  char *tu = job->tu, object[PATH_MAX + 96];
  if (snprintf(tu, sizeof job->tu, "%s.cpp", b->temp) >= (int)sizeof job->tu ||
      snprintf(object, sizeof object, "%s.o", b->temp) >= (int)sizeof object) {
    cuemu__rewrite_free(&rw);
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  }
  FILE *f = fopen(tu, "we");
  if (!f) {
    int err = errno;
    cuemu__rewrite_free(&rw);
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", tu,
                         strerror(err));
  }
  /* The generated file is not a header of the entry (job->tu outlives
   * this call, as b->skip must), and headers are searched for in the
   * source's folder and the user's folders. */
  b->skip = tu;
  b->search = job->search;
  int werr = cuemu__codegen_write(f, job->source, job->quote_dirs, &rw,
                                  o->module,
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
  if (job->checks) {
    build_argv(job, tu, b->depfile, object, argv, max, buffers, bufsize,
               PHASE_COMPILE);
    st = run_compiler(job, argv);
    if (st == CUEMU_SUCCESS) {
      build_argv(job, object, b->depfile, b->built, argv, max, buffers,
                 bufsize, PHASE_LINK);
      st = run_compiler(job, argv);
    }
    unlink(object);
  } else {
    build_argv(job, tu, b->depfile, b->built, argv, max, buffers, bufsize,
               PHASE_ALL);
    st = run_compiler(job, argv);
  }
  free(argv);
  free(buffers);
  if (!getenv("CUEMU_KEEP_TU"))
    unlink(tu);
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
  if (job.cxx_count == 0 || cuemu_command_find(job.cxx_words[0], job.compiler,
                                                sizeof job.compiler) !=
                                 CUEMU_SUCCESS) {
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
  job.text = text;
  job.size = size;
  /* Where quoted includes are searched, in order: the source's folder
   * (-iquote), the user's -iquote folders, then the -I folders. */
  job.search = calloc((size_t)options->argc + 2, sizeof *job.search);
  if (!job.search) {
    free(text);
    free(job.cxx_copy);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  job.quote_dirs = calloc((size_t)options->argc + 2, sizeof *job.quote_dirs);
  if (!job.quote_dirs) {
    free(job.search);
    free(text);
    free(job.cxx_copy);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  int nsearch = 0;
  job.search[nsearch++] = job.source_dir;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1)
      memcpy(job.quote_dirs, job.search, (size_t)nsearch * sizeof *job.search);
    const char *flag = pass == 0 ? "-iquote" : "-I";
    size_t n = strlen(flag);
    for (int i = 0; i < options->argc; ++i) {
      const char *a = options->argv[i];
      if (strncmp(a, flag, n) != 0)
        continue;
      if (a[n])
        job.search[nsearch++] = a + n;
      else if (i + 1 < options->argc)
        job.search[nsearch++] = options->argv[++i];
    }
  }
  const char *no_cache = getenv("CUEMU_NO_CACHE");
  int use_cache = !options->no_cache && !links_other_files(options) &&
                  !(no_cache && strcmp(no_cache, "1") == 0);
  cuemu_status st = hash_job(&job);
  if (st == CUEMU_SUCCESS)
    st = cuemu_cache_get(&job.key, output, use_cache, build, &job, cache_hit);
  free(text);
  free(job.search);
  free(job.quote_dirs);
  free(job.cxx_copy);
  return st;
}

/* Options that take their value as the next word. */
static int takes_value(const char *a) {
  return strcmp(a, "-I") == 0 || strcmp(a, "-D") == 0 ||
         strcmp(a, "-U") == 0 || strcmp(a, "-include") == 0 ||
         strcmp(a, "-isystem") == 0;
}

cuemu_status cuemu_compile_command(int argc, const char *const *argv,
                                   int *cache_hit) {
  if (cache_hit)
    *cache_hit = 0;
  if (argc < 0 || (argc > 0 && !argv))
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_compile_command: no argument vector");
  cuemu_compile_options opt;
  memset(&opt, 0, sizeof opt);
  const char **pass = calloc((size_t)argc + 1, sizeof *pass);
  const char **names = calloc((size_t)argc + 1, sizeof *names);
  if (!pass || !names) {
    free(pass);
    free(names);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  const char *source = NULL, *output = NULL;
  int npass = 0, nnames = 0, verbose = 0;
  cuemu_status st = CUEMU_SUCCESS;
  for (int i = 0; i < argc && st == CUEMU_SUCCESS; ++i) {
    const char *a = argv[i];
    if (!a) {
      st = cuemu__report(CUEMU_INVALID_VALUE, "argument %d is NULL", i);
    } else if (strcmp(a, "--module") == 0) {
      opt.module = 1;
    } else if (strcmp(a, "-g") == 0) {
      opt.debug = 1;
    } else if (strncmp(a, "--check=", 8) == 0) {
      opt.checks = a + 8;
    } else if (strncmp(a, "--cxx=", 6) == 0) {
      opt.cxx = a + 6;
    } else if (strcmp(a, "--no-cache") == 0) {
      opt.no_cache = 1;
    } else if (strcmp(a, "-v") == 0) {
      verbose = 1;
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--name-expr") == 0 ||
               takes_value(a)) {
      if (i + 1 >= argc || !argv[i + 1]) {
        st = cuemu__report(CUEMU_INVALID_VALUE, "%s needs a value", a);
      } else if (a[1] == 'o' && !a[2]) {
        output = argv[++i];
      } else if (a[1] == '-') {
        names[nnames++] = argv[++i];
      } else {
        pass[npass++] = a;
        pass[npass++] = argv[++i];
      }
    } else if (a[0] == '-' && a[1]) {
      pass[npass++] = a;
    } else if (!source) {
      source = a;
    } else {
      st = cuemu__report(CUEMU_INVALID_VALUE,
                         "one source file at a time (%s and %s)", source, a);
    }
  }
  if (st == CUEMU_SUCCESS && !source)
    st = cuemu__report(CUEMU_INVALID_VALUE, "no source file given");
  char default_output[PATH_MAX];
  if (st == CUEMU_SUCCESS && !output) {
    if (opt.module) {
      const char *base = strrchr(source, '/');
      base = base ? base + 1 : source;
      const char *dot = strrchr(base, '.');
      int len = dot ? (int)(dot - base) : (int)strlen(base);
      snprintf(default_output, sizeof default_output, "%.*s.so", len, base);
      output = default_output;
    } else {
      output = "a.out";
    }
  }
  int hit = 0;
  if (st == CUEMU_SUCCESS) {
    opt.argv = pass;
    opt.argc = npass;
    opt.name_expressions = names;
    opt.name_expression_count = nnames;
    st = cuemu_compile(source, output, &opt, &hit);
  }
  if (st == CUEMU_SUCCESS && verbose)
    fprintf(stderr, "cuemu-cc: %s: %s\n", output,
            hit ? "cache hit" : "compiled");
  if (cache_hit)
    *cache_hit = hit;
  free(pass);
  free(names);
  return st;
}
