/*
 * cuemu_compile.c: cuemu_compile(), the compile of one .cu file behind
 * cuemu-cc (whose command line is cuemu_nvcc.c's).
 *
 * The .cu file is preprocessed by $CXX with the shims force-included and
 * their qualifiers kept as tokens (the preprocessing pass), the whole
 * translation unit is translated (cuemu__rewrite_preprocessed()), wrapped
 * with its kernel table (cuemu_codegen.h) and compiled in the user's
 * dialect (C++17 unless -std says otherwise) into a program, a module or
 * an object; the result is cached (<cuemu/cuemu_cache.h>).
 */
#define _GNU_SOURCE
#include "config.h"

#include <dlfcn.h>
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_cache.h>
#include <cuemu/cuemu_device.h>

#include "check/cuemu_check.h"
#include "base/cuemu_locations.h"
#include "base/cuemu_report.h"
#include "cuemu_codegen.h"
#include "cuemu_debug_line.h"
#include "cuemu_device_strings.h"
#include "cuemu_device_symbols.h"
#include "cuemu_driver.h"
#include "cuemu_gpu_arch.h"
#include "cuemu_name_expressions.h"
#include "cuemu_pch.h"
#include "cuemu_pp_prelude.h"
#include "cuemu_rewrite.h"
#include "cuemu_toolkit.h"
#include "cuemu_cccl_brings.h"
#include "cuemu_nvcc_undeclared.h"
#include "cuemu_string_macro_suffix.h"

#define MAX_CXX_WORDS 16

char *cuemu__read_file(const char *path, size_t *size) {
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
  if (buf) {
    /* The loop ends with room left: a full buffer grows first. */
    buf[len] = '\0';
    *size = len;
  }
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
  char file_map[2 * PATH_MAX + 32]; /* -fmacro-prefix-map of source_dir to
                                     * the folder as the command line spells
                                     * it (set_file_map()), or "" */
  char given_dir[PATH_MAX];  /* that spelling ("" or ending in '/'), where
                              * file_map is set */
  char given[PATH_MAX];      /* the .cu as the command line spells it */
  char profile_dir[PATH_MAX]; /* where the host pass's coverage and profile
                               * files go (ending in '/'), or "" when the
                               * options record none (set_profile_names()) */
  char profile_stem[PATH_MAX]; /* their name without its suffix */
  char compiler[PATH_MAX];   /* real path of the compiler */
  char *cxx_copy;
  char *cxx_words[MAX_CXX_WORDS];
  int cxx_count;
  const char *shims, *include, *libdir;
  cuemu_cache_key key;
  cuemu_cache_key context;   /* the compiler's context (hash_context()) */
  const char *text;          /* the source's contents */
  size_t size;
  char tu[2][PATH_MAX + 96]; /* the translated units, per pass */
  /* The translation's text of each pass and its edits, which map the
   * compiler's columns back to the user's, and the preprocessed text it
   * was given (cuemu__diag_columns()). */
  cuemu_rewrite units[2];
  char *inputs[2];
  size_t input_sizes[2];
  char ii[2][PATH_MAX + 96]; /* the preprocessed units, per pass */
  int pass;                  /* the pass build_argv() writes (enum cuemu_pass) */
  const char *link_second;   /* a second object for PHASE_LINK, or NULL */
  char check_entry[PATH_MAX + 96]; /* the checkers' entry points, linked
                                    * into every output of a checked build
                                    * (check_entry()), or "" */
  char arch_macro[64];       /* -D__CUDA_ARCH__=900 (device pass, modules) */
  char arch_features[3][64]; /* -D__CUDA_ARCH_SPECIFIC__=900 and the other
                              * macros of an sm_90a or sm_100f (arch_suffix);
                              * "" where there are none */
  int contract;              /* device code's contraction (fp_contraction()) */
  const char **search;       /* the header search folders, for the cache */
  const char **quote_dirs;   /* the folders of quoted includes: its start */
  unsigned checks;           /* checkers built in (check/cuemu_check.h) */
  int default_compiler;      /* no compiler was chosen: `c++` */
  int gnu_chosen;            /* g++ or gcc was chosen (-ccbin g++, CMake's
                              * FindCUDA passes -ccbin /usr/bin/gcc) */
  char cccl[PATH_MAX];       /* CCCL's folder to add with -isystem, or "" */
  char toolkit[PATH_MAX];    /* the toolkit's include folder to add with
                              * -isystem after CCCL's, or "" */
  int cccl_source;           /* enum cuemu_cccl_source */
  char gcc_plugin[PATH_MAX]; /* the device pass's -fplugin, or "" */
  char llvm_plugin[PATH_MAX]; /* its -fpass-plugin (clang++), or "" */
  char clang_plugin[PATH_MAX]; /* its -fplugin (clang++), or "" */
  int variant;               /* the pass translated is a further device
                              * pass (further_passes()) */
  int device_host_code;      /* CUEMU_DEVICE_HOST_CODE=1: the device pass
                              * compiles all host code (see build_argv),
                              * with g++ and with clang++ */
  int cccl_clang;            /* compiled by clang++ where g++ was asked for,
                              * for CCCL (use_clang_for_cccl()) or for
                              * undeclared names (build()) */
  int repeat_quiet;          /* the preprocessing runs again after one
                              * that succeeded and printed its warnings
                              * (clang++ for CCCL, cuemu_cccl_brings.h):
                              * only a failure's messages are printed, so
                              * that a warning is not given twice, in g++'s
                              * words and then in clang++'s */
  int delay_templates;      /* the device pass is compiled with
                              * -fdelayed-template-parsing (build()) */
  int delay_wanted;          /* the device pass failed on undeclared names
                              * alone and is to be compiled again so
                              * (run_passes()) */
  cuemu_constexpr_places constexpr_places; /* the places of clang++'s
                              * errors about non-literal locals of
                              * constexpr templates (run_passes()) */
  int constexpr_wanted;      /* new such places: to compile again */
  int constexpr_round;       /* the units are compiled with `constexpr`
                              * blanked out of those templates (build()):
                              * the round, 0 for none */
  long *blanked[2];          /* the offsets blanked in each pass's unit */
  size_t nblanked[2];
  char gnu_version[32];      /* then that g++'s version, which clang++
                              * defines as its own (-fgnuc-version=), or "" */
  int host_full;             /* the host pass reads the whole prelude, not
                              * the declarations of device-only shims */
  int cccl_brings;           /* preprocessed with what nvcc's
                              * <cooperative_groups.h> brings
                              * (cuemu_cccl_brings.h: CUEMU_CCCL_BRINGS_*) */
  int use_cache;             /* the compile cache is read and written */
  int use_pch;               /* precompiled preludes (use_pch()) and
                              * preprocessed ones (run_preprocessing()) may
                              * be used */
  const char *pch;           /* the precompiled prelude that the compile of
                              * the pass build_argv() writes force-includes
                              * (cuemu_pch.h), or NULL */
  char fallbacks[PATH_MAX + 96]; /* the list of the device passes' fallbacks
                                  * (cuemu__elf_device_fallbacks()) */
  int nfallbacks;                /* its lines */
  const char *preprocess_input;  /* what PHASE_PREPROCESS reads instead of
                                  * the source (expand_name_expressions()),
                                  * or NULL */
} compile_job;

/* The steps of a build: one command, or (for checked builds, which are
 * instrumented for the checkers but must not link ThreadSanitizer's
 * runtime) a compile and a link. PHASE_PCH is the compile's flags alone,
 * for its precompiled prelude (cuemu_pch.h). */
enum build_phase {
  PHASE_ALL,
  PHASE_COMPILE,
  PHASE_LINK,
  PHASE_PREPROCESS,
  PHASE_PCH
};

/* Non-zero for an option of the preprocessor only (with its value in the
 * next word when *takes_next is set): the compile of a translated unit,
 * whose macros are all expanded, leaves them out. */
static int preprocessor_only(const char *a, int *takes_next) {
  static const char *const with_value[] = {"-I", "-D", "-U", "-include",
                                           "-imacros", "-isystem", "-iquote",
                                           "-idirafter", "-iprefix", NULL};
  *takes_next = 0;
  for (int i = 0; with_value[i]; ++i) {
    size_t n = strlen(with_value[i]);
    if (strncmp(a, with_value[i], n) == 0) {
      *takes_next = a[n] == '\0';
      return 1;
    }
  }
  return strcmp(a, "-nostdinc") == 0 || strcmp(a, "-nostdinc++") == 0;
}

/* Non-zero for the user's -std= options when the last of them is the
 * dialect that every compile gets first (-std=c++17): the compiler then
 * compiles as without them, and leaving them out gives the compile the
 * flags of the compiles without them, whose precompiled prelude it shares
 * (a RawModule's options=('-std=c++17',), nvcc-style Makefiles' flags). */
static int default_dialect_again(const cuemu_compile_options *o, int i) {
  if (strncmp(o->argv[i], "-std=", 5) != 0)
    return 0;
  for (int j = o->argc - 1; j >= 0; --j)
    if (strncmp(o->argv[j], "-std=", 5) == 0)
      return strcmp(o->argv[j], "-std=c++17") == 0;
  return 0;
}

/* Options that change the form of the preprocessor's output: -dD, -dN,
 * -dI and -dU write #define, #undef or #include directives into it (-g3
 * and -ggdb3 imply -dD), -fdirectives-only leaves macros unexpanded and
 * -P drops the line markers. The preprocessing pass leaves them out, as
 * the translation needs a unit with no directive but line markers (a
 * `#define __device__` there would take the qualifiers' meanings away,
 * and without the markers the shims' code would be translated as the
 * user's). nvcc's own preprocessing takes them, so a Makefile's
 * `-Xcompiler -g3` builds with nvcc. */
static int preprocessor_output_form(const char *a) {
  return strcmp(a, "-dD") == 0 || strcmp(a, "-dN") == 0 ||
         strcmp(a, "-dI") == 0 || strcmp(a, "-dU") == 0 ||
         strcmp(a, "-P") == 0 || strcmp(a, "-fdirectives-only") == 0;
}

/* The macros of nvcc's passes (the toolkit's version: CUDA 13.0, as the
 * shims' CUDART_VERSION), on the preprocessing pass's command line; nvcc
 * defines them for its .c and .cpp files too (cuemu_nvcc.c). With them,
 * nvcc 13's two feature macros (nvcc -E -Xcompiler -dM, in both passes):
 * device code may call the atomic built-in functions (__nv_atomic_*,
 * shims/cuda_builtins/cuemu_nv_atomics.h), and headers may use the
 * nv_diag pragmas (`#pragma nv_diag_suppress N`, `nv_diagnostic push`),
 * which the host compiler is told to ignore (-Wno-unknown-pragmas, after
 * the user's options, so also under -Xcompiler -Wall,-Werror). */
const char *const cuemu__nvcc_version_macros[] = {
    "-D__CUDACC_VER_MAJOR__=13",         "-D__CUDACC_VER_MINOR__=0",
    "-D__CUDACC_VER_BUILD__=88",         "-D__CUDA_API_VER_MAJOR__=13",
    "-D__CUDA_API_VER_MINOR__=0",        "-D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1",
    "-D__NVCC_DIAG_PRAGMA_SUPPORT__=1", NULL};

/* How device code is compiled for nvcc's -fmad (compile_job.contract). */
enum {
  CONTRACT_OFF,              /* each operation rounds (-ffp-contract=off) */
  CONTRACT_FUSED,            /* a*b+c fused where the target always has FMA */
  CONTRACT_FMA_INSTRUCTIONS  /* fused with -mfma: x86-64 with FMA */
};

/* The contraction of device code for `fmad` on the CPU compiling it: on
 * x86-64, fused multiply-adds need -mfma, so only where this CPU has FMA
 * (and AVX, which -mfma implies); elsewhere (AArch64: always FMA) the
 * compiler's own instructions. An x86-64 CPU without FMA compiles without
 * contraction, and its cache entries differ (the key holds the options). */
static int fp_contraction(int fmad) {
  if (!fmad)
    return CONTRACT_OFF;
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx")
             ? CONTRACT_FMA_INSTRUCTIONS
             : CONTRACT_OFF;
#else
  return CONTRACT_FUSED;
#endif
}

/* Non-zero for a library on a link line: -lNAME, or the path of a
 * library file (.a, .so, .so.N; cuemu-nvcc names cuemu's cuBLAS so). */
static int link_library(const char *a) {
  if (strncmp(a, "-l", 2) == 0)
    return 1;
  if (a[0] == '-')
    return 0;
  size_t n = strlen(a);
  return (n > 2 && strcmp(a + n - 2, ".a") == 0) ||
         (n > 3 && strcmp(a + n - 3, ".so") == 0) || strstr(a, ".so.") != NULL;
}

/* 1 when `compiler` links -fopenmp to another runtime than libgomp
 * (clang's libomp, Intel's, NVIDIA HPC's). */
static int other_openmp_runtime(const char *compiler) {
  static const char *const names[] = {"clang", "icx", "icpx", "nvc", NULL};
  const char *base = compiler ? strrchr(compiler, '/') : NULL;
  base = base ? base + 1 : compiler ? compiler : "";
  for (int i = 0; names[i]; ++i)
    if (strstr(base, names[i]))
      return 1;
  return 0;
}

int cuemu__links_openmp(const char *compiler, const char *const *argv,
                        int argc) {
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "-lgomp") == 0 ||
        (a[0] != '-' && strstr(a, "libgomp.") != NULL) ||
        strcmp(a, "-fopenmp=libgomp") == 0 ||
        (strcmp(a, "-fopenmp") == 0 && !other_openmp_runtime(compiler)))
      return 1;
  }
  return 0;
}

/* Whether the user's options (with those cuemu-nvcc and NVRTC add) hold
 * `option`. */
static int has_option(const cuemu_compile_options *o, const char *option) {
  for (int i = 0; i < o->argc; ++i)
    if (strcmp(o->argv[i], option) == 0)
      return 1;
  return 0;
}

/* The level of one of nvcc's numbered warnings, #20037-D, #20039-D or
 * #20040-D (cuemu_translate_options), from its option `given`: the
 * option's, or a warning unless -w. */
static int numbered_level(const cuemu_compile_options *o, int given) {
  if (given)
    return given < 0 ? 0 : given;
  return !has_option(o, "-w");
}

/* Room in a compiler's argument vector for the arguments cuemu adds to the
 * user's (and the C++ compiler's own words): the dialect and code options,
 * nvcc's macros, the checkers' instrumentation (about 20), the passes'
 * macros, the dependency and output files. build_argv() drops what does
 * not fit, so this is generous: a checked build with CCCL's brings once
 * lost its `-o` file with 64 ("missing filename after '-o'"). */
#define FIXED_ARGS 192

static int compile_optimised(const compile_job *job);

