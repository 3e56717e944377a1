/*
 * cuemu_run.c: the cuemu-run command, which compiles a whole CUDA program
 * and runs it in one step:
 *
 *   cuemu-run [options] prog.cu [more.cu more.cpp ...] [program arguments...]
 *
 * Sources that follow the first one (.cu, .cpp, .cc, .cxx, .c, .o, .a files
 * that exist) are part of the program; they are compiled and linked as
 * cuemu-cc does with several inputs (cuemu_compile_command).
 * The program is built by cuemu_compile() (program mode, through the compile
 * cache) into a file in the cache folder named after a hash of the source's
 * absolute path and the options, so that concurrent runs of different
 * programs never write the same file. Then cuemu-run replaces itself with
 * the program (execv, with the .cu path as argv[0]), so the program's exit
 * status is cuemu-run's. A program that calls the driver API (cuda.h) is
 * linked with the driver library, which nvcc links only where the command
 * says -lcuda: cuemu-run has no build file to say it. cuemu-run's own
 * errors (a missing file, a compile error, a bad option) exit with status
 * 2.
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

/* The exit status of cuemu-run's own failures. */
#define RUN_ERROR 2

static void usage(FILE *out) {
  fputs("usage: cuemu-run [options] FILE.cu [MORE SOURCES...] "
        "[program arguments...]\n"
        "Compiles a CUDA program for the cuemu CPU emulator (through the\n"
        "compile cache) and runs it; the exit status is the program's.\n"
        "\n"
        "  -g                debug build (-g -O0)\n"
        "  --check=LIST      build in checkers: sync, race, mem, init or all\n"
        "                    (docs/checkers.md)\n"
        "  -I DIR, -D X, -U X, -std=...\n"
        "                    passed to the C++ compiler\n"
        "  --extended-lambda, --expt-extended-lambda\n"
        "                    allow __device__ and __host__ lambdas (as nvcc)\n"
        "  --expt-relaxed-constexpr\n"
        "                    device code may call constexpr host functions\n"
        "  -rdc=true, --relocatable-device-code=true\n"
        "                    extern __device__ and __constant__ across sources\n"
        "  --cxx=COMPILER    the C++ compiler (default: $CXX, then c++)\n"
        "  -v                say on stderr whether the cache was hit\n"
        "  --                ends the options (for a FILE.cu starting with -)\n"
        "  --version, --help\n"
        "\n"
        "Options must come before FILE.cu; the source files that follow it\n"
        "(.cu, .cpp, .cc, .cxx, .c, .o, .a) are part of the program, and\n"
        "everything after them goes to the program (use -- before an\n"
        "argument that names such a file). cuemu-run's own errors exit with\n"
        "status 2.\n",
        out);
}

/* Options whose value may be the next argument. */
static int takes_value(const char *a) {
  return strcmp(a, "-I") == 0 || strcmp(a, "-D") == 0 ||
         strcmp(a, "-U") == 0;
}

/* Options passed through to the compiler with their value attached. */
static int passed_through(const char *a) {
  return (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0 ||
          strncmp(a, "-U", 2) == 0) ||
         strncmp(a, "-std=", 5) == 0;
}

/* Non-zero when `a` names an existing file that is a source or an object
 * of the program (by its suffix). */
static int is_source(const char *a) {
  static const char *const suffixes[] = {".cu", ".cpp", ".cc", ".cxx", ".c",
                                         ".o", ".a", NULL};
  const char *dot = strrchr(a, '.');
  if (!dot || access(a, R_OK) != 0)
    return 0;
  for (int i = 0; suffixes[i]; ++i)
    if (strcmp(dot, suffixes[i]) == 0)
      return 1;
  return 0;
}

/* The path of the program built from `source` (an absolute path) with these
 * options: CACHE/KEY.run, where KEY hashes the path, the options, the
 * compiler and (when an include folder is relative) the working folder.
 * Returns 0, or -1 with a message printed. */
static int program_path(char *out, size_t size, const char *source,
                        const cuemu_compile_options *opt) {
  char cache[PATH_MAX];
  cuemu_hasher *h;
  if (cuemu_cache_dir(cache, sizeof cache) != CUEMU_SUCCESS ||
      cuemu_hasher_create(&h, "cuemu-run") != CUEMU_SUCCESS) {
    fprintf(stderr, "cuemu-run: %s\n", cuemu_last_message());
    return -1;
  }
  cuemu_hasher_add_string(h, source);
  cuemu_hasher_add_string(h, opt->debug ? "-g" : "-O2");
  cuemu_hasher_add_string(h, opt->checks ? opt->checks : "");
  const char *cxx = opt->cxx ? opt->cxx : getenv("CXX");
  cuemu_hasher_add_string(h, cxx ? cxx : "");
  int relative = 0;
  for (int i = 0; i < opt->argc; ++i) {
    const char *a = opt->argv[i];
    cuemu_hasher_add_string(h, a);
    if (strncmp(a, "-I", 2) == 0) {
      const char *dir = a[2] ? a + 2 : i + 1 < opt->argc ? opt->argv[i + 1]
                                                         : "/";
      relative |= dir[0] != '/';
    }
  }
  if (relative) {
    char cwd[PATH_MAX];
    cuemu_hasher_add_string(h, getcwd(cwd, sizeof cwd) ? cwd : "?");
  }
  cuemu_cache_key key;
  cuemu_hasher_finish(h, &key);
  int n = snprintf(out, size, "%s/%s.run", cache, key.hex);
  if (n < 0 || (size_t)n >= size) {
    fprintf(stderr, "cuemu-run: the cache folder's path is too long: %s\n",
            cache);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  cuemu_compile_options opt;
  memset(&opt, 0, sizeof opt);
  const char **pass = calloc((size_t)argc + 3, sizeof *pass);
  if (!pass) {
    fputs("cuemu-run: out of memory\n", stderr);
    return RUN_ERROR;
  }
  int npass = 0, verbose = 0, first = 0, rdc = 0, relaxed = 0;
  for (int i = 1; i < argc && !first; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      printf("cuemu-run " CUEMU_VERSION "\n");
      return 0;
    } else if (strcmp(a, "--") == 0) {
      if (i + 1 >= argc)
        break;
      first = i + 1;
    } else if (strcmp(a, "-g") == 0) {
      opt.debug = 1;
    } else if (strcmp(a, "-v") == 0) {
      verbose = 1;
    } else if (strncmp(a, "--check=", 8) == 0) {
      opt.checks = a + 8;
    } else if (strncmp(a, "--cxx=", 6) == 0) {
      opt.cxx = a + 6;
    } else if (takes_value(a)) {
      if (i + 1 >= argc) {
        fprintf(stderr, "cuemu-run: %s needs a value\n", a);
        return RUN_ERROR;
      }
      pass[npass++] = a;
      pass[npass++] = argv[++i];
    } else if (strcmp(a, "--extended-lambda") == 0 ||
               strcmp(a, "--expt-extended-lambda") == 0) {
      /* Annotated lambdas, as nvcc's flag allows them. */
      pass[npass++] = "-D__CUDACC_EXTENDED_LAMBDA__=1";
    } else if (strcmp(a, "--expt-relaxed-constexpr") == 0 ||
               strcmp(a, "-expt-relaxed-constexpr") == 0) {
      /* Device code may call constexpr host functions, as with nvcc. */
      relaxed = 1;
    } else if (strcmp(a, "-rdc=true") == 0 ||
               strcmp(a, "--relocatable-device-code=true") == 0) {
      /* extern __device__ and __constant__ across the sources, which
       * cuemu-cc's message without it asks for. */
      rdc = 1;
    } else if (strcmp(a, "-rdc=false") == 0 ||
               strcmp(a, "--relocatable-device-code=false") == 0) {
      rdc = 0;
    } else if (passed_through(a)) {
      pass[npass++] = a;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "cuemu-run: unknown option %s (see cuemu-run --help)\n",
              a);
      return RUN_ERROR;
    } else {
      first = i;
    }
  }
  if (!first) {
    usage(stderr);
    return RUN_ERROR;
  }
  const char *source = argv[first];
  char absolute[PATH_MAX];
  if (!realpath(source, absolute)) {
    fprintf(stderr, "cuemu-run: cannot read %s: %s\n", source,
            strerror(errno));
    return RUN_ERROR;
  }
  /* One source compiles through cuemu_compile(), which takes nvcc's macros
   * of those options; several through cuemu-cc's command line, which
   * takes the options themselves (below). */
  int nopts = npass;
  if (relaxed)
    pass[nopts++] = "-D__CUDACC_RELAXED_CONSTEXPR__=1";
  if (rdc)
    pass[nopts++] = "-D__CUDACC_RDC__=1";
  opt.rdc = rdc;
  opt.argv = pass;
  opt.argc = nopts;
  /* More sources of the program. */
  int nsources = 1;
  while (first + nsources < argc && is_source(argv[first + nsources]))
    nsources++;
  char (*absolutes)[PATH_MAX] = calloc((size_t)nsources, sizeof *absolutes);
  if (!absolutes) {
    fputs("cuemu-run: out of memory\n", stderr);
    return RUN_ERROR;
  }
  for (int i = 0; i < nsources; ++i)
    if (!realpath(argv[first + i], absolutes[i])) {
      fprintf(stderr, "cuemu-run: cannot read %s: %s\n", argv[first + i],
              strerror(errno));
      return RUN_ERROR;
    }

  char program[PATH_MAX + 64];
  /* The program's name in the cache covers every source. */
  char key_source[PATH_MAX * 2];
  snprintf(key_source, sizeof key_source, "%s", absolute);
  for (int i = 1; i < nsources; ++i) {
    size_t used = strlen(key_source);
    snprintf(key_source + used, sizeof key_source - used, "\n%s",
             absolutes[i]);
  }
  if (program_path(program, sizeof program, key_source, &opt) != 0)
    return RUN_ERROR;
  int hit = 0;
  cuemu_status st;
  if (nsources == 1) {
    st = cuemu_compile(absolute, program, &opt, &hit);
  } else {
    /* Several files: cuemu-cc's command line does the phases. */
    const char **words = calloc((size_t)(npass + nsources + 8),
                                sizeof *words);
    char check_word[256], cxx_word[PATH_MAX + 8];
    int n = 0;
    if (!words) {
      fputs("cuemu-run: out of memory\n", stderr);
      return RUN_ERROR;
    }
    for (int i = 0; i < npass; ++i)
      words[n++] = pass[i];
    if (relaxed)
      words[n++] = "--expt-relaxed-constexpr";
    if (rdc)
      words[n++] = "-rdc=true";
    if (opt.debug)
      words[n++] = "-g";
    if (opt.checks) {
      snprintf(check_word, sizeof check_word, "--check=%s", opt.checks);
      words[n++] = check_word;
    }
    if (opt.cxx) {
      snprintf(cxx_word, sizeof cxx_word, "--cxx=%s", opt.cxx);
      words[n++] = cxx_word;
    }
    for (int i = 0; i < nsources; ++i)
      words[n++] = absolutes[i];
    /* The driver library, which a program calling the driver API needs
     * and cuemu-run, having no build file, links itself (as one source's
     * cuemu_compile() does); linked only where the program calls it. */
    words[n++] = "-lcuda";
    words[n++] = "-o";
    words[n++] = program;
    st = cuemu_compile_command(n, words, &hit);
    free(words);
  }
  free(absolutes);
  first += nsources - 1;
  if (st != CUEMU_SUCCESS) {
    fprintf(stderr, "cuemu-run: %s\n", cuemu_last_message());
    return RUN_ERROR;
  }
  if (verbose)
    fprintf(stderr, "cuemu-run: %s: %s\n", source,
            hit ? "cache hit" : "compiled");
  free(pass);

  /* The program's arguments: the .cu path as its name, then everything
   * after it on our command line (argv ends with NULL). */
  argv[first] = (char *)source;
  fflush(NULL);
  execv(program, argv + first);
  fprintf(stderr, "cuemu-run: cannot run %s (built from %s): %s\n", program,
          source, strerror(errno));
  return RUN_ERROR;
}