/* Builds the compiler's argument vector into argv (at most `max`). */
static int build_argv(const compile_job *job, const char *tu,
                      const char *depfile, const char *built,
                      const char **argv, int max, char *buffers,
                      size_t buffer_size, int phase) {
  const cuemu_compile_options *o = job->opt;
  /* nvcc's -g (CUEMU_DEBUG_HOST) is the host pass's debug build only; the
   * device passes stay optimised, as nvcc's device code does without -G. */
  const int debug = o->debug == CUEMU_DEBUG_HOST
                        ? job->pass == CUEMU_PASS_HOST
                        : o->debug;
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
    for (int i = 0; i < o->argc; ++i) {
      int next;
      if (preprocessor_only(o->argv[i], &next)) {
        i += next;
        continue;
      }
      if (!link_library(o->argv[i]))
        ARG(o->argv[i]);
    }
    ARG(tu); /* the object */
    if (job->link_second)
      ARG(job->link_second);
    if (job->check_entry[0])
      ARG(job->check_entry);
    /* Libraries after the objects that use them, as a linker needs them
     * (a shared library before them is dropped with --as-needed). */
    for (int i = 0; i < o->argc; ++i)
      if (link_library(o->argv[i]))
        ARG(o->argv[i]);
    goto link;
  }
  ARG("-std=c++17");
  /* nvcc's device pass does not parse a template that nothing
   * instantiates (cuemu_undeclared_names.c); the host pass does. An nvcc
   * module's one pass (-cubin, -ptx, the module that -Xptxas -v reads) is
   * a device pass. */
  if (job->delay_templates && job->pass != CUEMU_PASS_HOST)
    ARG("-fdelayed-template-parsing");
  /* A unit that clang++ compiles in g++'s place (use_clang_for_cccl())
   * takes "%"PRId64 as g++ and nvcc do, as two strings, with a warning
   * (tests/programs/cli/cccl_string_macros.cu). */
  if (job->cccl_clang)
    ARG("-Wno-error=reserved-user-defined-literal");
  /* g++ warns about a variable's value narrowed in braces in host code and
   * refuses a constant narrowed; clang++ refuses both, so its host pass
   * warns and the constants' warnings are made errors afterwards
   * (cuemu_narrowing.c, host_narrowing()). */
  if (job->cccl_clang && job->pass == CUEMU_PASS_HOST)
    ARG("-Wno-error=c++11-narrowing");
  /* clang++ warns by default about two conversions that g++ mentions only
   * under -Wconversion or -Wfloat-conversion: a constant int made a float
   * that cannot hold it (`2.0f * rand() / RAND_MAX`, as particle programs
   * draw positions) and a floating constant stored in an integer
   * (`int per_cell = 2.5;`). nvcc's g++ builds such a unit silently, and
   * clang++'s warnings quoted cuemu's rewritten line. The user's options
   * come later on the line, so that -Wconversion still asks for them
   * (tests/driver_cccl_warnings_once.sh). */
  if (job->cccl_clang && job->pass == CUEMU_PASS_HOST) {
    ARG("-Wno-implicit-const-int-float-conversion");
    ARG("-Wno-literal-conversion");
  }
  /* nvcc's front end defines its host compiler's __GNUC__ and the rest,
   * which headers test (cuemu_gnu_version.c). */
  if (job->cccl_clang && job->gnu_version[0])
    ARGF("-fgnuc-version=%s", job->gnu_version);
  /* clang++ 14 crashes (a segmentation fault in its code generation, at
   * -O2 in C++17) on __builtin_assume_aligned whose alignment is a
   * constexpr call returning a reference (`cuda::std::min(sizeof(T) * N,
   * max_vec_bytes())` in a member template: cuCollections' Bloom filter),
   * which nvcc and g++ take. The alignment is only a hint to the optimiser,
   * so the units it compiles in g++'s place drop it (the builtin's result
   * is the pointer as a void *; tests/programs/dialect/
   * assume_aligned_constant_call.cu). */
  if (job->cccl_clang && phase == PHASE_PREPROCESS)
    ARG("-D__builtin_assume_aligned(P, ...)=((void *)(P))");
  /* DWARF 4: binutils' addr2line names the generated .cpp instead of the
   * .cu for some addresses of a DWARF 5 line table with #line (the
   * innermost frame of an inlined call), so faults would name it. */
  ARG("-gdwarf-4");
  if (debug) {
    ARG("-g");
    ARG("-O0");
  } else {
    /* nvcc's host compile has no -O of its own (`nvcc -dryrun`: the host
     * compiler's command has the user's -O, or none, whose default is
     * -O0; nvcc --help: "--optimize (-O): Specify optimization level for
     * host code"), so the host pass gets none: the user's -O, which
     * follows, decides. Device code is always optimised, as nvcc's is.
     * The shims' functions that record their caller's address are always
     * inlined (CUEMU_AT_CALLER), so checkers name the user's line at -O0
     * too. The device pass's preprocessing has no -O of cuemu's either:
     * nvcc's (`gcc -E`, nvcc -dryrun) has the user's -O alone, so the
     * user's code sees __OPTIMIZE__ and __NO_INLINE__ as in nvcc's device
     * pass (defined from -O1 on, and without -O or with -O0, -g, -G), and
     * the shims see the compile's level as CUEMU_OPTIMIZED
     * (tests/driver_debug_levels.sh). */
    if (job->pass != CUEMU_PASS_HOST && phase != PHASE_PREPROCESS)
      ARG("-O2");
    /* Line tables only (no cost at run time), so that a fault, an assert
     * or a checker's report in an optimised build names the user's file
     * and line. */
    ARG("-g1");
    /* Takes the "has this thread blocked?" test out of the loop over the
     * threads of a barrier-free kernel (see shims/cuda_builtins/cuemu_kernel_thunks.h); clang
     * has no such flag (it warns) and unswitches on its own. */
    if (!strstr(job->compiler, "clang")) {
      ARG("-funswitch-loops");
      /* A kernel is called from its thunk's loop only; g++ -O2 inlines it
       * there when it is very small (15 insns), so that one with a
       * __syncthreads() that most threads never reach stays a call per
       * thread. The limit of -O3 (30) inlines that one, and the loop is
       * unswitched on the barrier's (invariant) condition; 60 inlines a
       * shared-memory tree reduction too (50 does), whose threads then
       * finish without a return from the kernel, which the processor
       * mispredicts for every thread that blocked (its return-address
       * stack holds the call that finished the previous thread):
       * bench/RESULTS.md, 10.7 to 8.8 ns per thread per barrier. Not in
       * an instrumented build (race, mem, init), whose built-in variables
       * are declared const and written through casts
       * (cuemu_builtin_vars.h): with the 3-D kernel of
       * tests/programs/checkers/thread_index_checked.cu inlined there,
       * two threads computed the same index (not yet understood), so
       * those builds keep the limit of 30. */
      ARG(job->checks & ~(unsigned)CUEMU_CHECK_SYNC
              ? "--param=max-inline-insns-auto=30"
              : "--param=max-inline-insns-auto=60");
    }
  }
  ARG("-fPIC");
  /* Kernels are reached through the generated table, never by symbol, so
   * they can be hidden and inlined into their thunks. The device pass's
   * symbols are made local after its compile (see build()), except those
   * the translation gives default visibility. The host pass's keep the
   * visibility that nvcc's host compile gives them, so that a shared
   * library exports its host functions and its kernels' host stubs (the
   * device pass's kernels, which the host pass declares). A module of
   * relocatable device code keeps its symbols visible, so that cuLink* can
   * link a device function or variable of one module to another's
   * kernels. */
  if (job->pass != CUEMU_PASS_HOST && !(job->opt->module && job->opt->rdc))
    ARG("-fvisibility=hidden");
  /* Each function and variable in its own section, so that the link drops
   * the copies no one calls: the device pass's host code, the host pass's
   * kernels and device functions (then gdb finds one copy of each line,
   * except of __host__ __device__ functions, which exist in both). A
   * module's too: its calls between functions are then relocations,
   * which cuemu__elf_shared_calls() reads. */
  if (job->pass != CUEMU_PASS_SINGLE || job->opt->module) {
    ARG("-ffunction-sections");
    ARG("-fdata-sections");
  }
  /* Device code's malloc, free, new and delete are the device heap's
   * (cuemu_device_symbols.h). new returns NULL when the heap is full, so
   * its result must be tested; and the calls stay, as nvcc keeps them:
   * g++ and clang++ delete an allocation whose memory does not escape and
   * fold its test against NULL to "not NULL", so a kernel that probed the
   * heap (`while (malloc(size)) ++n;`) never ended, and one that tested
   * cudaLimitMallocHeapSize was told that 64 MiB fit in 1 MiB
   * (tests/programs/devrt/heap_basics.cu, tests/programs_trialrt.sh;
   * with memcheck, a double free went with its pair: "heap" of
   * tests/programs/trialbugs/faults_kernels.cuh). clang++
   * keeps a new-expression's call only under -fno-builtin, which would
   * turn every library function into a call, so with clang++ (a unit that
   * includes CUB or Thrust) a new and delete pair may still go. clang++ 14
   * ignores -fcheck-new: it takes the result of new to be non-null and
   * drops the test `if (p == nullptr)`, so a kernel whose new failed wrote
   * through the null pointer; -fno-delete-null-pointer-checks keeps the
   * test (tests/programs_trialrt.sh, faults.cu's alloc_nodes). */
  if (job->pass == CUEMU_PASS_DEVICE ||
      (job->pass == CUEMU_PASS_SINGLE && job->opt->module)) {
    ARG("-fcheck-new");
    ARG("-fno-builtin-malloc");
    ARG("-fno-builtin-calloc");
    ARG("-fno-builtin-realloc");
    ARG("-fno-builtin-free");
    if (strstr(job->compiler, "clang"))
      ARG("-fno-delete-null-pointer-checks");
    else
      ARG("-fno-allocation-dce");
  }
  if (job->pass == CUEMU_PASS_SINGLE && job->opt->module) {
    /* g++ binds a variable template's instance (and an inline function's
     * static variable) as STB_GNU_UNIQUE: the loader then binds every
     * module's references to the first loaded copy, and keeps that module
     * loaded for good, so a module loaded twice (NVRTC's program, then
     * cuModuleLoadData of its PTX) read another module's variable, not the
     * one cuModuleGetGlobal names. */
    if (!strstr(job->compiler, "clang"))
      ARG("-fno-gnu-unique");
  }
  if (job->pass == CUEMU_PASS_DEVICE) {
    ARG("-fvisibility-inlines-hidden");
    /* g++ binds the static variables of inline functions as
     * STB_GNU_UNIQUE, which objcopy does not make local. */
    if (!strstr(job->compiler, "clang"))
      ARG("-fno-gnu-unique");
  }
  ARG("-fno-semantic-interposition");
  /* g++ -O3 (CMake's Release build) clones the host pass's forwarder of a
   * kernel template's instance for the constant arguments of a deduced
   * launch (-fipa-cp-clone), and the unit's instance records then name the
   * forwarder as the device pass's instance too: cuemu::device_instance()
   * found no device code for it, and a kernel template with a functor
   * parameter launched with deduced template arguments failed with "the
   * host pass's instance of this kernel template was not matched"
   * (tests/programs/trialpyext/deduced_functor_o3.cu). The forwarder is
   * never hot: cloning it gains nothing. */
  if (job->pass == CUEMU_PASS_HOST && !strstr(job->compiler, "clang"))
    ARG("-fno-ipa-cp-clone");
  /* A narrowing conversion in braces in device code (`Range r = {x, 7.0};`
   * in a kernel) is a warning, as nvcc's device front end gives it in every
   * dialect; host code is the host compiler's, as with nvcc
   * (tests/programs/params/system_header_kernels.cu). */
  if (job->pass != CUEMU_PASS_HOST)
    ARG("-Wno-error=narrowing");
  /* Device code reads a packed local (a uint4 of eight halves, a float4)
   * through a pointer to its elements, and NVVM gives what the bytes say
   * (the local is split into registers by bytes); g++'s type-based alias
   * analysis may instead drop the element stores and read garbage.
   * tests/programs/trial/device_code_forms.cu. */
  if (job->pass != CUEMU_PASS_HOST)
    ARG("-fno-strict-aliasing");
  /* A misaligned atomic names its line from the return address of its
   * call to cuemu_kernel_misaligned(), which does not return: g++ merges
   * the identical calls of two atomics of one type in one function into
   * one (cross-jumping, tail merging), and the report then names the
   * other atomic's line (tests/programs/robust/misaligned_faults.cu).
   * clang++ keeps them apart by the function's nomerge attribute
   * (<cuemu/cuemu_device.h>). Cold code only: no cost measured. */
  if (job->pass != CUEMU_PASS_HOST && !strstr(job->compiler, "clang")) {
    ARG("-fno-crossjumping");
    ARG("-fno-tree-tail-merge");
  }
  /* Device code passes values that only one lane set (a warp leader's, to
   * a shuffle): clang++'s `noundef` analysis must not delete the paths of
   * the others (cuemu_clang_noundef.c). */
  if (job->pass != CUEMU_PASS_HOST && phase != PHASE_PREPROCESS &&
      phase != PHASE_LINK && strstr(job->compiler, "clang")) {
    const char *noundef = cuemu__clang_noundef_option(job->compiler);
    if (noundef) {
      ARG("-Xclang");
      ARG(noundef);
    }
  }
  /* The same, and volatile lockstep, in clang++'s device passes
   * (cuemu_llvm_plugin.cc). */
  if (job->pass != CUEMU_PASS_HOST && phase != PHASE_PREPROCESS &&
      phase != PHASE_LINK && job->llvm_plugin[0])
    ARGF("-fpass-plugin=%s", job->llvm_plugin);
  /* What nvcc refuses across execution spaces, in clang++'s device pass
   * (cuemu_clang_plugin.cc), with the GCC plugin's arguments below. */
  if (job->pass != CUEMU_PASS_HOST && phase != PHASE_PREPROCESS &&
      phase != PHASE_LINK && job->clang_plugin[0]) {
    ARGF("-fplugin=%s", job->clang_plugin);
    /* clang++ stops after 20 errors; g++, and nvcc's front end, go on:
     * each of the unit's refusals is reported, as with g++ (the user's
     * -ferror-limit, which follows, wins). */
    ARG("-ferror-limit=0");
    if (has_option(o, "-D__CUEMU_DEFAULT_DEVICE")) {
      ARG("-Xclang");
      ARG("-plugin-arg-cuemu_clang_plugin");
      ARG("-Xclang");
      ARG("default-device");
    }
    if (has_option(o, "-D__CUDACC_RELAXED_CONSTEXPR__=1")) {
      ARG("-Xclang");
      ARG("-plugin-arg-cuemu_clang_plugin");
      ARG("-Xclang");
      ARG("relaxed-constexpr");
    }
    /* The device pass of a program compiles no host code that its device
     * code does not reach: the clang plugin records the user's host
     * functions, which the LLVM plugin removes where nothing else reaches
     * them (cuemu_llvm_plugin_host_code.cc), as the GCC plugin's
     * drop-host-code below. */
    if (job->pass == CUEMU_PASS_DEVICE && !job->device_host_code &&
        job->llvm_plugin[0]) {
      ARG("-Xclang");
      ARG("-plugin-arg-cuemu_clang_plugin");
      ARG("-Xclang");
      ARG("drop-host-code");
    }
  }
  /* Shifts by run-time amounts and float-to-integer conversions give what
   * a GPU gives (clamped amounts, saturated results) in device code. */
  if (job->pass != CUEMU_PASS_HOST && phase != PHASE_PREPROCESS &&
      job->gcc_plugin[0]) {
    ARGF("-fplugin=%s", job->gcc_plugin);
    /* Memcheck's and initcheck's common case decided inline, in the
     * kernel's code (emulator/compile/cuemu_gcc_plugin_check.cc); not
     * with racecheck, whose every access updates cells. */
    /* The alignment pass (cuemu_gcc_plugin_align.cc) runs in memcheck
     * builds too: it tests a float4 load before g++ splits the structure's
     * copy into four 4-byte loads that memcheck finds aligned
     * (tests/buggy/mem_misaligned_float4.cu). */
    /* NVRTC's -default-device (cuemu_nvrtc_options.c): functions without
     * an execution space are device ones. */
    if (has_option(o, "-D__CUEMU_DEFAULT_DEVICE"))
      ARG("-fplugin-arg-cuemu_gcc_plugin-default-device");
    /* --expt-relaxed-constexpr (cuemu_nvcc.c, cuemu_nvrtc_options.c):
     * device code may call constexpr host functions. */
    if (has_option(o, "-D__CUDACC_RELAXED_CONSTEXPR__=1"))
      ARG("-fplugin-arg-cuemu_gcc_plugin-relaxed-constexpr");
    /* The device pass of a program compiles no host code that its device
     * code does not reach: the host pass's is the program's
     * (cuemu_gcc_plugin_host_code.cc). CUEMU_DEVICE_HOST_CODE=1 compiles
     * it all, as before (bench/run_bench.sh compares the two). */
    if (job->pass == CUEMU_PASS_DEVICE && !job->device_host_code)
      ARG("-fplugin-arg-cuemu_gcc_plugin-drop-host-code");
    if ((job->checks & (CUEMU_CHECK_MEM | CUEMU_CHECK_INIT)) &&
        !(job->checks & CUEMU_CHECK_RACE) && !debug &&
        job->pass != CUEMU_PASS_HOST)
      ARG(job->checks & CUEMU_CHECK_INIT
              ? "-fplugin-arg-cuemu_gcc_plugin-check-inline=init"
              : "-fplugin-arg-cuemu_gcc_plugin-check-inline=mem");
  }
  /* The module that cuemu-nvcc reads for -Xptxas -v keeps the records of
   * its kernel templates' instances (CUEMU_MODULE_INSTANCE,
   * cuemu_qualifiers.h), a macro of the translated unit's compile too. */
  if (phase != PHASE_PREPROCESS)
    for (int i = 0; i < o->argc; ++i)
      if (strcmp(o->argv[i], CUEMU_RECORD_INSTANCES_MACRO) == 0) {
        ARG(CUEMU_RECORD_INSTANCES_MACRO);
        break;
      }
  /* Large frames probe their pages in order, so a big local array that
   * overflows a thread's stack hits the guard area instead of jumping over
   * it into other memory. */
  ARG("-fstack-clash-protection");
  ARG("-pthread");
  /* The user's options; the compile of the translated unit leaves out
   * those of the preprocessor, whose work is done. The preprocessing pass
   * force-includes the shims' cuda_runtime.h where the options say
   * (runtime_header_at): the -include options before it are read first. */
  int user_level = 0; /* the user's options name an -O level */
  int runtime_at = o->runtime_header_at < 0        ? 0
                   : o->runtime_header_at > o->argc ? o->argc
                                                    : o->runtime_header_at;
  for (int i = 0; i <= o->argc; ++i) {
    int next;
    if (phase == PHASE_PREPROCESS && i == runtime_at) {
      ARG("-include");
      ARGF("%s/cuda_runtime.h", job->shims);
    }
    if (i == o->argc)
      break;
    if (phase != PHASE_PREPROCESS && preprocessor_only(o->argv[i], &next)) {
      i += next;
      continue;
    }
    if (phase == PHASE_PREPROCESS && preprocessor_output_form(o->argv[i]))
      continue;
    if (default_dialect_again(o, i))
      continue;
    /* A library file is the link's alone. */
    if (o->argv[i][0] != '-' && link_library(o->argv[i]))
      continue;
    /* nvcc gives coverage and profiling to the host compile alone (its
     * device code is not the host compiler's); the device pass's objects
     * run no constructors, which would write the counts, anyway. */
    if (job->pass != CUEMU_PASS_HOST && cuemu__profile_option(o->argv[i]))
      continue;
    if (strncmp(o->argv[i], "-O", 2) == 0)
      user_level = 1;
    ARG(o->argv[i]);
  }
  /* nvcc's own -O comes after -Xcompiler's in nvcc's preprocessing (nvcc
   * -dryrun: `-O0 -O3` for `-O3 -Xcompiler -O0`), so the code sees
   * __OPTIMIZE__ there; the compiles keep the user's order, where
   * -Xcompiler -O0 builds CCCL faster. */
  if (phase == PHASE_PREPROCESS && o->cuemu_nvcc_level)
    ARG(o->cuemu_nvcc_level);
  /* nvcc's -O is the host code's level; device code is optimised unless
   * -G (or cuemu's -g) asks otherwise. So the device pass's -O2 comes
   * after nvcc's -O0: Thrust's reduce_by_key agent, built at -O0,
   * overflowed the 64 KiB stack of its threads where nvcc's build of the
   * same `nvcc -O0` runs (tests/programs/trialdb). And -G's -O0 comes
   * after nvcc's -O3: CMake's Release build of a target with -G (`-O3
   * -DNDEBUG ... -G -g`) showed a kernel's locals as `<optimized out>` in
   * gdb (tests/gdb/gdb_breakpoint.sh). A last -O of -Xcompiler still
   * reaches the device pass, as the suite's CCCL programs build
   * (docs/thrust.md, Cost). */
  if (user_level && o->cuemu_host_level && phase != PHASE_PREPROCESS &&
      job->pass != CUEMU_PASS_HOST && debug != 1)
    ARG(debug == CUEMU_DEBUG_DEVICE ? "-O0" : "-O2");
  /* A .cu unit's objects are machine code even under the user's -flto
   * (-Xcompiler -flto, CMake's INTERPROCEDURAL_OPTIMIZATION): objcopy
   * renames and localises their symbols after the compile, which it cannot
   * do to GCC's or LLVM's bitcode ("redefining symbols does not work on
   * LTO-compiled object files"). The link may still use -flto: it links
   * the host .cpp files' LTO objects with them (tests/driver_lto.sh). */
  if (phase != PHASE_LINK && phase != PHASE_PREPROCESS)
    ARG("-fno-lto");
  /* -g3 (or -ggdb3) keeps the macros' definitions in -E's output
   * (preprocessor_output_form()); the compile of the translated unit keeps the
   * user's debug level. */
  if (phase == PHASE_PREPROCESS)
    ARG("-g0");
  ARG("-Wno-unknown-pragmas");
  /* A kernel that takes a CUtensorMap (128-byte aligned) by value, as TMA
   * kernels take their __grid_constant__ maps, would otherwise get g++'s
   * note that GCC 4.6 changed how such parameters are passed, at each
   * kernel and launch thunk; nvcc's build of the program gives none. */
  ARG("-Wno-psabi");
  if (phase != PHASE_PREPROCESS && job->pass != CUEMU_PASS_HOST) {
    /* Contraction of device code (the host pass's is the compiler's
     * default, as with nvcc's host compile): off, or fused multiply-adds
     * with the CPU's instructions, which the program checks that its CPU
     * has (cuemu_fma_check.h). */
    ARG(job->contract ? "-ffp-contract=fast" : "-ffp-contract=off");
    if (job->contract == CONTRACT_FMA_INSTRUCTIONS)
      ARG("-mfma");
  }
  if (phase != PHASE_PREPROCESS && job->pass != CUEMU_PASS_HOST) {
    /* nvcc's device compiler is not the host compiler: none of its
     * warnings is about device code (and the host code that the device
     * pass also compiles is the host pass's to warn about, once). Errors
     * stay. */
    ARG("-w");
  } else if (phase != PHASE_PREPROCESS) {
    /* What nvcc's host compile silences (cudafe++ writes these pragmas
     * first in the host code it gives the host compiler). */
    ARG("-Wno-unused-variable");
    ARG("-Wno-unused-function");
    ARG("-Wno-unused-local-typedefs");
    ARG("-Wno-attributes");
    /* And, for a clang++ host compiler, these two: a private field that
     * only __device__ members read is unused in the host pass, which
     * -Wall -Werror turned into an error where nvcc -ccbin clang++ builds
     * (stdgpu's mutex_ref; tests/driver_host_pass_warnings.sh). */
    if (strstr(job->compiler, "clang")) {
      ARG("-Wno-unused-private-field");
      ARG("-Wno-unused-parameter");
    }
  }
  if (phase == PHASE_PREPROCESS) {
    ARGF("-I%s", job->shims);
    ARGF("-I%s", job->include);
    /* CCCL after the user's folders and the shims, before the compiler's
     * own folders, as nvcc has it (cuemu_toolkit.h). */
    if (job->cccl[0]) {
      ARG("-isystem");
      ARG(job->cccl);
    }
    if (job->toolkit[0]) {
      ARG("-isystem");
      ARG(job->toolkit);
    }
    ARGF("-iquote%s", job->source_dir);
    if (job->file_map[0])
      ARG(job->file_map);
    ARG("-DCUEMU_TRANSLATING=1");
    ARG(compile_optimised(job) ? "-DCUEMU_OPTIMIZED=1" : "-DCUEMU_OPTIMIZED=0");
    ARG("-D__CUDACC__");
    for (int i = 0; cuemu__nvcc_version_macros[i]; ++i)
      ARG(cuemu__nvcc_version_macros[i]);
    if (o->module && !o->nvcc_module) {
      /* A module is what NVRTC compiles: the device pass only, with
       * NVRTC's macro and fixed-width types (cuemu_rtc_stdint_hide.h). */
      ARG("-D__CUDACC_RTC__");
      ARG("-DCUEMU_NVRTC_STDINT=1");
    } else {
      /* nvcc's -ptx, -cubin and -fatbin are the device pass of nvcc's
       * compile, with nvcc's macros and the host's types: the toolkit's
       * headers (cuda_pipeline.h, ...) take their NVRTC paths only under
       * __CUDACC_RTC__. */
      ARG("-D__NVCC__");
    }
    if (job->pass != CUEMU_PASS_HOST) {
      ARG(job->arch_macro);
      for (int i = 0; i < 3; ++i)
        if (job->arch_features[i][0])
          ARG(job->arch_features[i]);
#if CUEMU_HAVE_LIBDEVICE
      /* The shims' CUDA-only math functions call libdevice's
       * (cuemu_math.h, cuemu_device_math.c); --use_fast_math renames
       * other functions then, and its macro keeps its cache entries
       * apart. */
      ARG("-DCUEMU_LIBDEVICE=1");
      if (job->opt->cuemu_fast_math)
        ARG("-DCUEMU_FAST_MATH=1");
#endif
    } else
      ARG("-DCUEMU_HOST_PASS=1");
    /* The host pass's lean prelude: declarations of the device-only shims
     * (shims/cuda_builtins/cuemu_host_decls.h), unless the unit's host
     * code needs their bodies (build()). */
    if (job->pass == CUEMU_PASS_HOST && !job->host_full)
      ARG("-DCUEMU_HOST_DECLS=1");
    if (job->cccl_brings & CUEMU_CCCL_BRINGS_FLOATS)
      ARG(CUEMU_CCCL_BRINGS_FLOATS_MACRO);
    if (job->cccl_brings & CUEMU_CCCL_BRINGS_LIBRARIES)
      ARG(CUEMU_CCCL_BRINGS_LIBRARIES_MACRO);
    if (job->cccl_brings & CUEMU_CCCL_BRINGS_STD)
      ARG(CUEMU_CCCL_BRINGS_STD_MACRO);
    ARG("-MD");
    ARG("-MF");
    ARG(depfile);
  } else if (job->pch && phase != PHASE_PCH) {
    /* The precompiled prelude, which includes the qualifiers first; a
     * precompiled form that g++ refuses is skipped silently, and its text
     * is compiled instead. clang++ refuses none (a refusal would be an
     * error): its precompiled header comes from the cache under a key of
     * its exact text and these very flags, and the files it was made from
     * are in it (cuemu_pch.c), so that the check of their times, which a
     * new copy of the shims would fail, is left out. */
    ARG("-include");
    ARG(job->pch);
    if (strstr(job->compiler, "clang")) {
      ARG("-Xclang");
      ARG("-fno-validate-pch");
    }
  } else if (phase != PHASE_PCH) {
    /* The qualifiers' meanings and the few macros that the translation
     * writes (the translated unit has no #define left). */
    ARG("-include");
    ARGF("%s/cuemu_qualifiers.h", job->shims);
  }
  /* The check of the CPU, in the pass whose initializers run (the device
   * pass's are removed: build()), after the precompiled prelude, which
   * must be the first -include. */
  if (job->contract == CONTRACT_FMA_INSTRUCTIONS && phase != PHASE_PCH &&
      phase != PHASE_PREPROCESS && job->pass != CUEMU_PASS_DEVICE) {
    ARG("-include");
    ARGF("%s/cuemu_fma_check.h", job->shims);
  }
  /* The host pass is not instrumented: its code never runs in a kernel
   * (kernels and the device code they call are the device pass's, whose
   * symbols are local to its object), and a host access has nothing to
   * check (pinned memory that a queued copy still uses is guarded by its
   * pages, cuemu_rt_pinned_guard.c). A CPU reference kept in a .cu ran 15
   * times slower instrumented. */
  if ((job->checks & ~(unsigned)CUEMU_CHECK_SYNC) &&
      job->pass != CUEMU_PASS_HOST) {
    /* Every access calls a __tsan_* function: the build's own for plain
     * loads and stores (shims/cuda_builtins/cuemu_check_entry.h, which the
     * unit declares and check_entry() links in), libcuemu's
     * for the rest (emulator/check/cuemu_check_tsan.c); -g gives reports
     * their lines. */
    ARG("-fsanitize=thread");
    /* Copies stay calls (of the __wrap_ functions, see the link below):
     * inlined, they would be moves that no instrumentation sees. */
    ARG("-fno-builtin-memcpy");
    ARG("-fno-builtin-memmove");
    ARG("-fno-builtin-memset");
    /* Reports that name a call's line by its return address (the device
     * heap's free, the atomics) need the call to return: a tail call
     * (`if (twice) free(head);` last in a kernel) would leave the
     * return address of the kernel's caller, a line of the shims. */
    ARG("-fno-optimize-sibling-calls");
    /* memcheck of arrays whose bound the compiler knows (local and static
     * __shared__ arrays): emulator/check/cuemu_check_bounds.c. */
    if (job->checks & (unsigned)CUEMU_CHECK_MEM)
      ARG("-fsanitize=bounds");
    /* Racecheck updates cells on nearly every access: its entry points
     * decide it in one function (cuemu_check_entry.h). */
    if (job->checks & (unsigned)CUEMU_CHECK_RACE)
      ARG("-DCUEMU_CHECK_ENTRY_RACE=1");
    /* Without initcheck no allocation has a "written" map to test. */
    if (!(job->checks & (unsigned)CUEMU_CHECK_INIT))
      ARG("-DCUEMU_CHECK_FAST_NO_INIT=1");
    if (strstr(job->compiler, "clang")) {
      ARG("-mllvm");
      ARG("-tsan-instrument-func-entry-exit=0");
      ARG("-mllvm");
      ARG("-tsan-distinguish-volatile=1");
      /* A read that a write of the same location follows in its block
       * calls its hook too (g++ leaves out none): clang's ThreadSanitizer
       * leaves it out by default, so that a racy read whose write then
       * stores the value already there (`best = max(best, v)`,
       * tests/buggy/race_shared_plain_max.cu) was never reported, and a
       * read of freed memory faulted before memcheck saw it
       * (tests/buggy/mem_use_after_free.cu). Costs a clang++ saxpy 17% of
       * its checked time (bench/run_check_bench.sh's kernels). The
       * accesses that the optimiser removes before the hooks are put in
       * are kept by cuemu's LLVM plugin (cuemu_llvm_plugin_race.cc). */
      ARG("-mllvm");
      ARG("-tsan-instrument-read-before-write=1");
      /* A structure's copy is made member by member, as g++ makes it
       * (cuemu_llvm_plugin_copies.cc), so that a report names the member
       * out of bounds or unwritten and the load's line; the SLP vectoriser
       * would merge the members' loads into one again. */
      ARG("-fno-slp-vectorize");
      /* The common case of memcheck and initcheck decided inline, as the
       * GCC plugin's check-inline does (cuemu_llvm_plugin_check.cc). */
      if ((job->checks & (CUEMU_CHECK_MEM | CUEMU_CHECK_INIT)) &&
          !(job->checks & CUEMU_CHECK_RACE) && !debug &&
          job->pass != CUEMU_PASS_HOST && job->llvm_plugin[0])
        ARG(job->checks & CUEMU_CHECK_INIT ? "-DCUEMU_CHECK_INLINE=2"
                                           : "-DCUEMU_CHECK_INLINE=1");
    } else {
      ARG("--param=tsan-instrument-func-entry-exit=0");
      /* Volatile accesses call __tsan_volatile_*: racecheck takes two of
       * them to one global location for no race (a flag polled across
       * blocks). */
      ARG("--param=tsan-distinguish-volatile=1");
      ARG("-Wno-tsan");
      /* A __shared__ variable is a static (cuemu_qualifiers.h): one that
       * the unit only writes, once each read of it has taken the value just
       * stored, would lose its stores to g++'s write-only statics, and
       * racecheck every access of a racy `s = threadIdx.x; out[i] = s;`. */
      if (job->checks & (unsigned)CUEMU_CHECK_RACE)
        ARG("-fno-ipa-reference-addressable");
      /* Functions alike token for token stay apart: g++ folds them into
       * one (-fipa-icf, part of -O2), and the reports of all but one then
       * name their first line instead of the access's (two kernels
       * `fill` of tests/buggy/, built as one program by tests/checkers.sh). */
      ARG("-fno-ipa-icf");
    }
  }
  if (phase == PHASE_PCH) {
    argv[n] = NULL;
    return n;
  }
  if (phase == PHASE_PREPROCESS) {
    ARG("-E");
    ARG("-x");
    ARG("c++");
    ARG(job->preprocess_input ? job->preprocess_input : job->source);
    ARG("-o");
    ARG(built);
    argv[n] = NULL;
    return n;
  }
  /* The host pass's coverage notes (.gcno) and counts (.gcda) are named
   * after the user's object, as the host compile of nvcc names them, not
   * after the build's temporary object. */
  if (job->pass == CUEMU_PASS_HOST && job->profile_dir[0]) {
    if (strstr(job->compiler, "clang")) {
      ARG("-Xclang");
      ARGF("-coverage-notes-file=%s%s.gcno", job->profile_dir,
           job->profile_stem);
      ARG("-Xclang");
      ARGF("-coverage-data-file=%s%s.gcda", job->profile_dir,
           job->profile_stem);
    } else {
      ARG("-dumpdir");
      ARG(job->profile_dir);
      ARG("-dumpbase");
      ARG(job->profile_stem);
    }
  }
  ARG("-x");
  ARG("c++");
  ARG(tu);
  ARG("-x");
  ARG("none");
  if (phase == PHASE_COMPILE || (o->object && phase == PHASE_ALL)) {
    ARG("-c");
    ARG("-o");
    ARG(built);
    argv[n] = NULL;
    return n;
  }
link:
  if (o->module)
    ARG("-shared");
  else
    ARG("-Wl,--gc-sections");
  /* libgomp before libcuemu, whose constructor then runs first
   * (emulator/core/cuemu_omp_wait.c). */
  if (!o->module && cuemu__links_openmp(job->compiler, o->argv, o->argc))
    ARG("-lgomp");
  /* A module links with GNU gold where it is installed: half the default
   * linker's time. A program keeps the default linker: gold warns that the
   * device pass's string section (cuemu_device_strings.h, merged by `ld -r`
   * from sections of 1- and 8-byte aligned strings) is wrongly aligned. */
  const char *linker =
      o->module ? cuemu__fast_linker(job->compiler, o->argv, o->argc) : NULL;
  if (linker)
    ARG(linker);
  ARG("-o");
  ARG(built);
  /* The driver library, where the program calls a driver function (cuda.h
   * refers to its symbol: CUEMU_DRV_SYMBOL), for cuemu-run and this API,
   * whose command names no library; cuemu-nvcc links it only where the
   * command names it (-lcuda), as nvcc. */
  if (!o->module && !o->cuemu_driver_as_nvcc &&
      cuemu__driver_library_option(job->libdir, buffers + used,
                                   buffer_size - used)) {
    ARG(buffers + used);
    used += strlen(buffers + used) + 1;
  }
  n += cuemu__link_tail(job->libdir, job->checks, argv + n, max - n, buffers + used,
                        buffer_size - used);
  argv[n] = NULL;
  return n;
#undef ARG
#undef ARGF
}

/* Whether the compile of the pass's translated unit optimises: its
 * command's last -O is not -O0 (GCC and Clang define __OPTIMIZE__ from -O1
 * on, -Os, -Og and -Ofast included). The preprocessing, which sees the
 * user's -O alone (build_argv()), tells the shims so through
 * CUEMU_OPTIMIZED (cuemu_optimized.h). 0 where there is no memory. */
static int compile_optimised(const compile_job *job) {
  const cuemu_compile_options *o = job->opt;
  int max = FIXED_ARGS + o->argc + job->cxx_count;
  const char **argv = calloc((size_t)max, sizeof *argv);
  char *buffers = malloc(8 * PATH_MAX);
  int optimised = 0;
  if (argv && buffers) {
    build_argv(job, "TU", "DEPS", "OUT", argv, max, buffers, 8 * PATH_MAX,
               PHASE_COMPILE);
    for (int i = 0; argv[i]; ++i)
      if (strncmp(argv[i], "-O", 2) == 0)
        optimised = strcmp(argv[i], "-O0") != 0;
  }
  free(argv);
  free(buffers);
  return optimised;
}

int cuemu__link_tail(const char *libdir, unsigned checks, const char **argv,
                     int max, char *buffers, size_t buffer_size) {
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
  ARGF("-L%s", libdir);
  /* The runtime API under libcudart's C symbols, for objects compiled
   * against NVIDIA's headers (emulator/export/cudart.am), where libcuemu's
   * folder has it; a program that calls none of them does not need it. */
  char cudart[PATH_MAX];
  if ((size_t)snprintf(cudart, sizeof cudart, "%s/libcuemu_cudart.so",
                       libdir) < sizeof cudart &&
      access(cudart, F_OK) == 0) {
    ARG("-Wl,--push-state,--as-needed");
    ARG("-lcuemu_cudart");
    ARG("-Wl,--pop-state");
  }
  /* libcuemu by the path of libcuemu.so, which links as -lcuemu does:
   * CMake takes the `-l` words of this link (shown by cuemu-nvcc -v) as
   * implicit libraries of every target that it links with the host
   * compiler, where a program that calls no CUDA function itself, linked
   * from a shared library of CUDA code, would get libcuemu.so.0 by its
   * name without a run path and not start; CMake has libcuemu_by_path.a
   * for them (cuemu_nvcc.c), and ignores a path that ends in `.so`. */
  char shared[PATH_MAX];
  if ((size_t)snprintf(shared, sizeof shared, "%s/libcuemu.so", libdir) <
          sizeof shared &&
      access(shared, F_OK) == 0)
    ARGF("%s", shared);
  else
    ARG("-lcuemu");
  ARGF("-Wl,-rpath,%s", libdir);
  /* cuemu's libcuda.so.1, which the program's dlopen("libcuda.so.1") then
   * finds before any real driver (emulator/export/libcuda.am). The run path
   * is DT_RPATH, which the loader searches before LD_LIBRARY_PATH (a GPU
   * container's names the real driver's folder), and for every library of
   * the program that has no run path of its own. */
  ARGF("-Wl,-rpath,%s/cuemu-toolkit/compat", libdir);
  ARG("-Wl,--disable-new-dtags");
  /* Host functions that end the process become launch errors when kernel
   * code calls them (core/cuemu_host_calls.c). */
  ARG("-Wl,--wrap=abort,--wrap=exit,--wrap=_Exit,--wrap=quick_exit");
  if (checks) {
    ARGF("-Wl,--defsym=" CUEMU_CHECK_BUILT_SYMBOL "=%u", checks);
    /* Calls of these go through libcuemu's __wrap_* (cuemu_check_tsan.c),
     * which tell the checkers what they touch. (Synccheck alone needs no
     * instrumentation.) */
    if (checks & ~(unsigned)CUEMU_CHECK_SYNC)
      ARG("-Wl,--wrap=memcpy,--wrap=memmove,--wrap=memset");
  }
  argv[n] = NULL;
  return n;
#undef ARG
#undef ARGF
}

/* The passes of a compile: a module is the device pass alone (as NVRTC
 * compiles it); a program or an object has nvcc's device and host passes. */
static int pass_count(const compile_job *job) {
  return job->opt->module ? 1 : 2;
}
static int pass_of(const compile_job *job, int p) {
  if (job->opt->module)
    return CUEMU_PASS_SINGLE;
  return p == 0 ? CUEMU_PASS_DEVICE : CUEMU_PASS_HOST;
}

/* Computes the key of what a compile's output depends on besides its
 * flags and its files (job->context): the compiler and its plugin, libcuemu
 * itself and the compiler's environment (cuemu_hasher_add_context()). Both
 * the job's key and its precompiled preludes' keys include it. */
static cuemu_status hash_context(compile_job *job) {
  cuemu_hasher *h;
  const cuemu_compile_options *o = job->opt;
  cuemu_status st = cuemu_hasher_create(&h, "cuemu-cc context");
  if (st != CUEMU_SUCCESS)
    return st;
  if (job->device_host_code)
    cuemu_hasher_add_string(h, "the device pass's host code");
  cuemu_hasher_add_file_stamp(h, job->compiler);
  if (job->gcc_plugin[0])
    cuemu_hasher_add_file_stamp(h, job->gcc_plugin);
  if (job->llvm_plugin[0])
    cuemu_hasher_add_file_stamp(h, job->llvm_plugin);
  if (job->clang_plugin[0])
    cuemu_hasher_add_file_stamp(h, job->clang_plugin);
  /* With g++ as the compiler, a unit that includes CUB or Thrust is
   * compiled by clang++ (use_clang_for_cccl()), decided after this key: so
   * the key has that clang++ and its plugin too. */
  char clang[PATH_MAX], plugin[PATH_MAX];
  if ((job->default_compiler || job->gnu_chosen) &&
      cuemu_command_find("clang++", clang, sizeof clang) == CUEMU_SUCCESS) {
    cuemu_hasher_add_file_stamp(h, clang);
    if (cuemu__llvm_plugin(clang, job->libdir, plugin, sizeof plugin))
      cuemu_hasher_add_file_stamp(h, plugin);
    if (cuemu__clang_plugin(clang, job->libdir, plugin, sizeof plugin))
      cuemu_hasher_add_file_stamp(h, plugin);
  }
  /* libcuemu itself (its translation): a rebuilt cuemu is a miss even when
   * its version is the same. */
  Dl_info self;
  if (dladdr((void *)cuemu_compile, &self) && self.dli_fname)
    cuemu_hasher_add_file_stamp(h, self.dli_fname);
  st = cuemu_hasher_add_context(h, o->argc, (const char *const *)o->argv);
  cuemu_hasher_finish(h, st == CUEMU_SUCCESS ? &job->context : NULL);
  return st;
}

/* Computes the job's cache key. */
static cuemu_status hash_job(compile_job *job) {
  cuemu_hasher *h;
  const cuemu_compile_options *o = job->opt;
  char num[192];
  cuemu_status st = hash_context(job);
  if (st != CUEMU_SUCCESS)
    return st;
  st = cuemu_hasher_create(&h, "cuemu-cc");
  if (st != CUEMU_SUCCESS)
    return st;
  /* The checkers: a --check=sync object's compile command is an unchecked
   * one's, but its unit records the checkers (write_checks_record()). */
  snprintf(num, sizeof num,
           "abi %d module %d debug %d object %d driver %d arch %d %d "
           "checks %u warn %d %d %d %d %d %d %d %d %d %d",
           CUEMU_MODULE_ABI, o->module, o->debug, o->object,
           o->cuemu_driver_as_nvcc, o->arch,
           o->arch_suffix, job->checks, o->cuemu_warn_default_stream_launch,
           o->cuemu_warn_missing_launch_bounds,
           numbered_level(o, o->cuemu_warn_redeclared),
           numbered_level(o, o->cuemu_warn_redeclared_device),
           numbered_level(o, o->cuemu_warn_redeclared_host_device),
           numbered_level(o, o->cuemu_warn_device_redeclared_host_device),
           numbered_level(o, o->cuemu_warn_main_bare_return),
           numbered_level(o, o->cuemu_warn_host_read),
           numbered_level(o, o->cuemu_warn_host_write),
           numbered_level(o, o->cuemu_warn_defaulted_space));
  cuemu_hasher_add_string(h, num);
  cuemu_hasher_add_string(h, o->cuemu_arch_images ? o->cuemu_arch_images : "");
  cuemu_hasher_add_string(h, o->cuemu_arch_passes ? o->cuemu_arch_passes : "");
  /* A module of relocatable device code exports its symbols. */
  if (o->module && o->rdc)
    cuemu_hasher_add_string(h, "rdc module");
  cuemu_hasher_add_string(h, job->context.hex);
  /* The whole compiler command, with fixed names for the temporary files,
   * so that any change of flags (the user's or the driver's) is a miss. */
  int max = FIXED_ARGS + o->argc + job->cxx_count;
  const char **argv = calloc((size_t)max, sizeof *argv);
  char *buffers = malloc(8 * PATH_MAX);
  if (!argv || !buffers) {
    free(argv);
    free(buffers);
    cuemu_hasher_finish(h, NULL);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  }
  for (int p = 0; p < 2; ++p) {
    job->pass = pass_of(job, p);
    build_argv(job, "TU", "DEPS", "OUT", argv, max, buffers, 8 * PATH_MAX,
               PHASE_ALL);
    for (int i = 1; argv[i]; ++i)
      cuemu_hasher_add_string(h, argv[i]);
    cuemu_hasher_add_string(h, "--");
    build_argv(job, "TU", "DEPS", "OUT", argv, max, buffers, 8 * PATH_MAX,
               PHASE_PREPROCESS);
    for (int i = 1; argv[i]; ++i)
      cuemu_hasher_add_string(h, argv[i]);
  }
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

/* See cuemu_driver.h. */
int cuemu__profile_option(const char *a) {
  return strcmp(a, "--coverage") == 0 || strcmp(a, "-fprofile-arcs") == 0 ||
         strcmp(a, "-ftest-coverage") == 0 ||
         strcmp(a, "-fcoverage-mapping") == 0 ||
         strncmp(a, "-fprofile-", 10) == 0;
}

/* Names the host pass's coverage and profile files where the options ask
 * for them: after the object (dir/k.o: dir/k.gcno, dir/k.gcda), or, for a
 * program compiled and linked in one command, as g++ names them then
 * (dir/prog-k.gcda). The build's own objects are temporary files in the
 * cache folder, whose names the files would otherwise take. */
static void set_profile_names(compile_job *job, const char *output) {
  const cuemu_compile_options *o = job->opt;
  int profiles = 0;
  for (int i = 0; i < o->argc && !o->module; ++i)
    profiles |= cuemu__profile_option(o->argv[i]);
  if (!profiles)
    return;
  char dir[PATH_MAX], out[PATH_MAX], src[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", output);
  snprintf(out, sizeof out, "%s", output);
  snprintf(src, sizeof src, "%s", job->source);
  char real[PATH_MAX];
  if (!realpath(dirname(dir), real))
    return;
  char *out_base = basename(out), *src_base = basename(src);
  char *dot = strrchr(o->object ? out_base : src_base, '.');
  if (dot && dot != (o->object ? out_base : src_base))
    *dot = '\0';
  int n = o->object ? snprintf(job->profile_stem, sizeof job->profile_stem,
                               "%s", out_base)
                    : snprintf(job->profile_stem, sizeof job->profile_stem,
                               "%s-%s", out_base, src_base);
  if (n < 0 || (size_t)n >= sizeof job->profile_stem ||
      (size_t)snprintf(job->profile_dir, sizeof job->profile_dir, "%s/",
                       strcmp(real, "/") == 0 ? "" : real) >=
          sizeof job->profile_dir)
    job->profile_dir[0] = '\0';
}

/* See cuemu_driver.h. */
int cuemu__links_other_files(const char *const *argv, int argc) {
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    if (link_library(a) || strncmp(a, "-L", 2) == 0 ||
        strncmp(a, "-Wl,", 4) == 0 || strcmp(a, "-Xlinker") == 0)
      return 1;
  }
  return 0;
}

/* Non-zero when the options put a CCCL folder (TOOLKIT/include/cccl) on
 * the include path themselves. */
static int names_cccl(const cuemu_compile_options *o) {
  static const char tail[] = "/include/cccl";
  for (int i = 0; i < o->argc; ++i) {
    const char *a = o->argv[i];
    size_t n = strlen(a);
    while (n > 1 && a[n - 1] == '/')
      n--;
    if (n >= sizeof tail - 1 && strncmp(a + n - (sizeof tail - 1), tail, sizeof tail - 1) == 0)
      return 1;
  }
  return 0;
}

/* Runs one command of the compiler, which does `what` ("compile", or
 * "link" where it links the program); returns SUCCESS or COMPILE. */
static cuemu_status run_step(const compile_job *job, const char **argv,
                             const char *what, const char *whose) {
  int rc;
  if (cuemu_command_run(argv, NULL, &rc) != CUEMU_SUCCESS)
    return cuemu__report(CUEMU_COMPILE, "cannot run the compiler %s",
                         job->cxx_words[0]);
  if (rc != 0)
    return cuemu__report(CUEMU_COMPILE,
                         "%s did not %s (the %s messages are above)",
                         job->given, what, whose);
  return CUEMU_SUCCESS;
}

static cuemu_status run_compiler(const compile_job *job, const char **argv) {
  return run_step(job, argv, "compile", "compiler's");
}

/* A link's undefined references (a device function declared and never
 * defined, as nvlink's "Undefined reference") are the linker's messages. */
/* A link of a program or module; its output's line-number sequences of
 * the functions the link dropped are then marked (cuemu_debug_line.h), so
 * that reports name the kept code's lines. */
static cuemu_status run_linker(const compile_job *job, const char **argv) {
  cuemu_status st = run_step(job, argv, "link", "linker's");
  if (st != CUEMU_SUCCESS) {
    int n = 0;
    while (argv[n])
      n++;
    cuemu__driver_link_note(argv, n, job->given);
  }
  for (int i = 0; st == CUEMU_SUCCESS && argv[i]; ++i)
    if (strcmp(argv[i], "-o") == 0 && argv[i + 1])
      cuemu__debug_line_tombstones(argv[i + 1]);
  return st;
}

/* The end of the message of a compiler's log that starts at `at`: its
 * first line (the one that names the place: "f.cu:6:23: error: ...") and
 * the lines after it that begin with a blank (the source line, the caret,
 * "from ...") or are clang++'s quote of the source line (followed by its
 * caret line). */
static size_t message_end(const char *text, size_t size, size_t at) {
  size_t end = at;
  do {
    const char *nl = memchr(text + end, '\n', size - end);
    end = nl ? (size_t)(nl - text) + 1 : size;
  } while (end < size &&
           (text[end] == ' ' || cuemu__diag_quote_at(text, size, end)));
  return end;
}

/* The length of the first line of the message at `line`. */
static size_t first_line(const char *line, size_t size) {
  const char *nl = memchr(line, '\n', size);
  return nl ? (size_t)(nl - line) + 1 : size;
}

/* Whether two messages' first lines are the same but for the column: the
 * passes add different text to some lines (a __device__ variable's
 * declaration), so g++ names one error at two columns. */
static int same_message(const char *a, size_t alen, const char *b,
                        size_t blen) {
  size_t af, at, bf, bt;
  if (!cuemu__diag_place_column(a, alen, &af, &at) || !cuemu__diag_place_column(b, blen, &bf, &bt))
    return alen == blen && memcmp(a, b, alen) == 0;
  return af == bf && memcmp(a, b, af) == 0 && alen - at == blen - bt &&
         memcmp(a + at, b + bt, alen - at) == 0;
}

/* Whether the message `a` is g++'s "template argument N is invalid" on
 * the line (file and line) of the error `b` just before it. A launch's arguments
 * are also checked inside a template argument of cuemu's translation
 * (cuemu_launch_rewrite.c), so an error in them (an undeclared name) makes
 * g++ add this one on its line, which nvcc does not print. */
static int template_argument_follow_on(const char *a, size_t alen,
                                       const char *b, size_t blen) {
  static const char what[] = ": error: template argument ";
  size_t af, at, bf, bt;
  if (!cuemu__diag_place_column(a, alen, &af, &at) ||
      !cuemu__diag_place_column(b, blen, &bf, &bt) || af != bf ||
      memcmp(a, b, af) != 0)
    return 0;
  return alen - at > sizeof what - 1 &&
         memcmp(a + at, what, sizeof what - 1) == 0 &&
         memmem(a + at, alen - at, " is invalid", 11) &&
         blen - bt > 9 && memcmp(b + bt, ": error: ", 9) == 0;
}

/* The group of messages that starts at `at` of text: the lines that name
 * no place with a column ("f.cu: In function 'k':", "At global scope:",
 * "In file included from ..."), which go with the message after them,
 * that message (its first line from *line, *len bytes; none where the
 * text ends first) and the notes after it. Returns the group's end. */
static size_t message_group(const char *text, size_t size, size_t at,
                            size_t *line, size_t *len) {
  size_t from, to;
  *line = at, *len = 0;
  for (;;) {
    size_t n = first_line(text + at, size - at);
    size_t end = message_end(text, size, at);
    if (cuemu__diag_place_column(text + at, n, &from, &to)) {
      *line = at, *len = n;
      at = end;
      break;
    }
    at = end;
    if (at >= size)
      return at;
  }
  /* The notes of the message. */
  while (at < size) {
    size_t n = first_line(text + at, size - at);
    if (!cuemu__diag_place_column(text + at, n, &from, &to) ||
        !memmem(text + at, n, ": note: ", 8))
      break;
    at = message_end(text, size, at);
  }
  return at;
}

/* The compiler's messages `text` of pass p (of `*size` bytes, freed) with
 * the user's columns on the lines that the translation edited
 * (cuemu__diag_columns()). */
static char *user_columns(const compile_job *job, int p, char *text,
                          size_t *size) {
  const cuemu_rewrite *u = &job->units[p];
  size_t moved_size = 0;
  char dir[PATH_MAX + 2] = "";
  if (job->file_map[0] && strcmp(job->source_dir, "/") != 0)
    snprintf(dir, sizeof dir, "%s/", job->source_dir);
  char *moved = cuemu__diag_columns(text, text ? *size : 0, u->text, u->length,
                                    u->columns, u->column_count,
                                    job->inputs[p], job->input_sizes[p], dir,
                                    job->given_dir, &moved_size);
  if (!moved)
    return text;
  free(text);
  *size = moved_size;
  return moved;
}

/* The compiler's messages `text` (of `*size` bytes, freed) with the
 * source's folder spelled as the command line spells it, as nvcc's
 * messages spell it ("sub/h.cuh:3:5: error" for `nvcc -c main.cu`, not
 * the absolute path the passes preprocess by: set_file_map()); `text`
 * itself where there is nothing to respell. */
static char *spell_paths(const compile_job *job, char *text, size_t *size) {
  if (!text || !job->file_map[0] || strcmp(job->source_dir, "/") == 0)
    return text;
  char from[PATH_MAX + 2];
  int n = snprintf(from, sizeof from, "%s/", job->source_dir);
  if (n < 0 || n >= (int)sizeof from || !memmem(text, *size, from, (size_t)n))
    return text;
  char *out = NULL;
  size_t out_size = 0;
  FILE *f = open_memstream(&out, &out_size);
  if (!f)
    return text;
  for (size_t at = 0; at < *size;) {
    const char *hit = memmem(text + at, *size - at, from, (size_t)n);
    size_t upto = hit ? (size_t)(hit - text) : *size;
    fwrite(text + at, 1, upto - at, f);
    if (hit)
      fputs(job->given_dir, f);
    at = hit ? upto + (size_t)n : *size;
  }
  if (fclose(f) != 0 || !out) {
    free(out);
    return text;
  }
  free(text);
  *size = out_size;
  return out;
}

/* Prints the compiler's messages of both passes, kept in logs[0] (the
 * device pass's) and logs[1], then removes the logs: the host pass's
 * first, then the device pass's, each message (with its lines of context
 * and its notes) once: a message of the device pass's that the host pass
 * printed (the same first line but for the column) is left out, so that
 * a message about code both passes compile (host code, a header, a
 * __device__ variable's line) is shown once, as nvcc shows it; so is a
 * message that a pass prints twice at one place with the same context
 * (a kernel's parameter of a deprecated type, whose declaration the
 * translation repeats; two instantiations of a template are two contexts)
 * (tests/driver_warnings.sh, driver_params.sh). */
static void print_pass_messages(const compile_job *job,
                                char logs[2][PATH_MAX + 96]) {
  size_t size[2] = {0, 0};
  char *text[2] = {cuemu__read_file(logs[0], &size[0]),
                   cuemu__read_file(logs[1], &size[1])};
  for (int p = 0; p < 2; ++p)
    text[p] = spell_paths(job, text[p], &size[p]);
  /* The instantiation context without cuemu's translation
   * (cuemu_diag_context.c), then, where clang++ quotes cuemu's translation
   * of a kernel's line, the user's line instead (cuemu_diag_lines.c). */
  const char *dirs[] = {job->shims, job->include};
  for (int step = 0; step < 2; ++step)
    for (int p = 0; p < 2; ++p) {
      char *user = NULL;
      size_t user_size = 0;
      FILE *f = text[p] ? open_memstream(&user, &user_size) : NULL;
      if (!f)
        continue;
      if (step == 0) {
        cuemu__diag_context(text[p], size[p], dirs, 2, f);
      } else {
        /* The user's columns, once the context has left out the lines
         * that it knows by their columns past the user's line. */
        text[p] = user_columns(job, p, text[p], &size[p]);
        cuemu__diag_print(text[p], size[p], f);
      }
      if (fclose(f) == 0 && user) {
        free(text[p]);
        text[p] = user, size[p] = user_size;
      } else {
        free(user);
      }
    }
  /* clang++ closes each pass's messages with "1 error generated.": one
   * line for both, counting the messages printed. */
  int summary = 0, errors = 0, warnings = 0;
  for (int p = 0; p < 2; ++p)
    if (text[p])
      summary |= cuemu__diag_drop_summary(text[p], &size[p]);
  /* The first lines of the messages printed (pass and offset). */
  size_t cap = 0, count = 0;
  struct printed {
    int pass;
    size_t line, len, begin, end;
  } *done = NULL;
  /* The last group printed without a message: the lines after a pass's
   * last message, such as g++'s "compilation terminated." that closes a
   * fatal error, which each failed pass prints and nvcc prints once. */
  struct printed tail = {-1, 0, 0, 0, 0};
  for (int pass = 1; pass >= 0; --pass) {
    /* The pass's message before this one, printed or not. */
    size_t previous = 0, previous_len = 0;
    for (size_t begin = 0; text[pass] && begin < size[pass];) {
      size_t line, len;
      size_t end = message_group(text[pass], size[pass], begin, &line, &len);
      int repeated = 0;
      for (size_t k = 0; k < count && !repeated && len; ++k) {
        const char *a = text[pass] + line, *b = text[done[k].pass] + done[k].line;
        /* In one pass, the whole group must repeat (context included: two
         * instantiations of one template give one error at two places). */
        repeated = done[k].pass == pass
                       ? end - begin == done[k].end - done[k].begin &&
                             memcmp(text[pass] + begin,
                                    text[pass] + done[k].begin,
                                    end - begin) == 0
                       : same_message(a, len, b, done[k].len);
      }
      if (!len && tail.pass >= 0 && tail.pass != pass)
        repeated = end - begin == tail.end - tail.begin &&
                   memcmp(text[pass] + begin, text[tail.pass] + tail.begin,
                          end - begin) == 0;
      if (!repeated && len && previous_len)
        repeated = template_argument_follow_on(text[pass] + line, len,
                                               text[pass] + previous,
                                               previous_len);
      if (len)
        previous = line, previous_len = len;
      if (!repeated) {
        fwrite(text[pass] + begin, 1, end - begin, stderr);
        errors += len && (memmem(text[pass] + line, len, ": error: ", 9) ||
                          memmem(text[pass] + line, len, ": fatal error: ", 15));
        warnings += len && memmem(text[pass] + line, len, ": warning: ", 11);
        if (count == cap) {
          size_t grown_cap = cap ? 2 * cap : 16;
          struct printed *grown = realloc(done, grown_cap * sizeof *grown);
          if (grown)
            done = grown, cap = grown_cap;
        }
        if (count < cap && len)
          done[count++] = (struct printed){pass, line, len, begin, end};
        if (!len)
          tail = (struct printed){pass, line, len, begin, end};
      }
      begin = end;
    }
  }
  if (summary)
    cuemu__diag_print_summary(errors, warnings, stderr);
  if (errors)
    cuemu__diag_removed((const char *const *)text, size, 2);
  free(done);
  for (int p = 0; p < 2; ++p) {
    free(text[p]);
    unlink(logs[p]);
  }
}

/* Runs the commands of the passes at once (one per pass) and waits for
 * them all; with two passes, their messages go to logs beside `temp` and
 * are printed once each (print_pass_messages()). Returns SUCCESS or
 * COMPILE. */
/* A GPU's constant bank holds 64 KB: ptxas refuses a unit whose
 * __constant__ variables need more, and so does this check of the object
 * of the pass that notes them (the host pass, or a module's one). ptxas
 * lays out a whole program's constants in their order, with padding, and
 * packs those of relocatable device code (docs/nvcc-checks.md). */
static cuemu_status constant_bank(const compile_job *job, const char *object) {
  cuemu_space_layout constants;
  cuemu_status st =
      cuemu__elf_space_layout(object, "cuemu_constant_bytes", &constants);
  const unsigned long long bytes =
      job->opt->rdc ? constants.packed : constants.in_order;
  if (st == CUEMU_SUCCESS && bytes > 0x10000)
    st = cuemu__report(CUEMU_COMPILE,
                       "%s: File uses too much global constant data (0x%llx "
                       "bytes, 0x10000 max), as ptxas refuses it",
                       job->source, bytes);
  return st;
}

/* Whether the failed device pass of `job`, whose messages are the file
 * `log`, is to be compiled again with -fdelayed-template-parsing, as
 * nvcc's device pass takes names undeclared in a template that nothing
 * instantiates (cuemu_undeclared_names.c): its messages are all about
 * undeclared names at lines that the host pass does not see, or sees in
 * other words (a macro spelt per pass), or the job is an nvcc module
 * (-cubin, -ptx), which has no host pass, and the
 * compiler is clang++, or g++ where clang++ is
 * found (use_clang_for_cccl()'s rule), which compiles the unit again. */
static int delay_templates_wanted(const compile_job *job, const char *log) {
  if (job->delay_templates)
    return 0;
  char found[PATH_MAX];
  if (!strstr(job->compiler, "clang") &&
      (!(job->default_compiler || job->gnu_chosen) ||
       cuemu_command_find("clang++", found, sizeof found) != CUEMU_SUCCESS))
    return 0;
  size_t size = 0;
  char *text = cuemu__read_file(log, &size);
  /* An nvcc module (-cubin, -ptx) has its device pass only, as with
   * nvcc: no line of it is a host pass's. */
  const int one_pass = job->opt->module && job->opt->nvcc_module;
  int wanted = text && job->inputs[0] && (job->inputs[1] || one_pass) &&
               cuemu__undeclared_device_only(
                   text, size, job->inputs[0], job->input_sizes[0],
                   one_pass ? NULL : job->inputs[1],
                   one_pass ? 0 : job->input_sizes[1]);
  free(text);
  return wanted;
}

/* Runs the one compile of a module (argv) as run_compiler() does; for an
 * nvcc module (-cubin, -ptx, and the module that -Xptxas -v reads) whose
 * compile fails only on names undeclared in templates, which nvcc's
 * device front end takes while nothing instantiates them, sets *delay and
 * prints nothing (delay_templates_wanted()). */
static cuemu_status run_module_compile(const compile_job *job,
                                       const char **argv, const char *temp,
                                       int *delay) {
  char log[PATH_MAX + 96];
  if (!(job->opt->module && job->opt->nvcc_module) || job->delay_templates ||
      snprintf(log, sizeof log, "%s.module.log", temp) >= (int)sizeof log)
    return run_compiler(job, argv);
  int pid = -1, rc = 0;
  if (cuemu__command_start(argv, log, &pid) != CUEMU_SUCCESS)
    return cuemu__report(CUEMU_COMPILE, "cannot run the compiler %s",
                         job->cxx_words[0]);
  if (cuemu__command_wait(pid, &rc) != CUEMU_SUCCESS)
    rc = -1;
  if (rc != 0 && delay_templates_wanted(job, log)) {
    unlink(log);
    *delay = 1;
    return CUEMU_COMPILE;
  }
  size_t size = 0;
  char *text = user_columns(
      job, 0, spell_paths(job, cuemu__read_file(log, &size), &size), &size);
  if (text && !(job->repeat_quiet && rc == 0))
    fwrite(text, 1, size, stderr);
  free(text);
  unlink(log);
  if (rc != 0)
    return cuemu__report(CUEMU_COMPILE,
                         "%s did not compile (the compiler's messages are "
                         "above)",
                         job->given);
  return CUEMU_SUCCESS;
}

/* Whether the failed passes of `job` (status[p] non-zero), whose messages
 * are the files `logs`, failed on clang++'s errors about a local variable
 * of non-literal type in constexpr templates, which nvcc takes: their
 * places are then in *places (cuemu_constexpr_locals.c). */
static int constexpr_locals_wanted(const compile_job *job,
                                   char logs[2][PATH_MAX + 96],
                                   const int status[2],
                                   cuemu_constexpr_places *places) {
  int wanted = 0;
  cuemu_constexpr_places fresh = {NULL, 0};
  for (int p = 0; p < 2; ++p) {
    if (!status[p] || !job->inputs[p])
      continue;
    size_t size = 0;
    char *text = cuemu__read_file(logs[p], &size);
    int found = text ? cuemu__constexpr_locals_places(
                           text, size, job->inputs[p], job->input_sizes[p],
                           job->blanked[p], job->nblanked[p], &fresh)
                     : 0;
    int errors = text && memmem(text, size, ": error: ", 9);
    free(text);
    if (!found && errors) {
      cuemu__constexpr_places_free(&fresh);
      return 0;
    }
    wanted |= found;
  }
  /* The new places join those of the rounds before. */
  cuemu_constexpr_place *all =
      fresh.count ? realloc(places->at, (places->count + fresh.count) *
                                            sizeof *all)
                  : NULL;
  if (!all) {
    cuemu__constexpr_places_free(&fresh);
    return 0;
  }
  memcpy(all + places->count, fresh.at, fresh.count * sizeof *all);
  places->at = all;
  places->count += fresh.count;
  free(fresh.at);
  return wanted;
}

/* Whether the host pass of `job`, compiled by clang++ in g++'s place,
 * whose messages are the file `log`, narrowed a constant in braces, which
 * g++ refuses: its warnings are then rewritten as errors in `log`
 * (cuemu_narrowing.c). */
static int host_narrowing(const compile_job *job, const char *log) {
  if (!job->cccl_clang)
    return 0;
  size_t size = 0, out_size = 0;
  char *text = cuemu__read_file(log, &size);
  int errors = 0;
  char *out =
      text ? cuemu__constant_narrowing_errors(text, size, &out_size, &errors)
           : NULL;
  if (out && errors > 0) {
    FILE *f = fopen(log, "w");
    if (f) {
      fwrite(out, 1, out_size, f);
      fclose(f);
    }
  }
  free(out);
  free(text);
  return errors > 0;
}

/* Runs the passes' compiles, `count` of them, each command's messages in
 * a log beside `temp`, printed together; with `delay` (two passes),
 * where the device pass alone fails on names that nvcc's device pass
 * takes, sets *delay and prints nothing (delay_templates_wanted()); with
 * `places`, where the passes fail on clang++'s errors about non-literal
 * locals of constexpr templates, which nvcc takes, adds to *places, sets
 * *wanted and prints nothing (constexpr_locals_wanted()). */
static cuemu_status run_passes(const compile_job *job, const char **argv[2],
                               int count, const char *temp, int *delay,
                               cuemu_constexpr_places *places, int *wanted) {
  int pid[2] = {-1, -1}, rc, failed = 0, status[2] = {0, 0};
  cuemu_status st = CUEMU_SUCCESS;
  char logs[2][PATH_MAX + 96];
  int logged = count == 2;
  for (int p = 0; p < 2 && logged; ++p)
    logged = snprintf(logs[p], sizeof logs[p], "%s.%d.log", temp, p) <
             (int)sizeof logs[p];
  for (int p = 0; p < count; ++p)
    if (cuemu__command_start(argv[p], logged ? logs[p] : NULL, &pid[p]) !=
        CUEMU_SUCCESS)
      st = cuemu__report(CUEMU_COMPILE, "cannot run the compiler %s",
                         job->cxx_words[0]);
  for (int p = 0; p < count; ++p) {
    if (pid[p] < 0)
      continue;
    if (cuemu__command_wait(pid[p], &rc) != CUEMU_SUCCESS || rc != 0)
      failed = 1, status[p] = 1;
    else if (logged && pass_of(job, p) == CUEMU_PASS_HOST &&
             host_narrowing(job, logs[p]))
      failed = 1, status[p] = 1;
  }
  if (delay && logged && st == CUEMU_SUCCESS && status[0] && !status[1] &&
      delay_templates_wanted(job, logs[0])) {
    *delay = 1;
    return CUEMU_COMPILE;
  }
  if (places && logged && st == CUEMU_SUCCESS && failed &&
      constexpr_locals_wanted(job, logs, status, places)) {
    *wanted = 1;
    unlink(logs[0]);
    unlink(logs[1]);
    return CUEMU_COMPILE;
  }
  if (logged && job->repeat_quiet && !failed) {
    unlink(logs[0]);
    unlink(logs[1]);
  } else if (logged) {
    print_pass_messages(job, logs);
  }
  if (failed && st == CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_COMPILE,
                       "%s did not compile (the compiler's messages are "
                       "above)",
                       job->given);
  return st;
}

/* Whether a folder that the prelude reads (the shims, cuemu's headers,
 * CCCL, the toolkit's, the system's) is under the source's folder, whose
 * __FILE__ names the map rewrites. */
static int prelude_under_source(const compile_job *job) {
  const char *folders[] = {job->shims, job->include, job->cccl, job->toolkit,
                           "/usr/"};
  size_t n = strlen(job->source_dir);
  for (size_t i = 0; i < sizeof folders / sizeof *folders; ++i)
    if (folders[i] && strncmp(folders[i], job->source_dir, n) == 0 &&
        (folders[i][n] == '/' || n == 1))
      return 1;
  return 0;
}

/* Runs the preprocessing commands of the passes (PHASE_PREPROCESS) as
 * run_passes() does, each without the prelude's text where the compile
 * cache has the prelude preprocessed with the command's flags
 * (cuemu_pp_prelude.h): its output and dependency list are then made whole
 * from the entry. A command whose shortcut does not apply or fails runs as
 * it is, and only then are its messages those of a failure. */
static cuemu_status run_preprocessing(const compile_job *job,
                                      const char **argv[2], int count,
                                      const char *temp) {
  cuemu_pp_prelude pp[2];
  memset(pp, 0, sizeof pp);
  char runtime[PATH_MAX + 32], quote[PATH_MAX + 16], base[2][PATH_MAX + 96],
      logs[2][PATH_MAX + 96];
  int quick = 0, pid[2] = {-1, -1}, done[2] = {0, 0};
  int names = snprintf(runtime, sizeof runtime, "%s/cuda_runtime.h",
                       job->shims) < (int)sizeof runtime &&
              snprintf(quote, sizeof quote, "-iquote%s", job->source_dir) <
                  (int)sizeof quote;
  /* The words of the source's folder, which the prelude's entry does not
   * depend on: __FILE__'s map only where no folder of the prelude is under
   * it, else the map is part of the entry's key. */
  const char *aside[3] = {quote, NULL, NULL};
  if (job->file_map[0] && !prelude_under_source(job))
    aside[1] = job->file_map;
  /* CUEMU_NO_PP_PRELUDE=1 turns the shortcut off alone (bench/run_bench.sh
   * measures what it saves). */
  const char *off = getenv("CUEMU_NO_PP_PRELUDE");
  if (off && strcmp(off, "1") == 0)
    names = 0;
  for (int p = 0; p < count && names && job->use_pch; ++p)
    if (snprintf(base[p], sizeof base[p], "%s.pp%d", temp, p) <
            (int)sizeof base[p] &&
        snprintf(logs[p], sizeof logs[p], "%s.pp%d.log", temp, p) <
            (int)sizeof logs[p] &&
        cuemu__pp_prelude_prepare(&pp[p], argv[p], runtime, aside,
                                  job->context.hex, job->search + 1,
                                  base[p]) == 0 &&
        cuemu__command_start(pp[p].argv, logs[p], &pid[p]) == CUEMU_SUCCESS)
      quick++;
  for (int p = 0; p < count; ++p) {
    int rc = -1;
    if (pid[p] >= 0 && cuemu__command_wait(pid[p], &rc) == CUEMU_SUCCESS &&
        rc == 0)
      done[p] = cuemu__pp_prelude_finish(&pp[p]) == 0;
    cuemu__pp_prelude_free(&pp[p]);
  }
  /* The messages of the commands that made their output (warnings); the
   * others run again, with theirs. */
  if (quick > 0) {
    if (count == 2 && done[0] && done[1] && job->repeat_quiet) {
      unlink(logs[0]);
      unlink(logs[1]);
    } else if (count == 2 && done[0] && done[1]) {
      print_pass_messages(job, logs);
    } else
      for (int p = 0; p < count; ++p)
        if (pid[p] >= 0) {
          size_t size = 0;
          char *text = user_columns(
              job, p,
              spell_paths(job, done[p] ? cuemu__read_file(logs[p], &size)
                                       : NULL,
                          &size),
              &size);
          if (text && !(job->repeat_quiet && done[p]))
            fwrite(text, 1, size, stderr);
          free(text);
          unlink(logs[p]);
        }
  }
  const char **rest[2] = {NULL, NULL};
  int left = 0;
  for (int p = 0; p < count; ++p)
    if (!done[p])
      rest[left++] = argv[p];
  return left ? run_passes(job, rest, left, temp, NULL, NULL, NULL) : CUEMU_SUCCESS;
}

/* Non-zero when the host compiler `cxx` (its last word: "ccache g++")
 * is GCC by its name: g++, gcc, c++ or cc, with a target prefix or a
 * version suffix (x86_64-linux-gnu-g++-12), and not a clang++ that
 * /usr/bin/c++ points to. */
static int gnu_compiler_named(char *const *words, int count) {
  if (count < 1)
    return 0;
  const char *w = words[count - 1];
  const char *base = strrchr(w, '/');
  base = base ? base + 1 : w;
  char real[PATH_MAX], found[PATH_MAX];
  if (strstr(base, "clang") ||
      (cuemu_command_find(w, found, sizeof found) == CUEMU_SUCCESS &&
       realpath(found, real) && strstr(real, "clang")))
    return 0;
  return strstr(base, "g++") || strstr(base, "gcc") ||
         strcmp(base, "c++") == 0 || strcmp(base, "cc") == 0;
}

/* A unit that includes CUB or Thrust is compiled by clang++ when the
 * compiler is g++ (the default `c++`, or g++ or gcc chosen: nvcc compiles
 * such a unit with -ccbin g++, and CMake's FindCUDA passes -ccbin
 * /usr/bin/gcc), since g++ refuses CUB (cuemu_toolkit.h); returns 1 when
 * the job now uses clang++. With another compiler chosen the compile goes
 * on, and a failure gets a hint. */
static void use_clang(compile_job *job, const char *found);

static int use_clang_for_cccl(compile_job *job, const char *depfile) {
  if (strstr(job->compiler, "clang") || !cuemu__deps_need_clang(depfile))
    return 0;
  if (!job->default_compiler && !job->gnu_chosen) {
    cuemu__driver_say("note", "%s", CUEMU_CLANG_HINT);
    return 0;
  }
  char found[PATH_MAX];
  if (cuemu_command_find("clang++", found, sizeof found) != CUEMU_SUCCESS) {
    cuemu__driver_say("note", "clang++ not found; %s", CUEMU_CLANG_HINT);
    return 0;
  }
  use_clang(job, found);
  return 1;
}

/* Makes clang++, found at `found`, compile `job` in g++'s place, defining
 * that g++'s version as nvcc's front end does. */
static void use_clang(compile_job *job, const char *found) {
  cuemu__gnu_version(job->cxx_words, job->cxx_count, job->gnu_version,
                     sizeof job->gnu_version);
  snprintf(job->compiler, sizeof job->compiler, "%s", found);
  job->cccl_clang = 1;
  job->cxx_words[0] = "clang++";
  job->cxx_count = 1;
  /* The GCC plugin runs in g++ only; clang++ has its own. */
  job->gcc_plugin[0] = '\0';
  cuemu__llvm_plugin(job->compiler, job->libdir, job->llvm_plugin,
                     sizeof job->llvm_plugin);
  cuemu__clang_plugin(job->compiler, job->libdir, job->clang_plugin,
                      sizeof job->clang_plugin);
}

/* Non-zero when the unit's kernels and device variables keep default
 * visibility (-device-entity-has-hidden-visibility=false). */
static int visible_device_entities(const cuemu_compile_options *o) {
  static const char macro[] = "-D" CUEMU_VISIBLE_DEVICE_MACRO "=1";
  for (int i = 0; i < o->argc; ++i)
    if (strcmp(o->argv[i], macro) == 0)
      return 1;
  return 0;
}

/* Runs one tool of binutils (ld, objcopy); returns SUCCESS or COMPILE. */
static cuemu_status run_tool(const char *const *argv, const char *file) {
  int rc;
  if (cuemu_command_run(argv, NULL, &rc) != CUEMU_SUCCESS || rc != 0)
    return cuemu__report(CUEMU_COMPILE, "%s failed on %s", argv[0], file);
  return CUEMU_SUCCESS;
}

/* Runs objcopy with `options` (from "objcopy", NULL-terminated) and the
 * renames of the C library's math functions to libdevice's
 * (cuemu_device_math.c; its fast intrinsics under --use_fast_math) on a
 * device pass's `object` of `job`. */
static cuemu_status device_objcopy(const compile_job *job,
                                   const char *const *options,
                                   const char *object) {
  const char *argv[256];
  size_t n = 0;
  while (options[n] && n < 64)
    argv[n] = options[n], ++n;
  n += cuemu__device_math_renames(argv + n, sizeof argv / sizeof *argv - n - 2,
                                  job->opt->cuemu_fast_math);
  argv[n++] = object;
  argv[n] = NULL;
  return run_tool(argv, object);
}

/* Non-zero when `text` holds `word` as a whole word (between white space,
 * or a line splice, and the ends). */
static int has_word(const char *text, const char *word, size_t n) {
  for (const char *p = text; (p = strstr(p, word)) != NULL; p++) {
    int before = p == text || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t';
    char after = p[n];
    if (before && (after == '\0' || after == ' ' || after == '\n' ||
                   after == '\t' || after == '\\'))
      return 1;
  }
  return 0;
}

/* Appends to make-style file `to` the dependencies of make-style file
 * `from` (after its target) that `to` does not list yet, so that the cache
 * knows the headers of both passes, each once (a hit hashes each file
 * once). Paths with escaped spaces are appended as they are. */
static void merge_deps(const char *to, const char *from) {
  size_t size = 0, have_size = 0;
  char *text = cuemu__read_file(from, &size);
  char *have = cuemu__read_file(to, &have_size);
  char *grown = have ? realloc(have, have_size + 1) : NULL;
  if (!text || !grown) {
    free(text);
    free(grown ? grown : have);
    return;
  }
  have = grown;
  have[have_size] = '\0';
  char *colon = NULL;
  for (size_t i = 0; i + 1 < size; ++i)
    if (text[i] == ':' && (text[i + 1] == ' ' || text[i + 1] == '\n')) {
      colon = text + i + 1;
      break;
    }
  FILE *f = colon ? fopen(to, "ae") : NULL;
  if (f) {
    const char *p = colon, *end = text + size;
    while (p < end) {
      while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' ||
                         (*p == '\\' && p + 1 < end && p[1] == '\n')))
        p += *p == '\\' ? 2 : 1;
      const char *w = p;
      while (p < end && *p != ' ' && *p != '\n' && *p != '\t') {
        if (*p == '\\' && p + 1 < end && p[1] == ' ')
          p++; /* an escaped space inside the path */
        p++;
      }
      size_t n = (size_t)(p - w);
      if (n == 0 || (n == 1 && *w == '\\'))
        continue;
      char *word = strndup(w, n);
      if (word && !has_word(have, word, n))
        fprintf(f, " \\\n %s", word);
      free(word);
    }
    fputc('\n', f);
    fclose(f);
  }
  free(text);
  free(have);
}

/* The name expressions with the source's macros expanded, into *out
 * (cuemu_name_expressions.h): the source is preprocessed again as the
 * first pass was, with the expressions after it. A source that an
 * #include cannot name leaves *out NULL (the expressions as written). */
static cuemu_status expand_name_expressions(compile_job *job,
                                            cuemu_cache_build *b,
                                            const char **argv, int max,
                                            char *buffers, size_t bufsize,
                                            char ***out) {
  const cuemu_compile_options *o = job->opt;
  char probe[PATH_MAX + 96], probe_ii[PATH_MAX + 96], probe_d[PATH_MAX + 96];
  *out = NULL;
  if (snprintf(probe, sizeof probe, "%s.names.cu", b->temp) >=
          (int)sizeof probe ||
      snprintf(probe_ii, sizeof probe_ii, "%s.names.ii", b->temp) >=
          (int)sizeof probe_ii ||
      snprintf(probe_d, sizeof probe_d, "%s.names.d", b->temp) >=
          (int)sizeof probe_d)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  FILE *f = fopen(probe, "we");
  if (!f)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", probe,
                         strerror(errno));
  int named = cuemu__name_expressions_write_probe(
                  f, job->source, o->name_expressions,
                  o->name_expression_count) == 0;
  if (fclose(f) != 0 || !named) {
    unlink(probe);
    return CUEMU_SUCCESS;
  }
  const int pass = job->pass;
  job->pass = pass_of(job, 0);
  job->preprocess_input = probe;
  build_argv(job, NULL, probe_d, probe_ii, argv, max, buffers, bufsize,
             PHASE_PREPROCESS);
  job->preprocess_input = NULL;
  job->pass = pass;
  const char **argvs[2] = {argv, NULL};
  cuemu_status st = run_preprocessing(job, argvs, 1, b->temp);
  if (st == CUEMU_SUCCESS) {
    size_t size = 0;
    char *text = cuemu__read_file(probe_ii, &size);
    if (!text)
      st = cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s", probe_ii,
                         strerror(errno));
    else if (!(*out = cuemu__name_expressions_read_probe(
                   text, size, o->name_expression_count)))
      st = cuemu__report(CUEMU_COMPILE,
                         "%s: the name expressions could not be expanded",
                         job->source);
    free(text);
  }
  unlink(probe);
  unlink(probe_ii);
  unlink(probe_d);
  return st;
}

/* Installs in job->check_entry, beside the build's files, the object that
 * defines the ThreadSanitizer entry points of a build with instrumenting
 * checkers (shims/cuda_builtins/cuemu_check_entry.h), which its units only
 * declare: compiled once per compiler and checker set, and kept in the
 * cache (cuemu_check_entry_object.c). Nothing for other builds. */
static cuemu_status check_entry(compile_job *job, cuemu_cache_build *b) {
  job->check_entry[0] = '\0';
  if (!(job->checks & ~(unsigned)CUEMU_CHECK_SYNC))
    return CUEMU_SUCCESS;
  return cuemu__check_entry_object(job->cxx_words, job->cxx_count,
                                   job->compiler, job->checks, job->shims,
                                   job->include, job->use_cache, b->temp,
                                   job->check_entry, sizeof job->check_entry);
}

/* The build of a cache miss (a cuemu_cache_build_fn). Each pass (one for a
 * module, nvcc's device and host passes otherwise) preprocesses the source
 * beside the other temporary files, translates its translation unit and
 * compiles it; the passes run at once. The device pass's object is made
 * self-contained (ld -r --force-group-allocation) and all its symbols
 * local but those the translation made visible (objcopy --localize-hidden),
 * so that each pass keeps its own inline functions, templates and globals;
 * then both are linked into `b->built` (a program, or an object: ld -r). */
/* Non-zero when the options allow annotated lambdas: cuemu-nvcc's
 * --extended-lambda and --expt-extended-lambda (and cuemu-run's) define
 * __CUDACC_EXTENDED_LAMBDA__, as nvcc does. */
static int extended_lambda(const cuemu_compile_options *o) {
  static const char macro[] = "-D__CUDACC_EXTENDED_LAMBDA__";
  for (int i = 0; i < o->argc; ++i)
    if (strncmp(o->argv[i], macro, sizeof macro - 1) == 0 &&
        (o->argv[i][sizeof macro - 1] == '\0' ||
         o->argv[i][sizeof macro - 1] == '='))
      return 1;
  return 0;
}

/* Translates pass p's preprocessed text into *rw, making up `pads`. */
/* Prints nvcc's optional warnings (and errors) that a translation found,
 * as a compiler prints them: once for a pass translated again. */
static void print_diagnostics(cuemu_rewrite *rw) {
  if (rw->diagnostics) {
    fputs(rw->diagnostics, stderr);
    free(rw->diagnostics);
    rw->diagnostics = NULL;
  }
}

static cuemu_status translate_pass(const compile_job *job, int p,
                                   const char *text, size_t size,
                                   const cuemu_lambda_pad *pads, int npads,
                                   cuemu_rewrite *rw) {
  const cuemu_compile_options *o = job->opt;
  const char *skip[] = {job->shims, job->include, NULL};
  int redeclared = numbered_level(o, o->cuemu_warn_redeclared),
      device = numbered_level(o, o->cuemu_warn_redeclared_device),
      host_device = numbered_level(o, o->cuemu_warn_redeclared_host_device),
      device_host_device =
          numbered_level(o, o->cuemu_warn_device_redeclared_host_device),
      bare_return = numbered_level(o, o->cuemu_warn_main_bare_return);
  cuemu_translate_options topt = {skip, (enum cuemu_pass)pass_of(job, p),
                                  o->rdc, job->key.hex, pads, npads,
                                  extended_lambda(o), job->variant,
                                  o->cuemu_warn_default_stream_launch,
                                  o->cuemu_warn_missing_launch_bounds,
                                  redeclared, device, host_device,
                                  device_host_device, bare_return,
                                  numbered_level(o, o->cuemu_warn_host_read),
                                  numbered_level(o, o->cuemu_warn_host_write),
                                  numbered_level(o, o->cuemu_warn_defaulted_space),
                                  job->host_full};
  memset(rw, 0, sizeof *rw);
  cuemu_status st = cuemu__rewrite_preprocessed(text, size, job->source,
                                                &topt, rw);
  if (st == CUEMU_SUCCESS)
    return st;
  /* The translation's error names the file as the compiler's messages do:
   * as the command line spells it. */
  size_t length = strlen(rw->message);
  char *message = spell_paths(job, strdup(rw->message), &length);
  st = cuemu__report(st, "%.*s", (int)length, message ? message : rw->message);
  free(message);
  return st;
}

/* Prepares the precompiled prelude of pass p's compile: cuts the
 * translated unit into the prelude (`pch`) and the rest (`trimmed`), and
 * installs the prelude's precompiled form beside it (cuemu_pch.h). Only
 * with the cache, whose entry it is. Returns 1 when the compile uses them;
 * else nothing is left, and the unit is compiled whole. */
static int use_pch(compile_job *job, int p, const char *temp,
                   char pch[PATH_MAX + 96], char trimmed[PATH_MAX + 96],
                   const char **argv, int max, char *buffers,
                   size_t bufsize) {
  char qualifiers[PATH_MAX + 32];
  pch[0] = '\0';
  if (!job->use_pch ||
      snprintf(pch, PATH_MAX + 96, "%s.%d.pch.h", temp, p) >= PATH_MAX + 96 ||
      snprintf(trimmed, PATH_MAX + 96, "%s.%d.rest.cpp", temp, p) >=
          PATH_MAX + 96 ||
      snprintf(qualifiers, sizeof qualifiers, "%s/cuemu_qualifiers.h",
               job->shims) >= (int)sizeof qualifiers ||
      cuemu__pch_split_unit(job->tu[p], job->source, qualifiers, pch,
                            trimmed) != 0) {
    pch[0] = '\0';
    return 0;
  }
  build_argv(job, NULL, NULL, NULL, argv, max, buffers, bufsize, PHASE_PCH);
  if (cuemu__pch_get(argv, job->context.hex, pch, qualifiers) != 0) {
    unlink(pch);
    unlink(trimmed);
    pch[0] = '\0';
    return 0;
  }
  return 1;
}

/* What of nvcc's <cooperative_groups.h> brings the first preprocessed pass
 * of the unit names in the user's code (cuemu__unit_needs_cccl_brings():
 * CUEMU_CCCL_BRINGS_* bits). Also warns about the names it uses that nvcc
 * leaves undeclared. */
static int needs_cccl_brings(const compile_job *job) {
  size_t size = 0;
  char *text = cuemu__read_file(job->ii[0], &size);
  if (!text)
    return 0;
  const char *skip[] = {job->shims, job->include};
  const int needs = cuemu__unit_needs_cccl_brings(text, size, skip, 2);
  /* And the names that nvcc leaves undeclared there, which the shims
   * declare: a warning (cuemu_nvcc_undeclared.h), once a unit. */
  if (!job->opt->module)
    cuemu__warn_nvcc_undeclared(text, size, skip, 2);
  free(text);
  return needs;
}

/* Records in a checked unit's device code the checkers built in, as a
 * local absolute symbol `cuemu_check_built` of its object, which the
 * checkers read (check/cuemu_check_module.c, OR-ing every one they find):
 * an object compiled with --check -c and linked by the host compiler
 * (`g++ *.o -lcudart`, as Parboil's Makefiles link) or by a cuemu-nvcc
 * link without --check gets no --defsym of the link (cuemu__link_tail()),
 * and its checkers were silently off. Returns nonzero on a write error. */
static int write_checks_record(FILE *f, unsigned checks) {
  if (!checks)
    return 0;
  return fprintf(f, "__asm__(\".set " CUEMU_CHECK_BUILT_SYMBOL ", %u\");\n",
                 checks) < 0;
}

/* The further device passes of a unit built for several virtual
 * architectures (o->cuemu_arch_passes, "800:sm_80,compute_80;...";
 * docs/nvcc-checks.md): each is preprocessed with its architecture's
 * macros, translated and compiled as the first device pass is; its
 * variables are made weak so that they bind to the first pass's objects
 * (one object per device, as on a GPU), its other symbols local, and it is
 * linked into dev_local (ld -r), whose registration calls its own
 * (cuemu__codegen_write_unit()). A build of one architecture has none. */
static cuemu_status further_passes(compile_job *job, cuemu_cache_build *b,
                                   const char *dev_local, const char **argv,
                                   int max, char *buffers, size_t bufsize) {
  const char *passes = job->opt->cuemu_arch_passes;
  char first_macro[sizeof job->arch_macro];
  char first_features[3][64];
  memcpy(first_macro, job->arch_macro, sizeof first_macro);
  memcpy(first_features, job->arch_features, sizeof first_features);
  cuemu_status st = CUEMU_SUCCESS;
  for (int k = 0; passes && *passes && st == CUEMU_SUCCESS; ++k) {
    const char *colon = strchr(passes, ':');
    const char *end = strchr(passes, ';');
    if (!colon || !end || colon > end)
      break;
    char name[16], images[512];
    snprintf(name, sizeof name, "%.*s", (int)(colon - passes), passes);
    snprintf(images, sizeof images, "%.*s", (int)(end - colon - 1), colon + 1);
    passes = end + 1;
    const int value = atoi(name);
    const size_t digits = strspn(name, "0123456789");
    const char suffix = name[digits];
    char ii[PATH_MAX + 96], tu[PATH_MAX + 96], obj[PATH_MAX + 96],
        local[PATH_MAX + 96], merged[PATH_MAX + 96], deps[PATH_MAX + 96],
        unit[sizeof job->key.hex + 24];
    if (snprintf(ii, sizeof ii, "%s.v%d.ii", b->temp, k) >= (int)sizeof ii ||
        snprintf(tu, sizeof tu, "%s.v%d.cpp", b->temp, k) >= (int)sizeof tu ||
        snprintf(obj, sizeof obj, "%s.v%d.o", b->temp, k) >= (int)sizeof obj ||
        snprintf(local, sizeof local, "%s.v%d.local.o", b->temp, k) >=
            (int)sizeof local ||
        snprintf(merged, sizeof merged, "%s.v%d.merged.o", b->temp, k) >=
            (int)sizeof merged ||
        snprintf(deps, sizeof deps, "%s.v%d.d", b->temp, k) >=
            (int)sizeof deps)
      return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
    snprintf(unit, sizeof unit, "%s_%s", job->key.hex, name);
    snprintf(job->arch_macro, sizeof job->arch_macro, "-D__CUDA_ARCH__=%d",
             value);
    cuemu__gpu_arch_macros(value, suffix, job->arch_features);
    job->pass = CUEMU_PASS_DEVICE;
    job->pch = NULL;
    build_argv(job, NULL, deps, ii, argv, max, buffers, bufsize,
               PHASE_PREPROCESS);
    const char **one[2] = {argv, NULL};
    st = run_preprocessing(job, one, 1, b->temp);
    if (st == CUEMU_SUCCESS)
      merge_deps(b->depfile, deps);
    unlink(deps);
    size_t size = 0;
    char *text = NULL;
    cuemu_rewrite rw;
    memset(&rw, 0, sizeof rw);
    if (st == CUEMU_SUCCESS && !(text = cuemu__read_file(ii, &size)))
      st = cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s", ii,
                         strerror(errno));
    job->variant = 1;
    if (st == CUEMU_SUCCESS)
      st = translate_pass(job, 0, text, size, NULL, 0, &rw);
    print_diagnostics(&rw);
    job->variant = 0;
    if (st == CUEMU_SUCCESS) {
      FILE *f = fopen(tu, "we");
      int werr = !f || cuemu__codegen_write_unit(
                           f, job->source, &rw, 0, unit, value, images,
                           CUEMU_UNIT_VARIANT, NULL, NULL, NULL, 0) != 0;
      if ((f && fclose(f) != 0) || werr)
        st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", tu);
    }
    cuemu__rewrite_free(&rw);
    free(text);
    if (!getenv("CUEMU_KEEP_TU"))
      unlink(ii);
    if (st == CUEMU_SUCCESS) {
      build_argv(job, tu, b->depfile, obj, argv, max, buffers, bufsize,
                 PHASE_COMPILE);
      st = run_compiler(job, argv);
    }
    if (!getenv("CUEMU_KEEP_TU"))
      unlink(tu);
    char strings[PATH_MAX + 96];
    if (st == CUEMU_SUCCESS)
      st = cuemu__device_strings_script(b->temp, strings, sizeof strings);
    if (st == CUEMU_SUCCESS) {
      const char *ld[] = {"ld", "-r", obj, "--force-group-allocation", "-T",
                          strings, "-o", local, NULL};
      st = run_tool(ld, obj);
      unlink(strings);
    }
    unlink(obj);
    /* With relocatable device code, the pass's visible __device__
     * functions and its calls of them (its own unit's and others') get
     * the pass's names ("NAME.cuemu_arch_800"), as every unit's pass of
     * that architecture names them: the program's link then joins each
     * architecture's code apart, as nvlink does. */
    char renames[PATH_MAX + 96], redefine[PATH_MAX + 128], pass_names[32],
        aliases[PATH_MAX + 96], copies[PATH_MAX + 96],
        copies_s[PATH_MAX + 96], copies_o[PATH_MAX + 96];
    int nrenames = 0, naliases = 0, ncopies = 0;
    snprintf(pass_names, sizeof pass_names, CUEMU_ARCH_SUFFIX_PREFIX "%s",
             name);
    if (snprintf(renames, sizeof renames, "%s.v%d.renames", b->temp, k) >=
            (int)sizeof renames ||
        snprintf(aliases, sizeof aliases, "%s.v%d.aliases.ld", b->temp, k) >=
            (int)sizeof aliases ||
        snprintf(copies, sizeof copies, "%s.v%d.copies", b->temp, k) >=
            (int)sizeof copies ||
        snprintf(copies_s, sizeof copies_s, "%s.v%d.copies.s", b->temp, k) >=
            (int)sizeof copies_s ||
        snprintf(copies_o, sizeof copies_o, "%s.v%d.copies.o", b->temp, k) >=
            (int)sizeof copies_o)
      st = cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
    if (st == CUEMU_SUCCESS && job->opt->rdc)
      st = cuemu__elf_device_fallbacks(local, pass_names, dev_local,
                                       job->fallbacks, &job->nfallbacks);
    if (st == CUEMU_SUCCESS && job->opt->rdc)
      st = cuemu__elf_variant_renames(local, pass_names, renames, &nrenames,
                                      aliases, &naliases, copies, &ncopies);
    snprintf(redefine, sizeof redefine, "--redefine-syms=%s", renames);
    if (st == CUEMU_SUCCESS)
      st = cuemu__elf_weaken_variant(local, 0);
    if (st == CUEMU_SUCCESS) {
      /* As the first pass's; its records of kernel template instances
       * (pass word: its __CUDA_ARCH__) make them variants of the first
       * pass's instances, which keep their identity. */
      const char *objcopy[] = {"objcopy",
                               "--localize-hidden",
                               "--wildcard",
                               "--remove-section=.init_array*",
                               "--remove-section=.ctors*",
                               "--remove-section=.fini_array*",
                               "--remove-section=.dtors*",
                               CUEMU_DEVICE_HEAP_RENAMES,
                               CUEMU_DEVICE_CHECK_RENAMES(
                                   job->checks & ~(unsigned)CUEMU_CHECK_SYNC),
                               nrenames ? redefine : "--wildcard",
                               NULL};
      st = device_objcopy(job, objcopy, local);
    }
    if (nrenames)
      unlink(renames);
    if (st == CUEMU_SUCCESS)
      st = cuemu__elf_weaken_variant(local, 1);
    /* The records of the pass's own copies of variables, which the host's
     * symbol calls reach on a device that runs this pass. */
    if (st == CUEMU_SUCCESS && ncopies)
      st = cuemu__variable_copies_source(copies, pass_names, value / 10,
                                         copies_s);
    if (st == CUEMU_SUCCESS && ncopies) {
      const char *as[] = {"as", copies_s, "-o", copies_o, NULL};
      st = run_tool(as, copies_s);
    }
    if (ncopies) {
      unlink(copies);
      unlink(copies_s);
    }
    if (st == CUEMU_SUCCESS) {
      /* The pass's names of its variables that stay the first pass's
       * objects (cuemu__elf_variant_renames()): aliases, a linker script's
       * assignments. */
      const char *ld[] = {"ld", "-r", dev_local, local, NULL, NULL,
                          NULL, NULL,      NULL};
      int n = 4;
      if (naliases)
        ld[n++] = aliases;
      if (ncopies)
        ld[n++] = copies_o;
      ld[n++] = "-o";
      ld[n++] = merged;
      ld[n] = NULL;
      st = run_tool(ld, local);
    }
    if (naliases)
      unlink(aliases);
    if (ncopies)
      unlink(copies_o);
    if (st == CUEMU_SUCCESS && rename(merged, dev_local) != 0)
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", dev_local,
                         strerror(errno));
    unlink(local);
    unlink(merged);
  }
  memcpy(job->arch_macro, first_macro, sizeof first_macro);
  memcpy(job->arch_features, first_features, sizeof first_features);
  return st;
}

/* Gives the host pass's object `host` its own objects (shadows) of the
 * unit's __device__ and __constant__ variables, as nvcc's host code has
 * them: renamed (cuemu__elf_variable_shadows()), with the records that map
 * each shadow to the device pass's object for the symbol calls linked in
 * (section cuemu_variable_shadows, which the host pass's generated code
 * registers). */
static cuemu_status host_shadows(cuemu_cache_build *b, const char *host) {
  char renames[PATH_MAX + 96], redefine[PATH_MAX + 128],
      records[PATH_MAX + 96], records_o[PATH_MAX + 96],
      merged[PATH_MAX + 96];
  if (snprintf(renames, sizeof renames, "%s.shadows", b->temp) >=
          (int)sizeof renames ||
      snprintf(records, sizeof records, "%s.shadows.s", b->temp) >=
          (int)sizeof records ||
      snprintf(records_o, sizeof records_o, "%s.shadows.o", b->temp) >=
          (int)sizeof records_o ||
      snprintf(merged, sizeof merged, "%s.shadows.merged.o", b->temp) >=
          (int)sizeof merged)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  int count = 0, defined = 0;
  cuemu_status st =
      cuemu__elf_variable_shadows(host, renames, &count, records, &defined);
  snprintf(redefine, sizeof redefine, "--redefine-syms=%s", renames);
  if (st == CUEMU_SUCCESS && count) {
    const char *objcopy[] = {"objcopy", redefine, host, NULL};
    st = run_tool(objcopy, host);
  }
  if (st == CUEMU_SUCCESS && defined) {
    const char *as[] = {"as", records, "-o", records_o, NULL};
    st = run_tool(as, records);
  }
  if (st == CUEMU_SUCCESS && defined) {
    /* The records first, with the guard that keeps the shadows apart from
     * the device pass's variables before them (CUEMU_SHADOW_GUARD). */
    const char *ld[] = {"ld", "-r", records_o, host, "-o", merged, NULL};
    st = run_tool(ld, host);
  }
  if (st == CUEMU_SUCCESS && defined && rename(merged, host) != 0)
    st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", host,
                       strerror(errno));
  if (count)
    unlink(renames);
  if (defined) {
    unlink(records);
    unlink(records_o);
    unlink(merged);
  }
  return st;
}

/* Links into dev_local the assembly that make() writes to a file of the
 * build's (named after `tag`), assembled by `as`; nothing when make()
 * returns CUEMU_NOT_SUPPORTED (nothing to add). */
static cuemu_status merge_assembly(cuemu_cache_build *b, const char *tag,
                                   const char *dev_local,
                                   cuemu_status (*make)(void *ctx,
                                                        const char *source),
                                   void *ctx) {
  char source[PATH_MAX + 96], obj[PATH_MAX + 96], merged[PATH_MAX + 96];
  if (snprintf(source, sizeof source, "%s.%s.s", b->temp, tag) >=
          (int)sizeof source ||
      snprintf(obj, sizeof obj, "%s.%s.o", b->temp, tag) >= (int)sizeof obj ||
      snprintf(merged, sizeof merged, "%s.%s.merged.o", b->temp, tag) >=
          (int)sizeof merged)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  cuemu_status st = make(ctx, source);
  if (st == CUEMU_NOT_SUPPORTED)
    return CUEMU_SUCCESS;
  if (st == CUEMU_SUCCESS) {
    const char *as[] = {"as", source, "-o", obj, NULL};
    st = run_tool(as, source);
  }
  if (st == CUEMU_SUCCESS) {
    const char *ld[] = {"ld", "-r", dev_local, obj, "-o", merged, NULL};
    st = run_tool(ld, obj);
  }
  if (st == CUEMU_SUCCESS && rename(merged, dev_local) != 0)
    st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", dev_local,
                       strerror(errno));
  unlink(source);
  unlink(obj);
  unlink(merged);
  return st;
}

static cuemu_status fallbacks_source(void *ctx, const char *source) {
  const compile_job *job = ctx;
  return cuemu__device_fallbacks_source(job->fallbacks, source);
}

/* Links into dev_local the fallbacks of the device passes' references of
 * __host__ __device__ functions that job->fallbacks lists
 * (cuemu__elf_device_fallbacks()). */
static cuemu_status device_fallbacks(compile_job *job, cuemu_cache_build *b,
                                     const char *dev_local) {
  return merge_assembly(b, "fallbacks", dev_local, fallbacks_source, job);
}

typedef struct shared_calls_job {
  const char *dev_local;
  int noted;
  const char *reach; /* -rdc: the summary for the link, else NULL */
  int nreach;
  const char *unit; /* to check nvcc's limit: the source, else NULL */
} shared_calls_job;

static cuemu_status shared_calls_source(void *ctx, const char *source) {
  shared_calls_job *j = ctx;
  int count = 0;
  cuemu_status st =
      cuemu__elf_shared_calls(j->dev_local, source, &count, &j->noted,
                              j->reach, &j->nreach, j->unit);
  return st == CUEMU_SUCCESS && !count ? CUEMU_NOT_SUPPORTED : st;
}

/* Links into dev_local the records of the static __shared__ variables of
 * the functions that its kernels call (cuemu__elf_shared_calls()), which
 * nvcc counts in a kernel's static shared memory, and removes the notes
 * they are made from. With relocatable device code (`rdc`), what its
 * functions reach in the unit is kept for the link, which follows their
 * calls of other units' functions (section cuemu_shared_reach,
 * cuemu__shared_reach_source()). With `unit`, a kernel past nvcc's limit
 * on static shared memory is an error naming it. */
static cuemu_status shared_calls(cuemu_cache_build *b, const char *dev_local,
                                 int rdc, const char *unit) {
  char reach[PATH_MAX + 96], section[PATH_MAX + 128];
  if (snprintf(reach, sizeof reach, "%s.reach", b->temp) >= (int)sizeof reach ||
      snprintf(section, sizeof section, "cuemu_shared_reach=%s", reach) >=
          (int)sizeof section)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  shared_calls_job j = {dev_local, 0, rdc ? reach : NULL, 0, unit};
  cuemu_status st =
      merge_assembly(b, "shared_calls", dev_local, shared_calls_source, &j);
  if (st == CUEMU_SUCCESS && (j.noted || j.nreach)) {
    const char *objcopy[] = {"objcopy",
                             j.noted ? "--remove-section=cuemu_shared_notes"
                                     : "--wildcard",
                             j.nreach ? "--add-section" : "--wildcard",
                             j.nreach ? section : "--wildcard",
                             dev_local,
                             NULL};
    st = run_tool(objcopy, dev_local);
  }
  if (j.nreach)
    unlink(reach);
  return st;
}

/* nvcc --keep: copies the file `from` of pass p (a preprocessed unit
 * when `preprocessed`, else a translated one) into the keep folder, under
 * the name nvcc gives that file: the source's name without its suffix,
 * then .cpp1.ii or .cudafe1.gpu for the device pass, .cpp4.ii or
 * .cudafe1.cpp for the host pass. A file that cannot be kept gets a
 * warning; the compile goes on (a folder that is missing stopped the
 * compile before: keep_dir_check()). */
static void keep_unit(const compile_job *job, int p, const char *from,
                      int preprocessed) {
  const char *dir = job->opt->cuemu_keep_dir;
  if (!dir)
    return;
  int host = pass_of(job, p) == CUEMU_PASS_HOST;
  const char *suffix = preprocessed ? (host ? ".cpp4.ii" : ".cpp1.ii")
                                    : (host ? ".cudafe1.cpp" : ".cudafe1.gpu");
  const char *base = strrchr(job->source, '/');
  base = base ? base + 1 : job->source;
  const char *dot = strrchr(base, '.');
  int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
  char to[PATH_MAX];
  if (snprintf(to, sizeof to, "%s/%.*s%s", dir, stem, base, suffix) >=
      (int)sizeof to)
    return;
  FILE *in = fopen(from, "rbe");
  if (!in)
    return;
  FILE *out = fopen(to, "wbe");
  int bad = !out;
  char chunk[65536];
  size_t n;
  while (!bad && (n = fread(chunk, 1, sizeof chunk, in)) > 0)
    bad = fwrite(chunk, 1, n, out) != n;
  bad |= ferror(in);
  fclose(in);
  if (out)
    bad |= fclose(out) != 0;
  if (bad)
    fprintf(stderr, "cuemu: warning: --keep: cannot write %s: %s\n", to,
            strerror(errno));
}

/* nvcc --keep with a -keep-dir that is not a folder: nvcc's host
 * preprocessing cannot write the first unit it keeps (NAME.cpp4.ii), and
 * the compile fails with the host compiler's words (nvcc 13.0, g++ then
 * clang++ as -ccbin), before anything else is compiled. */
static cuemu_status keep_dir_check(const compile_job *job) {
  const char *dir = job->opt->cuemu_keep_dir;
  struct stat st;
  if (!dir)
    return CUEMU_SUCCESS;
  int error = stat(dir, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
  if (!error)
    return CUEMU_SUCCESS;
  const char *base = strrchr(job->source, '/');
  base = base ? base + 1 : job->source;
  const char *dot = strrchr(base, '.');
  int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
  if (strstr(job->compiler, "clang"))
    fprintf(stderr,
            "error: unable to open output file '%s/%.*s.cpp4.ii': '%s'\n"
            "1 error generated.\n",
            dir, stem, base, strerror(error));
  else
    fprintf(stderr,
            "cc1plus: fatal error: opening output file %s/%.*s.cpp4.ii: %s\n"
            "compilation terminated.\n",
            dir, stem, base, strerror(error));
  return cuemu__report(CUEMU_COMPILE,
                       "%s did not compile (the compiler's messages are "
                       "above)",
                       job->given);
}

/* The preprocessed unit `text` (`size` bytes), with `constexpr` blanked
 * out of the templates that clang++ refused for a non-literal local
 * (build()). */
static char *blank_constexpr(compile_job *job, int p, char *text,
                             size_t size) {
  if (job->constexpr_round)
    cuemu__constexpr_locals_blank(text, size, &job->constexpr_places,
                                  &job->blanked[p], &job->nblanked[p]);
  return text;
}

static cuemu_status build_once(compile_job *job, cuemu_cache_build *b) {
  const cuemu_compile_options *o = job->opt;
  int count = pass_count(job);
  char object[2][PATH_MAX + 96], dev_local[PATH_MAX + 96];
  char deps2[PATH_MAX + 96];
  char pch[2][PATH_MAX + 96] = {"", ""}, trimmed[2][PATH_MAX + 96];
  for (int p = 0; p < 2; ++p)
    if (snprintf(job->tu[p], sizeof job->tu[p], "%s.%d.cpp", b->temp, p) >=
            (int)sizeof job->tu[p] ||
        snprintf(job->ii[p], sizeof job->ii[p], "%s.%d.ii", b->temp, p) >=
            (int)sizeof job->ii[p] ||
        snprintf(object[p], sizeof object[p], "%s.%d.o", b->temp, p) >=
            (int)sizeof object[p] ||
        snprintf(dev_local, sizeof dev_local, "%s.local.o", b->temp) >=
            (int)sizeof dev_local ||
        snprintf(deps2, sizeof deps2, "%s.1.d", b->temp) >=
            (int)sizeof deps2)
      return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  /* The source is not a header of the entry (its text is in the key), and
   * headers are searched for in the source's folder and the user's
   * folders. */
  b->skip = job->source;
  b->search = job->search;

  int max = FIXED_ARGS + o->argc + job->cxx_count;
  const char **argv[2] = {calloc((size_t)max, sizeof(char *)),
                          calloc((size_t)max, sizeof(char *))};
  size_t bufsize = 8 * PATH_MAX;
  char *buffers[2] = {malloc(bufsize), malloc(bufsize)};
  cuemu_status st = CUEMU_SUCCESS;
  if (!argv[0] || !argv[1] || !buffers[0] || !buffers[1])
    st = cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  /* The preprocessing passes; the first writes the headers it read to the
   * entry's dependency file, the second's are added to it. The host pass
   * of a unit that includes CCCL, whose device code keeps its bodies
   * there, reads the whole prelude (else see below). */
  job->host_full = cuemu__source_includes_cccl(job->text, job->size);
  for (int p = 0; p < count && st == CUEMU_SUCCESS; ++p) {
    job->pass = pass_of(job, p);
    build_argv(job, NULL, p == 0 ? b->depfile : deps2, job->ii[p], argv[p],
               max, buffers[p], bufsize, PHASE_PREPROCESS);
  }
  if (st == CUEMU_SUCCESS) {
    st = run_preprocessing(job, argv, count, b->temp);
    if (st == CUEMU_COMPILE && job->cccl_source == CUEMU_CCCL_NONE &&
        cuemu__source_includes_cccl(job->text, job->size))
      st = cuemu__report(CUEMU_COMPILE, "%s did not compile: %s", job->source,
                         CUEMU_NO_CCCL_NOTE);
  }
  if (st == CUEMU_SUCCESS &&
      (job->cccl_clang || use_clang_for_cccl(job, b->depfile))) {
    /* Preprocessed again by clang++, whose macros CCCL reads; CCCL's
     * device code keeps its bodies in the host pass. */
    job->host_full = 1;
    for (int p = 0; p < count; ++p) {
      job->pass = pass_of(job, p);
      build_argv(job, NULL, p == 0 ? b->depfile : deps2, job->ii[p], argv[p],
                 max, buffers[p], bufsize, PHASE_PREPROCESS);
    }
    job->repeat_quiet = 1;
    st = run_preprocessing(job, argv, count, b->temp);
    job->repeat_quiet = 0;
    /* "["__FILE__"]": g++ and nvcc join the strings, clang++ reads a
     * user-defined literal's suffix (cuemu_string_macro_suffix.h). */
    char from[PATH_MAX + 2];
    snprintf(from, sizeof from, "%s%s", job->source_dir,
             strcmp(job->source_dir, "/") == 0 ? "" : "/");
    for (int p = 0; st == CUEMU_SUCCESS && p < count; ++p)
      if (cuemu__split_string_macro_suffixes(
              job->ii[p], job->file_map[0] ? from : NULL,
              job->file_map[0] ? job->given_dir : NULL) != 0)
        st = cuemu__report(CUEMU_IO_ERROR, "cannot rewrite %s", job->ii[p]);
  }
  /* A unit that includes cooperative groups and names what nvcc's
   * <cooperative_groups.h> brings only through libcu++ and the heavier
   * headers of the C++ library is preprocessed again with them
   * (shims/cuda_builtins/cuemu_cccl_brings.h). */
  if (st == CUEMU_SUCCESS && !job->cccl_brings &&
      (job->cccl_brings = needs_cccl_brings(job)) != 0) {
    for (int p = 0; p < count; ++p) {
      job->pass = pass_of(job, p);
      build_argv(job, NULL, p == 0 ? b->depfile : deps2, job->ii[p], argv[p],
                 max, buffers[p], bufsize, PHASE_PREPROCESS);
    }
    job->repeat_quiet = 1;
    st = run_preprocessing(job, argv, count, b->temp);
    job->repeat_quiet = 0;
  }
  if (st == CUEMU_SUCCESS && count == 2)
    merge_deps(b->depfile, deps2);
  unlink(deps2);
  /* The translations. */
  cuemu_rewrite rws[2];
  memset(rws, 0, sizeof rws);
  char *texts[2] = {NULL, NULL};
  size_t sizes[2] = {0, 0};
  for (int p = 0; p < count && st == CUEMU_SUCCESS; ++p) {
    texts[p] = cuemu__read_file(job->ii[p], &sizes[p]);
    if (!texts[p])
      st = cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s", job->ii[p],
                         strerror(errno));
    else
      st = translate_pass(job, p, blank_constexpr(job, p, texts[p], sizes[p]),
                          sizes[p], NULL, 0, &rws[p]);
  }
  /* A host pass that keeps device code (or includes CCCL) is preprocessed
   * again with the whole prelude, and translated again. */
  if (st == CUEMU_SUCCESS && count == 2 && !job->host_full &&
      (rws[1].host_device_code || cuemu__deps_cccl_library(b->depfile))) {
    job->host_full = 1;
    job->pass = CUEMU_PASS_HOST;
    build_argv(job, NULL, deps2, job->ii[1], argv[1], max, buffers[1], bufsize,
               PHASE_PREPROCESS);
    const char **host_argv[2] = {argv[1], NULL};
    st = run_preprocessing(job, host_argv, 1, b->temp);
    if (st == CUEMU_SUCCESS)
      merge_deps(b->depfile, deps2);
    unlink(deps2);
    cuemu__rewrite_free(&rws[1]);
    free(texts[1]);
    texts[1] = NULL;
    if (st == CUEMU_SUCCESS &&
        !(texts[1] = cuemu__read_file(job->ii[1], &sizes[1])))
      st = cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s", job->ii[1],
                         strerror(errno));
    if (st == CUEMU_SUCCESS)
      st = translate_pass(job, 1, blank_constexpr(job, 1, texts[1], sizes[1]),
                          sizes[1], NULL, 0, &rws[1]);
  }
  /* Lambdas that one pass alone compiles: the other makes them up, and is
   * translated again (cuemu_lambda_passes.c). */
  if (st == CUEMU_SUCCESS && count == 2 && !strstr(job->compiler, "clang")) {
    cuemu_lambda_pad *pads[2];
    int npads[2];
    st = cuemu__lambda_pads(&rws[0], &rws[1], &pads[0], &npads[0], &pads[1],
                            &npads[1]);
    if (st != CUEMU_SUCCESS)
      st = cuemu__report(st, "no memory");
    for (int p = 0; p < 2 && st == CUEMU_SUCCESS; ++p)
      if (npads[p]) {
        cuemu__rewrite_free(&rws[p]);
        st = translate_pass(job, p, texts[p], sizes[p], pads[p], npads[p],
                            &rws[p]);
      }
    cuemu__lambda_pads_free(pads[0], npads[0]);
    cuemu__lambda_pads_free(pads[1], npads[1]);
  }
  /* The last translation's diagnostics of each pass. */
  for (int p = 0; p < count; ++p)
    print_diagnostics(&rws[p]);
  /* A kernel of the device pass alone: nvcc's host stub refuses it (a
   * kernel template's, where the device pass's object has an instance:
   * below). */
  cuemu_device_template *device_templates = NULL;
  int ndevice_templates = 0;
  if (st == CUEMU_SUCCESS && count == 2 && !o->module)
    st = cuemu__device_only_kernels(&rws[0], &rws[1], job->source,
                                    &device_templates, &ndevice_templates);
  /* What the requested dialect refuses and C++14 takes (cuemu-nvcc's
   * -std=c++11 and c++03 mark the unit's options with the dialect). */
  for (int i = 0; i < o->argc && st == CUEMU_SUCCESS; ++i)
    if (strncmp(o->argv[i], "-D" CUEMU_OLD_DIALECT_MACRO "=",
                sizeof CUEMU_OLD_DIALECT_MACRO + 2) == 0)
      st = cuemu__dialect_check(&rws[count - 1],
                                o->argv[i] + sizeof CUEMU_OLD_DIALECT_MACRO + 2);
  /* Name expressions that use the source's macros, expanded (the first
   * pass's unit has the kernel table). */
  char **name_code = NULL;
  if (st == CUEMU_SUCCESS && o->name_expression_count > 0 &&
      cuemu__name_expressions_use_macros(texts[0], sizes[0],
                                         o->name_expressions,
                                         o->name_expression_count))
    st = expand_name_expressions(job, b, argv[0], max, buffers[0], bufsize,
                                 &name_code);
  for (int p = 0; p < count && st == CUEMU_SUCCESS; ++p) {
    FILE *f = fopen(job->tu[p], "we");
    if (!f) {
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", job->tu[p],
                         strerror(errno));
    } else {
      /* The kernel table is the device pass's (the host pass's launches
       * find its kernels by address). */
      int werr = cuemu__codegen_write_unit(
          f, job->source, &rws[p], o->module, o->module ? NULL : job->key.hex,
          o->arch > 0 ? o->arch : CUEMU_DEFAULT_ARCH, o->cuemu_arch_images,
          pass_of(job, p) == CUEMU_PASS_HOST, o->module ? NULL : o->cuemu_arch_passes,
          o->name_expressions, (const char *const *)name_code,
          o->name_expression_count);
      if (pass_of(job, p) != CUEMU_PASS_HOST)
        werr |= write_checks_record(f, job->checks);
      if (fclose(f) != 0 || werr != 0)
        st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s", job->tu[p]);
    }
  }
  cuemu__name_expressions_free(name_code, o->name_expression_count);
  for (int p = 0; p < 2; ++p) {
    /* The text and its edits stay for the compiler's messages. */
    job->units[p].text = rws[p].text, job->units[p].length = rws[p].length;
    job->units[p].columns = rws[p].columns;
    job->units[p].column_count = rws[p].column_count;
    rws[p].text = NULL, rws[p].columns = NULL;
    cuemu__rewrite_free(&rws[p]);
    job->inputs[p] = texts[p], job->input_sizes[p] = sizes[p];
  }
  for (int p = 0; p < count; ++p) {
    keep_unit(job, p, job->ii[p], 1);
    keep_unit(job, p, job->tu[p], 0);
  }
  if (!getenv("CUEMU_KEEP_TU"))
    for (int p = 0; p < count; ++p)
      unlink(job->ii[p]);
  /* The compiles. */
  if (st == CUEMU_SUCCESS && count == 1) {
    job->pass = CUEMU_PASS_SINGLE;
    if (job->checks || o->module) {
      /* A module's prelude is precompiled as a program's passes' are:
       * Python's kernels and NVRTC's programs are many small units of
       * one set of flags. */
      job->pch = use_pch(job, 0, b->temp, pch[0], trimmed[0], argv[0], max,
                         buffers[0], bufsize)
                     ? pch[0]
                     : NULL;
      build_argv(job, job->pch ? trimmed[0] : job->tu[0], b->depfile,
                 object[0], argv[0], max, buffers[0], bufsize, PHASE_COMPILE);
      job->pch = NULL;
      st = run_module_compile(job, argv[0], b->temp, &job->delay_wanted);
      /* NVRTC's programs are PTX: ptxas sees them when they load. */
      if (st == CUEMU_SUCCESS && (!o->module || o->nvcc_module))
        st = constant_bank(job, object[0]);
      if (st == CUEMU_SUCCESS && o->module) {
        /* A module (NVRTC's, cuModuleLoad's) holds only device code: its
         * malloc, free, new and delete are the device heap's, as the
         * device pass's of a whole program. */
        const char *objcopy[] = {"objcopy", CUEMU_DEVICE_HEAP_RENAMES, NULL};
        st = device_objcopy(job, objcopy, object[0]);
        if (st == CUEMU_SUCCESS)
          st = shared_calls(b, object[0], 0,
                            o->nvcc_module ? job->source : NULL);
      }
      if (st == CUEMU_SUCCESS)
        st = check_entry(job, b);
      if (st == CUEMU_SUCCESS) {
        build_argv(job, object[0], b->depfile, b->built, argv[0], max,
                   buffers[0], bufsize, PHASE_LINK);
        st = run_linker(job, argv[0]);
      }
    } else {
      build_argv(job, job->tu[0], b->depfile, b->built, argv[0], max,
                 buffers[0], bufsize, PHASE_ALL);
      st = run_compiler(job, argv[0]);
    }
  } else if (st == CUEMU_SUCCESS) {
    for (int p = 0; p < 2; ++p) {
      job->pass = pass_of(job, p);
      job->pch = use_pch(job, p, b->temp, pch[p], trimmed[p], argv[p], max,
                         buffers[p], bufsize)
                     ? pch[p]
                     : NULL;
      build_argv(job, job->pch ? trimmed[p] : job->tu[p], b->depfile,
                 object[p], argv[p], max, buffers[p], bufsize, PHASE_COMPILE);
    }
    job->pch = NULL;
    st = run_passes(job, argv, 2, b->temp, &job->delay_wanted,
                    job->constexpr_round < 2 ? &job->constexpr_places : NULL,
                    &job->constexpr_wanted);
    /* The host pass's object has the notes (cuemu_space_notes.c). */
    if (st == CUEMU_SUCCESS)
      st = constant_bank(job, object[1]);
    char strings[PATH_MAX + 96];
    if (st == CUEMU_SUCCESS)
      st = cuemu__device_strings_script(b->temp, strings, sizeof strings);
    /* clang++ describes no external variable, so a debug build's device
     * pass gets the built-in variables' description from g++ (see
     * cuemu_debug_vars.c); without g++ gdb finds them once libcuemu is
     * loaded. */
    char vars[PATH_MAX + 96] = "";
    if (st == CUEMU_SUCCESS && o->debug && strstr(job->compiler, "clang") &&
        cuemu__debug_vars_object(job->shims, job->include, b->temp, vars,
                                 sizeof vars) != CUEMU_SUCCESS)
      vars[0] = '\0';
    if (st == CUEMU_SUCCESS) {
      const char *ld[] = {"ld",    "-r",    object[0],
                          "--force-group-allocation",
                          "-T",    strings, "-o",
                          dev_local, vars[0] ? vars : NULL, NULL};
      st = run_tool(ld, object[0]);
      unlink(strings);
    }
    if (vars[0])
      unlink(vars);
    if (st == CUEMU_SUCCESS)
      st = cuemu__device_template_instances(dev_local, device_templates,
                                            ndevice_templates);
    if (st == CUEMU_SUCCESS)
      st = cuemu__elf_export_instances(dev_local);
    /* With relocatable device code, the __host__ __device__ functions
     * that the pass defines and calls get their device names
     * (NAME.cuemu_device), apart from the host pass's. */
    char renames[PATH_MAX + 96], redefine[PATH_MAX + 128];
    int nrenames = 0;
    if (snprintf(renames, sizeof renames, "%s.renames", b->temp) >=
            (int)sizeof renames ||
        snprintf(job->fallbacks, sizeof job->fallbacks, "%s.fallbacks",
                 b->temp) >= (int)sizeof job->fallbacks)
      st = cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
    job->nfallbacks = 0;
    if (st == CUEMU_SUCCESS && o->rdc)
      st = cuemu__elf_device_fallbacks(dev_local, CUEMU_DEVICE_SUFFIX, NULL,
                                       job->fallbacks, &job->nfallbacks);
    if (st == CUEMU_SUCCESS && o->rdc)
      st = cuemu__elf_variant_renames(dev_local, CUEMU_DEVICE_SUFFIX, renames,
                                      &nrenames, NULL, NULL, NULL, NULL);
    snprintf(redefine, sizeof redefine, "--redefine-syms=%s", renames);
    if (st == CUEMU_SUCCESS) {
      /* Local, but for what the translation made visible; and without
       * initializers: the host pass's run (CUDA allows no dynamic
       * initialization of device variables), and its generated code
       * registers the device pass's kernels. */
      const char *objcopy[] = {"objcopy",      "--localize-hidden",
                               "--wildcard",   "--remove-section=.init_array*",
                               "--remove-section=.ctors*",
                               "--remove-section=.fini_array*",
                               "--remove-section=.dtors*",
                               CUEMU_DEVICE_HEAP_RENAMES,
                               CUEMU_DEVICE_CHECK_RENAMES(
                                   job->checks & ~(unsigned)CUEMU_CHECK_SYNC),
                               nrenames ? redefine : "--wildcard",
                               NULL};
      st = device_objcopy(job, objcopy, dev_local);
    }
    if (nrenames)
      unlink(renames);
    if (st == CUEMU_SUCCESS && !visible_device_entities(o))
      st = cuemu__elf_hide_globals(dev_local);
    if (st == CUEMU_SUCCESS && o->cuemu_arch_passes)
      st = further_passes(job, b, dev_local, argv[0], max, buffers[0],
                          bufsize);
    if (st == CUEMU_SUCCESS && job->nfallbacks)
      st = device_fallbacks(job, b, dev_local);
    if (job->nfallbacks)
      unlink(job->fallbacks);
    /* A variable template's instance is the device pass's object, in both
     * passes (cuemu_variable_template.c). */
    if (st == CUEMU_SUCCESS)
      st = host_shadows(b, object[1]);
    if (st == CUEMU_SUCCESS)
      st = cuemu__elf_weaken_unique(object[1], dev_local);
    /* A host function that the user's visibility("default") kept global in
     * the device pass's object, and a weak copy of default visibility (a
     * template of namespace std, a virtual table), are the host pass's
     * (cuemu_driver.h). */
    char shared[PATH_MAX + 16];
    int nshared = 0;
    if (st == CUEMU_SUCCESS &&
        (size_t)snprintf(shared, sizeof shared, "%s.shared", b->temp) >=
            sizeof shared)
      st = cuemu__report(CUEMU_COMPILE, "%s: path too long", b->temp);
    if (st == CUEMU_SUCCESS)
      st = cuemu__elf_shared_globals(object[1], dev_local, o->rdc, shared,
                                     &nshared);
    if (st == CUEMU_SUCCESS && nshared > 0) {
      char option[PATH_MAX + 48];
      snprintf(option, sizeof option, "--localize-symbols=%s", shared);
      const char *objcopy[] = {"objcopy", option, dev_local, NULL};
      st = run_tool(objcopy, dev_local);
    }
    if (nshared > 0)
      unlink(shared);
    /* After those host functions are local: the summary of relocatable
     * device code names the global functions' references, and nvcc's
     * device link never sees host code (a Python extension's PyInit_NAME
     * and the interpreter's PyExc_TypeError it uses;
     * tests/driver_dlink_undefined.sh). */
    if (st == CUEMU_SUCCESS)
      st = shared_calls(b, dev_local, o->rdc, job->source);
    /* The checkers' entry points that both passes call, in the object too:
     * a plain link of it (the host compiler's, or cuemu-nvcc's without
     * --check) binds its hidden references to them. */
    if (st == CUEMU_SUCCESS)
      st = check_entry(job, b);
    if (st == CUEMU_SUCCESS && o->object) {
      const char *ld[8] = {"ld", "-r", dev_local, object[1]};
      int n = 4;
      if (job->check_entry[0])
        ld[n++] = job->check_entry;
      ld[n++] = "-o";
      ld[n++] = b->built;
      ld[n] = NULL;
      st = run_tool(ld, dev_local);
    } else if (st == CUEMU_SUCCESS) {
      /* The device pass first: where both define a symbol weakly (a
       * kernel template's instance), the device pass's is linked. */
      job->link_second = object[1];
      job->pass = CUEMU_PASS_HOST;
      build_argv(job, dev_local, b->depfile, b->built, argv[0], max,
                 buffers[0], bufsize, PHASE_LINK);
      job->link_second = NULL;
      st = run_linker(job, argv[0]);
    }
  }
  for (int p = 0; p < 2; ++p) {
    unlink(object[p]);
    if (pch[p][0])
      cuemu__pch_remove(pch[p], trimmed[p], getenv("CUEMU_KEEP_TU") != NULL);
    if (!getenv("CUEMU_KEEP_TU"))
      unlink(job->tu[p]);
    free(argv[p]);
    free(buffers[p]);
    cuemu__rewrite_free(&job->units[p]);
    free(job->inputs[p]);
    job->inputs[p] = NULL;
  }
  cuemu__device_templates_free(device_templates, ndevice_templates);
  unlink(dev_local);
  if (job->check_entry[0])
    unlink(job->check_entry);
  return st;
}

/* Builds `job`'s unit for the cache's `b`. A unit whose device pass
 * alone fails, on names undeclared in templates that nvcc's device pass
 * does not parse while nothing instantiates them, is built again with that
 * pass's templates parsed where they are instantiated: by clang++, in g++'s
 * place where g++ was the compiler (cuemu_undeclared_names.c; test:
 * tests/programs/dialect/device_template_undeclared.cu). */
static cuemu_status build_delayed(compile_job *job, cuemu_cache_build *b) {
  job->delay_wanted = 0;
  cuemu_status st = build_once(job, b);
  if (st != CUEMU_COMPILE || !job->delay_wanted)
    return st;
  char found[PATH_MAX];
  if (!strstr(job->compiler, "clang")) {
    if (cuemu_command_find("clang++", found, sizeof found) != CUEMU_SUCCESS)
      return st;
    use_clang(job, found);
  }
  job->delay_templates = 1;
  st = build_once(job, b);
  if (st == CUEMU_SUCCESS)
    cuemu__driver_say("note",
                      "%s: names undeclared in templates that only the device "
                      "pass sees, which nvcc's device pass takes while nothing "
                      "instantiates them; compiled again by clang++ with "
                      "-fdelayed-template-parsing in the device pass",
                      job->given);
  else
    cuemu__driver_say("note",
                      "%s: g++ refused names undeclared in code that only the "
                      "device pass sees, and clang++ with "
                      "-fdelayed-template-parsing (nvcc's device pass takes "
                      "them in templates that nothing instantiates) refused "
                      "them too (its messages are above)",
                      job->given);
  return st;
}

/* Builds `data`'s unit for the cache's `b` (build_delayed()). A unit that
 * clang++ refuses for local variables of non-literal type in constexpr
 * templates, which nvcc takes, is built again with `constexpr` blanked out
 * of those templates (cuemu_constexpr_locals.c; test:
 * tests/programs/dialect/constexpr_nonliteral_local.cu). */
static cuemu_status build(void *data, cuemu_cache_build *b) {
  compile_job *job = data;
  job->constexpr_wanted = 0;
  cuemu_status st = build_delayed(job, b);
  /* A second round blanks the constexpr declarations before the
   * out-of-class definitions blanked in the first. */
  while (st == CUEMU_COMPILE && job->constexpr_wanted &&
         job->constexpr_round < 2) {
    job->constexpr_round++;
    job->constexpr_wanted = 0;
    st = build_delayed(job, b);
  }
  if (job->constexpr_round)
    cuemu__driver_say(
        "note",
        st == CUEMU_SUCCESS
            ? "%s: clang++ refused a local variable of non-literal type in a "
              "constexpr template, which nvcc takes; compiled again without "
              "`constexpr` on that template"
            : "%s: clang++ refused a local variable of non-literal type in a "
              "constexpr template, which nvcc takes (it is then no constant "
              "expression); compiled again without `constexpr` on that "
              "template, the unit is refused (the messages are above)",
        job->given);
  job->constexpr_round = 0;
  cuemu__constexpr_places_free(&job->constexpr_places);
  for (int p = 0; p < 2; ++p) {
    free(job->blanked[p]);
    job->blanked[p] = NULL;
    job->nblanked[p] = 0;
  }
  return st;
}

/* __FILE__ as nvcc gives it. The passes preprocess the source by its
 * absolute path (line markers, the cache and the rewriter name it so), but
 * nvcc hands the host compiler the source as its command line spells it:
 * __FILE__ is "apps/main.cu", and a header beside it included with quotes
 * "apps/local.cuh". A relative `given` maps the source's folder back to its
 * spelling in __FILE__ and __builtin_FILE() alone (GCC 8 and Clang 10's
 * -fmacro-prefix-map), in the preprocessing command, which the cache key
 * holds (tests/driver_file_macro.sh). */
static void set_file_map(compile_job *job, const char *given) {
  job->file_map[0] = '\0';
  const char *slash = strrchr(given, '/');
  int dir_len = slash ? (int)(slash - given) + 1 : 0;
  if (given[0] == '/' || strchr(job->source_dir, '=') ||
      memchr(given, '=', (size_t)dir_len))
    return;
  const char *sep = strcmp(job->source_dir, "/") == 0 ? "" : "/";
  if (snprintf(job->file_map, sizeof job->file_map,
               "-fmacro-prefix-map=%s%s=%.*s", job->source_dir, sep, dir_len,
               given) >= (int)sizeof job->file_map)
    job->file_map[0] = '\0';
  snprintf(job->given_dir, sizeof job->given_dir, "%.*s", dir_len, given);
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
  snprintf(job.given, sizeof job.given, "%s", source);
  set_file_map(&job, source);
  const char *cxx = options->cxx;
  if (!cxx || !*cxx)
    cxx = getenv("CXX");
  if (!cxx || !*cxx)
    cxx = "c++";
  job.default_compiler = strcmp(cxx, "c++") == 0;
  job.cxx_copy = strdup(cxx);
  if (!job.cxx_copy)
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
  job.cxx_count = split_words(job.cxx_copy, job.cxx_words, MAX_CXX_WORDS);
  job.gnu_chosen = !job.default_compiler &&
                   gnu_compiler_named(job.cxx_words, job.cxx_count);
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
  cuemu_status kept = keep_dir_check(&job);
  if (kept != CUEMU_SUCCESS) {
    free(job.cxx_copy);
    return kept;
  }
  /* __CUDA_ARCH__ of the device pass (a module's only pass). */
  snprintf(job.arch_macro, sizeof job.arch_macro, "-D__CUDA_ARCH__=%d",
             options->arch > 0 ? options->arch : CUEMU_DEFAULT_ARCH);
  cuemu__gpu_arch_macros(options->arch > 0 ? options->arch : CUEMU_DEFAULT_ARCH,
                         options->arch_suffix, job.arch_features);
  job.contract = fp_contraction(options->fmad);
  job.shims = cuemu__location_shims();
  job.include = cuemu__location_include();
  job.libdir = cuemu__location_lib();
  cuemu__gcc_plugin(job.compiler, job.libdir, job.gcc_plugin,
                    sizeof job.gcc_plugin);
  cuemu__llvm_plugin(job.compiler, job.libdir, job.llvm_plugin,
                     sizeof job.llvm_plugin);
  cuemu__clang_plugin(job.compiler, job.libdir, job.clang_plugin,
                      sizeof job.clang_plugin);
  /* CCCL's headers, unless the options name them already (cuemu-cc's
   * --cuda-path, or the user's -isystem TOOLKIT/include/cccl). */
  if (names_cccl(options))
    job.cccl_source = CUEMU_CCCL_TOOLKIT;
  else
    job.cccl_source = cuemu__cccl_headers(NULL, job.cccl, sizeof job.cccl);
  /* The rest of the toolkit's headers, as nvcc has them (not in NVRTC's
   * modules: NVRTC searches only the folders it is given). */
  if ((!options->module || options->nvcc_module) &&
      !cuemu__toolkit_include(NULL, options->argc, options->argv, job.toolkit,
                              sizeof job.toolkit))
    job.toolkit[0] = '\0';

  size_t size = 0;
  char *text = cuemu__read_file(job.source, &size);
  if (!text) {
    free(job.cxx_copy);
    return cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s", source,
                         strerror(errno));
  }
  job.text = text;
  job.size = size;
  /* Where quoted includes are searched, in order: the source's folder
   * (-iquote), the user's -iquote folders, then the -I folders. */
  job.search = calloc((size_t)options->argc + 6, sizeof *job.search);
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
  /* Then the folders cuemu adds (build_argv()): the shims and cuemu's
   * headers, CCCL's and the toolkit's, so that a header found in one of
   * them and one that would now shadow it in an earlier one (a new shim in
   * front of the toolkit's header) are in the cache's shadowing lines. */
  const char *added[] = {job.shims, job.include, job.cccl, job.toolkit};
  for (size_t i = 0; i < sizeof added / sizeof *added; ++i)
    if (added[i] && added[i][0])
      job.search[nsearch++] = added[i];
  const char *no_cache = getenv("CUEMU_NO_CACHE");
  /* The object of a build that records coverage names its files by the
   * object's path, which the key does not cover. */
  set_profile_names(&job, output);
  int use_cache =
      !options->no_cache && !job.profile_dir[0] &&
      !cuemu__links_other_files(options->argv, options->argc) &&
      !(no_cache && strcmp(no_cache, "1") == 0);
  job.use_cache = use_cache;
  /* Precompiled and preprocessed preludes are cache entries; CUEMU_NO_PCH=1
   * turns them off (as CUEMU_NO_CACHE=1 does the cache). */
  /* CUEMU_DEVICE_HOST_CODE=1: the device pass compiles all the unit's host
   * code, as before the plugin's drop-host-code (bench/run_bench.sh). */
  const char *host_code = getenv("CUEMU_DEVICE_HOST_CODE");
  job.device_host_code = host_code && strcmp(host_code, "1") == 0;
  const char *no_pch = getenv("CUEMU_NO_PCH");
  job.use_pch = use_cache && !(no_pch && strcmp(no_pch, "1") == 0);
  cuemu_status st = hash_job(&job);
  if (st == CUEMU_SUCCESS)
    st = cuemu_cache_get(&job.key, output, use_cache, build, &job, cache_hit);
  free(text);
  free(job.search);
  free(job.quote_dirs);
  free(job.cxx_copy);
  return st;
}

