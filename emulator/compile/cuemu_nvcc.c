/*
 * cuemu_nvcc.c: nvcc's command line, cuemu_compile_command() (the cuemu-cc
 * and cuemu-nvcc commands).
 *
 * The words are read as nvcc reads them (`-opt value`, `-opt=value`,
 * `--long-name=value`, `-Ipath`, `-lname`, options files), then the phases
 * run as nvcc runs them: each .cu file is compiled by cuemu_compile() (the
 * translation and the cache), each .cpp/.cc/.cxx file by the host C++
 * compiler and each .c file by the host C compiler, with the shims on the
 * include path as nvcc puts the toolkit's headers there; then the objects
 * and the .o/.a/.so inputs are linked with libcuemu (or archived: -lib). A
 * whole program of one .cu file is one cached compile (one that links
 * libraries: a cached object, linked every time). Unknown options are
 * an error worded as nvcc's, unless -forward-unknown-to-host-compiler says
 * to pass them on.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_cache.h>
#include <cuemu/cuemu_driver_api.h>

#include "base/cuemu_locations.h"
#include "base/cuemu_report.h"
#include "check/cuemu_check.h"
#include "device/cuemu_fat_module.h"
#include "device/cuemu_module_binding.h"
#include "runtime/cuemu_module_text.h"
#include "cuemu_debug_line.h"
#include "cuemu_driver.h"
#include "cuemu_gpu_arch.h"
#include "cuemu_toolkit.h"

/* IN_EXEC: a file of no known kind, which only -run takes (an executable,
 * run without compiling, as nvcc -run runs one). */
enum input_kind { IN_CU, IN_CXX, IN_C, IN_LINK, IN_EXEC };

/* What a dialect older than C++14 (compiled as C++14) adds to the host
 * options: a shim included first. */
#define OLD_DIALECT_HEADER CUEMU_OLD_DIALECT_HEADER
static const char *shims_dir(void);

typedef struct input {
  const char *path;
  enum input_kind kind;
} input;

/* What the command asks for. */
enum mode {
  MODE_LINK,      /* compile and link (the default) */
  MODE_COMPILE,   /* -c, -dc, -dw: objects */
  MODE_DLINK,     /* -dlink: the device link object */
  MODE_LIB,       /* -lib: a static library */
  MODE_RLINK,     /* -r: one relocatable object of all the inputs */
  MODE_DEPS,      /* -M, -MM: the dependencies only */
  MODE_PREPROCESS, /* -E */
  MODE_CUDA        /* -cuda: each .cu file's host pass, preprocessed */
};

/* A growable list of words; the words are owned by the command's string
 * pool (or are argv's). */
typedef struct words {
  const char **v;
  int n, cap;
  int oom;         /* a word could not be added */
} words;

typedef struct command {
  words host;      /* options of every host compile (-I, -D, -std, -O, -Xcompiler) */
  words cu;        /* options of .cu compiles only (cuemu-cc's own) */
  words link;      /* link options (-L, -l, -Xlinker) */
  /* The libraries of the toolkit that cuemu does not emulate, as given
   * (-lcusolverMg, a path to libnvblas.so), left out of the link: a
   * program that names one without using it links, as with nvcc; if the
   * link fails, a note names them (say_unemulated()). */
  words unemulated;
  words names;     /* --name-expr */
  words run_args;  /* --run-args: the arguments of the program that -run runs */
  int run;         /* -run: run the program built (or the executable given) */
  int fmad;        /* -fmad: 1 true, 0 false, -1 not given */
  int fast_math;   /* --use_fast_math */
  input *inputs;
  int ninputs;
  const char *output;
  const char *odir;    /* -odir: the folder of default output names */
  const char *time_file; /* -time: the CSV table of phase times ("-": stdout) */
  char *stdin_copy;      /* the file of a .cu input read from "-" (stdin_input()) */
  words time_rows;       /* its rows, made as the phases end */
  enum mode mode;
  int rdc, shared, module, debug, verbose, dryrun, no_cache, version, help;
  int list_gpu;     /* --list-gpu-arch and --list-gpu-code (CUEMU_GPU_LIST_*) */
  /* -forward-unknown-to-host-compiler, -forward-unknown-to-host-linker,
   * -forward-unknown-opts (both): where an unknown option goes, as nvcc
   * gives it: to the host compiles, and to the link as -Xlinker OPTION. */
  int forward_unknown, forward_unknown_linker;
  int md, mm, mp;
  int keep;             /* --keep: each pass's units are kept (cuemu_keep_dir) */
  const char *cuemu_keep_dir; /* --keep-dir: where (default: the current folder) */
  int resource_usage;   /* --resource-usage: each kernel's resources */
  int reporting;        /* the compile of the module it reads is running */
  int device_debug, extended_lambda, relaxed_constexpr; /* -G, the --expt-* */
  int host_level;    /* the last -O of the host options is nvcc's -O */
  const char *nvcc_level; /* nvcc's last -O if -O1 or more, else NULL */
  int lineinfo;      /* -lineinfo */
  int werror_all;    /* -Werror all-warnings: nvcc's own warnings are errors */
  int clean;         /* -clean: delete what the command would make */
  int no_warnings;   /* -w */
  /* nvcc's numbered warnings that cuemu gives, as bits: #20037-D (1),
   * #20039-D (2), #20040-D (4), #20036-D (8), #117-D (16), #20091-D (32),
   * #20092-D (64), #20012-D (128) (diag_bits). -diag-suppress wins over the
   * others, -diag-warn over -diag-error, whatever their order, as nvcc. */
  int suppressed;    /* -diag-suppress */
  int diag_warned;   /* -diag-warn */
  int diag_errors;   /* -diag-error */
  int ptxas_no_warnings; /* -Xptxas -w */
  int warn_stream, warn_bounds; /* -Wdefault-stream-launch (1),
                      * -Werror=default-stream-launch (2); the same for
                      * missing-launch-bounds */
  const char *checks, *cxx, *ccbin, *mf, *mt, *std, *cuda_path;
  const char *arbin; /* -arbin: the archiver of -lib (else $AR, ar) */
  const char *module_suffix; /* -ptx, -cubin, -fatbin: the default suffix */
  int arch;        /* __CUDA_ARCH__ of the device pass (0: the default) */
  const char *arch_name;        /* the last -arch's value */
  int arch_value;               /* its compute capability times ten */
  int arch_unsupported;         /* arch_name names no architecture: nvcc's
                                 * error, after the command line */
  cuemu_gpu_arch_set arch_set;  /* what it compiles for */
  cuemu_gpu_arch_set gencode_set; /* the arch= of every -gencode */
  int gencode_value;            /* the highest of those */
  char arch_suffix;             /* the -arch value's 'a' or 'f', or 0 */
  char gencode_suffix;          /* that of gencode_value's name */
  char suffix;                  /* that of `arch` (arch_targets) */
  int code_given;               /* -code */
  /* The images of the build in nvcc's names, comma-separated: "sm_80"
   * (a cubin) or "compute_80" (PTX), for -code's values, every -gencode's
   * code= values, and (arch_targets) all of them, which decide the devices
   * that run its kernels (cuemu_program_register_target()). */
  char code_images[512], gencode_images[512], images[1024];
  /* The virtual architectures that -gencode's arch= name, each with the
   * images of its code= values (arch_targets: also -arch's), for one
   * device pass each; ngroups -1: not known (-arch=all), one pass. */
  struct arch_group {
    int value;
    char suffix;
    char images[256];
  } groups[16];
  int ngroups;
  char passes[1024];            /* the further passes (arch_targets) */
  const char *arch_list;        /* -D__CUDA_ARCH_LIST__=... (arch_targets) */
  int forced;      /* -x: the kind of every input, or -1 */
  words pre;       /* nvcc's own -include options (--pre-include) */
  int runtime_at;  /* the place in `host` of the first of them, before
                    * which cuda_runtime.h is force-included: nvcc reads
                    * the headers of -Xcompiler -include before it, its
                    * own after it (place_pre_includes()) */
  int shims_searched; /* `host` names the shims' folder with -I */
  const char *old_dialect; /* -std=c++11 or c++03, compiled as C++14 */
  char **pool;     /* strings made while parsing */
  int npool, pool_cap;
} command;

static cuemu_status oom(void) {
  return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
}

static cuemu_status add(words *w, const char *s) {
  if (!s)
    w->oom = 1;
  if (w->oom)
    return oom();
  if (w->n + 2 > w->cap) {
    int cap = w->cap ? w->cap * 2 : 16;
    const char **grown = realloc(w->v, (size_t)cap * sizeof *grown);
    if (!grown) {
      w->oom = 1;
      return oom();
    }
    w->v = grown;
    w->cap = cap;
  }
  w->v[w->n++] = s;
  w->v[w->n] = NULL;
  return CUEMU_SUCCESS;
}

/* Puts `s` first in `w`. */
static cuemu_status add_first(words *w, const char *s) {
  cuemu_status st = add(w, s);
  if (st != CUEMU_SUCCESS)
    return st;
  memmove(w->v + 1, w->v, (size_t)(w->n - 1) * sizeof *w->v);
  w->v[0] = s;
  return CUEMU_SUCCESS;
}

/* A string owned by the command (freed with it). */
static char *keep(command *c, char *s) {
  if (!s)
    return NULL;
  if (c->npool == c->pool_cap) {
    int cap = c->pool_cap ? c->pool_cap * 2 : 16;
    char **grown = realloc(c->pool, (size_t)cap * sizeof *grown);
    if (!grown) {
      free(s);
      return NULL;
    }
    c->pool = grown;
    c->pool_cap = cap;
  }
  c->pool[c->npool++] = s;
  return s;
}

static char *joined(command *c, const char *a, const char *b) {
  char *s = NULL;
  if (asprintf(&s, "%s%s", a, b) < 0)
    return NULL;
  return keep(c, s);
}

static void command_free(command *c) {
  free(c->time_rows.v);
  free(c->host.v);
  free(c->cu.v);
  free(c->pre.v);
  free(c->link.v);
  free(c->unemulated.v);
  free(c->names.v);
  free(c->run_args.v);
  free(c->inputs);
  for (int i = 0; i < c->npool; ++i)
    free(c->pool[i]);
  free(c->pool);
}

/* ---- Options ------------------------------------------------------------- */

enum opt_id {
  O_OUTPUT, O_ODIR, O_COMPILE, O_DC, O_DW, O_DLINK, O_LIB, O_LINK, O_PREPROCESS, O_CUDA,
  O_DEPS, O_DEPS_NONSYS, O_MD, O_MMD, O_MF, O_MT, O_MP, O_X, O_STD,
  O_INCLUDE_PATH, O_DEFINE, O_UNDEFINE, O_SYSTEM_INCLUDE, O_PRE_INCLUDE,
  O_LIBRARY_PATH, O_LIBRARY, O_XCOMPILER, O_XLINKER, O_XPTXAS, O_XNVLINK,
  O_XFATBIN, O_ARBIN, O_PROFILE, O_LIST_GPU_ARCH, O_LIST_GPU_CODE,
  O_XIGNORED, O_CCBIN, O_OPTIMIZE, O_THREADS, O_DEBUG, O_DEVICE_DEBUG, O_LINEINFO,
  O_FAST_MATH, O_EXPT, O_NO_WARNINGS, O_NVCC_WARNING, O_VERSION, O_VERBOSE,
  O_DRYRUN, O_SHARED, O_ARCH, O_GENCODE, O_CODE, O_RDC, O_FORWARD,
  O_FORWARD_LINKER, O_FORWARD_BOTH, O_KEEP, O_KEEP_DIR, O_RES_USAGE,
  O_IGNORED, O_IGNORED_VALUE, O_TIME, O_DEFAULT_STREAM, O_TEMPLATE_LIMIT, O_OPTIONS_FILE, O_MODULE, O_CHECK, O_CXX,
  O_NO_CACHE, O_NAME_EXPR, O_HELP, O_M64, O_PTX, O_CUBIN, O_FATBIN,
  O_CUDA_PATH, O_DEVICE_VISIBILITY, O_RUN, O_RUN_ARGS, O_FMAD, O_RLINK,
  O_NO_EXCEPTIONS, O_RANDOM_SEED, O_SANITIZE, O_CLEAN, O_DIAG_SUPPRESS,
  O_DIAG_WARN, O_DIAG_ERROR
};

/* The bits of command.suppressed that a -diag-suppress, -diag-warn or
 * -diag-error value names: numbers, comma-separated, of which cuemu gives
 * eight of nvcc's numbered warnings, #20036-D, #20037-D, #20039-D,
 * #20040-D, #117-D, #20091-D, #20092-D and #20012-D. */
static int diag_bits(const char *value) {
  int bits = 0;
  for (const char *p = value; p && *p; p += strcspn(p, ","), p += *p == ',') {
    long number = strtol(p, NULL, 10);
    bits |= number == 20037   ? 1
            : number == 20039 ? 2
            : number == 20040 ? 4
            : number == 20036 ? 8
            : number == 117   ? 16
            : number == 20091 ? 32
            : number == 20092 ? 64
            : number == 20012 ? 128
                              : 0;
  }
  return bits;
}

/* How an option takes a value: none, in the next word or after `=`
 * (VALUE), or also glued to a one-letter name (GLUED: -Ipath, -lm, -O3). */
enum { FLAG, VALUE, GLUED };

typedef struct option {
  const char *short_name, *long_name;
  int takes;
  enum opt_id id;
} option;

static const option options[] = {
    {"-o", "--output-file", VALUE, O_OUTPUT},
    {"-odir", "--output-directory", VALUE, O_ODIR},
    {"-c", "--compile", FLAG, O_COMPILE},
    {"-dc", "--device-c", FLAG, O_DC},
    {"-dw", "--device-w", FLAG, O_DW},
    {"-dlink", "--device-link", FLAG, O_DLINK},
    {"-lib", "--lib", FLAG, O_LIB},
    {"-r", "--relocatable-link", FLAG, O_RLINK},
    {"-link", "--link", FLAG, O_LINK},
    {"-E", "--preprocess", FLAG, O_PREPROCESS},
    /* nvcc's host code after cudafe++, preprocessed (NAME.cu.cpp.ii):
     * nothing reads it, but old Makefiles (Rodinia's nn) ask for it. */
    {"-cuda", "--cuda", FLAG, O_CUDA},
    /* A module for the driver API: a cuemu module under nvcc's name
     * (docs/driver-api.md). */
    {"-ptx", "--ptx", FLAG, O_PTX},
    {"-cubin", "--cubin", FLAG, O_CUBIN},
    {"-fatbin", "--fatbin", FLAG, O_FATBIN},
    {"-M", "--generate-dependencies", FLAG, O_DEPS},
    {"-MM", "--generate-nonsystem-dependencies", FLAG, O_DEPS_NONSYS},
    {"-MD", "--generate-dependencies-with-compile", FLAG, O_MD},
    {"-MMD", "--generate-nonsystem-dependencies-with-compile", FLAG, O_MMD},
    {"-MF", "--dependency-output", VALUE, O_MF},
    {"-MT", "--dependency-target-name", VALUE, O_MT},
    {"-MP", "--generate-dependency-targets", FLAG, O_MP},
    {"-x", "--x", VALUE, O_X},
    {"-std", "--std", VALUE, O_STD},
    {"-I", "--include-path", GLUED, O_INCLUDE_PATH},
    {"-D", "--define-macro", GLUED, O_DEFINE},
    {"-U", "--undefine-macro", GLUED, O_UNDEFINE},
    {"-isystem", "--system-include", VALUE, O_SYSTEM_INCLUDE},
    {"-include", "--pre-include", VALUE, O_PRE_INCLUDE},
    {"-L", "--library-path", GLUED, O_LIBRARY_PATH},
    {"-l", "--library", GLUED, O_LIBRARY},
    {"-Xcompiler", "--compiler-options", VALUE, O_XCOMPILER},
    {"-Xlinker", "--linker-options", VALUE, O_XLINKER},
    {"-Xptxas", "--ptxas-options", VALUE, O_XPTXAS},
    {"-Xnvlink", "--nvlink-options", VALUE, O_XNVLINK},
    {"-Xfatbin", "--fatbin-options", VALUE, O_XFATBIN},
    {"-arch-ls", "--list-gpu-arch", FLAG, O_LIST_GPU_ARCH},
    {"-code-ls", "--list-gpu-code", FLAG, O_LIST_GPU_CODE},
    {"-Xcudafe", "--cudafe-options", VALUE, O_XIGNORED},
    {"-Xarchive", "--archive-options", VALUE, O_XIGNORED},
    {"-ccbin", "--compiler-bindir", VALUE, O_CCBIN},
    {"-O", "--optimize", GLUED, O_OPTIMIZE},
    {"-g", "--debug", FLAG, O_DEBUG},
    {"-G", "--device-debug", FLAG, O_DEVICE_DEBUG},
    {"-lineinfo", "--generate-line-info", FLAG, O_LINEINFO},
    {"-use_fast_math", "--use_fast_math", FLAG, O_FAST_MATH},
    {"-expt-relaxed-constexpr", "--expt-relaxed-constexpr", FLAG, O_EXPT},
    {"-expt-extended-lambda", "--expt-extended-lambda", FLAG, O_EXPT},
    {"-extended-lambda", "--extended-lambda", FLAG, O_EXPT},
    {"-w", "--disable-warnings", FLAG, O_NO_WARNINGS},
    {"-Werror", "--Werror", VALUE, O_NVCC_WARNING},
    {"-Wno-deprecated-gpu-targets", "--Wno-deprecated-gpu-targets", FLAG,
     O_IGNORED},
    {"-Wno-deprecated-declarations", "--Wno-deprecated-declarations", FLAG,
     O_NVCC_WARNING},
    {"-Wreorder", "--Wreorder", FLAG, O_NVCC_WARNING},
    {"-Wdefault-stream-launch", "--Wdefault-stream-launch", FLAG,
     O_NVCC_WARNING},
    {"-Wmissing-launch-bounds", "--Wmissing-launch-bounds", FLAG,
     O_NVCC_WARNING},
    {"-Wext-lambda-captures-this", "--Wext-lambda-captures-this", FLAG,
     O_IGNORED},
    {"-V", "--version", FLAG, O_VERSION},
    {"-v", "--verbose", FLAG, O_VERBOSE},
    {"-run", "--run", FLAG, O_RUN},
    {"-run-args", "--run-args", VALUE, O_RUN_ARGS},
    {"-dryrun", "--dryrun", FLAG, O_DRYRUN},
    {"-shared", "--shared", FLAG, O_SHARED},
    {"-arch", "--gpu-architecture", VALUE, O_ARCH},
    {"-gencode", "--generate-code", VALUE, O_GENCODE},
    {"-code", "--gpu-code", VALUE, O_CODE},
    {"-rdc", "--relocatable-device-code", VALUE, O_RDC},
    {"-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
     FLAG, O_FORWARD},
    {"-forward-unknown-to-host-linker", "--forward-unknown-to-host-linker",
     FLAG, O_FORWARD_LINKER},
    {"-m64", "--m64", FLAG, O_M64},
    {"-m", "--machine", VALUE, O_IGNORED_VALUE},
    {"-keep", "--keep", FLAG, O_KEEP},
    {"-keep-dir", "--keep-dir", VALUE, O_KEEP_DIR},
    {"-save-temps", "--save-temps", FLAG, O_IGNORED},
    {"-res-usage", "--resource-usage", FLAG, O_RES_USAGE},
    {"-maxrregcount", "--maxrregcount", VALUE, O_IGNORED_VALUE},
    {"-t", "--threads", GLUED, O_THREADS},
    {"-split-compile", "--split-compile", VALUE, O_IGNORED_VALUE},
    {"-cudart", "--cudart", VALUE, O_IGNORED_VALUE},
    {"-cudadevrt", "--cudadevrt", VALUE, O_IGNORED_VALUE},
    {"-default-stream", "--default-stream", VALUE, O_DEFAULT_STREAM},
    {"-ftz", "--ftz", VALUE, O_IGNORED_VALUE},
    {"-prec-div", "--prec-div", VALUE, O_IGNORED_VALUE},
    {"-prec-sqrt", "--prec-sqrt", VALUE, O_IGNORED_VALUE},
    {"-fmad", "--fmad", VALUE, O_FMAD},
    {"-extra-device-vectorization", "--extra-device-vectorization", FLAG,
     O_IGNORED},
    {"-lto", "--lto", FLAG, O_IGNORED},
    {"-dlto", "--dlto", FLAG, O_IGNORED},
    {"-time", "--time", VALUE, O_TIME},
    {"-fdevice-time-trace", "--fdevice-time-trace", VALUE, O_IGNORED_VALUE},
    {"-fdevice-syntax-only", "--fdevice-syntax-only", FLAG, O_IGNORED},
    {"-diag-suppress", "--diag-suppress", VALUE, O_DIAG_SUPPRESS},
    {"-diag-warn", "--diag-warn", VALUE, O_DIAG_WARN},
    {"-diag-error", "--diag-error", VALUE, O_DIAG_ERROR},
    {"-err-no", "--display-error-number", FLAG, O_IGNORED},
    {"-no-compress", "--no-compress", FLAG, O_IGNORED},
    {"-compress-mode", "--compress-mode", VALUE, O_IGNORED_VALUE},
    /* More of nvcc 13's options that Makefiles and build systems pass:
     * device code generation and the profile nvcc reads change nothing
     * here; -arbin is the archiver of -lib; -pg is the host's gprof. */
    {"-ldir", "--libdevice-directory", VALUE, O_IGNORED_VALUE},
    {"-jtd", "--jump-table-density", VALUE, O_IGNORED_VALUE},
    {"-e", "--entries", VALUE, O_IGNORED_VALUE},
    {"-noprof", "--dont-use-profile", FLAG, O_IGNORED},
    {"-use-local-env", "--use-local-env", FLAG, O_IGNORED},
    {"-forward-unknown-opts", "--forward-unknown-opts", FLAG, O_FORWARD_BOTH},
    {"-arbin", "--archiver-binary", VALUE, O_ARBIN},
    {"-pg", "--profile", FLAG, O_PROFILE},
    /* Visibility of kernels and device variables in the object: hidden
     * by default, as nvcc's (since CUDA 12.8), so that an application
     * cannot name those of a shared library; `false` exports them
     * (cuemu_compile.c). */
    {"-device-entity-has-hidden-visibility",
     "--device-entity-has-hidden-visibility", VALUE, O_DEVICE_VISIBILITY},
    {"-static-global-template-stub", "--static-global-template-stub", VALUE,
     O_IGNORED_VALUE},
    {"-allow-unsupported-compiler", "--allow-unsupported-compiler", FLAG,
     O_IGNORED},
    {"-dopt", "--dopt", VALUE, O_IGNORED_VALUE},
    {"-split-compile-extended", "--split-compile-extended", VALUE,
     O_IGNORED_VALUE},
    {"-no-err-no", "--no-display-error-number", FLAG, O_IGNORED},
    {"-brief-diag", "--brief-diagnostics", VALUE, O_IGNORED_VALUE},
    {"-device-stack-protector", "--device-stack-protector", VALUE,
     O_IGNORED_VALUE},
    {"-opt-info", "--optimization-info", VALUE, O_IGNORED_VALUE},
    {"-gen-opt-lto", "--gen-opt-lto", FLAG, O_IGNORED},
    {"-jobserver", "--jobserver", FLAG, O_IGNORED},
    {"-nodlink", "--no-device-link", FLAG, O_IGNORED},
    /* The linker scripts nvcc writes for large relocatable device code;
     * the host linker links cuemu's objects as they are. */
    {"-hls", "--host-linker-script", VALUE, O_IGNORED_VALUE},
    {"-aug-hls", "--augment-host-linker-script", FLAG, O_IGNORED},
    {NULL, "--no-align-double", FLAG, O_IGNORED},
    /* nvcc gives these two to the host compiler, both passes. */
    {"-noeh", "--no-exceptions", FLAG, O_NO_EXCEPTIONS},
    {"-frandom-seed", "--frandom-seed", VALUE, O_RANDOM_SEED},
    /* nvcc's instrumentation for a compute-sanitizer tool: cuemu's
     * checker of that kind, built in (docs/checkers.md). */
    {"-sanitize", "--sanitize", VALUE, O_SANITIZE},
    {"-clean", "--clean-targets", FLAG, O_CLEAN},
    {NULL, "--dlink-time-opt", FLAG, O_IGNORED},
    {"-nohdinitlist", "--no-host-device-initializer-list", FLAG, O_IGNORED},
    {"-nohdmoveforward", "--no-host-device-move-forward", FLAG, O_IGNORED},
    {"-keep-device-functions", "--keep-device-functions", FLAG, O_IGNORED},
    {"-src-in-ptx", "--source-in-ptx", FLAG, O_IGNORED},
    {"-restrict", "--restrict", FLAG, O_IGNORED},
    {"-ewp", "--extensible-whole-program", FLAG, O_IGNORED},
    {"-objtemp", "--objdir-as-tempdir", FLAG, O_IGNORED},
    {"-ftemplate-backtrace-limit", "--ftemplate-backtrace-limit", VALUE,
     O_TEMPLATE_LIMIT},
    {"-ftemplate-depth", "--ftemplate-depth", VALUE, O_TEMPLATE_LIMIT},
    {"-optf", "--options-file", VALUE, O_OPTIONS_FILE},
    {"-h", "--help", FLAG, O_HELP},
    /* cuemu's own. */
    {NULL, "--module", FLAG, O_MODULE},
    {NULL, "--check", VALUE, O_CHECK},
    {NULL, "--cxx", VALUE, O_CXX},
    {NULL, "--no-cache", FLAG, O_NO_CACHE},
    {NULL, "--name-expr", VALUE, O_NAME_EXPR},
    {NULL, "--cuda-path", VALUE, O_CUDA_PATH},
};

#define NOPTIONS ((int)(sizeof options / sizeof options[0]))

/* A count that option `o` takes (-O3, -t 4), as nvcc reads it: a whole
 * number in C's notation (0x3 is 3), not negative; in `*count`. */
static cuemu_status read_count(const option *o, const char *value,
                               long long *count) {
  char *end;
  errno = 0;
  long long n = strtoll(value, &end, 0);
  if (end == value || *end != '\0' || errno)
    return cuemu__report(CUEMU_INVALID_VALUE, "'%s': expected a number",
                         value);
  if (n < 0)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "Argument for %s (%s) must be non-negative",
                         o->long_name, o->short_name);
  *count = n;
  return CUEMU_SUCCESS;
}

/* Finds the option spelled by word `a`: exactly, with `=value`, or (GLUED
 * options) with the value glued on. *value gets the value when it is in
 * the word. */
static const option *find_option(const char *a, const char **value) {
  *value = NULL;
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < NOPTIONS; ++i) {
      const option *o = &options[i];
      const char *names[2] = {o->short_name, o->long_name};
      for (int k = 0; k < 2; ++k) {
        const char *name = names[k];
        if (!name)
          continue;
        size_t n = strlen(name);
        if (strncmp(a, name, n) != 0)
          continue;
        if (pass == 0 && a[n] == '\0')
          return o;
        if (pass == 0 && a[n] == '=' && o->takes != FLAG) {
          *value = a + n + 1;
          return o;
        }
        if (pass == 1 && o->takes == GLUED && k == 0 && a[n] != '\0') {
          *value = a + n;
          return o;
        }
      }
    }
  }
  return NULL;
}

/* The kind of an input file, from its name (nvcc's suffixes). */
/* nvcc's -time FILE: a comma-separated table of the time each phase
 * took, appended to FILE (its column headings first when FILE is empty or
 * new; "-": the standard output). cuemu's phases are its compile of each
 * input (a .cu file's translation and two passes in one row) and the
 * link; the last row is the driver's own time, as nvcc's. */
static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void time_row(command *c, const char *source, const char *phase,
                     const char *inputs, const char *output, const char *arch,
                     double ms) {
  char *row = NULL;
  if (!c->time_file)
    return;
  if (asprintf(&row, "%s , %s , %s  , %s , %s , nvcc , %.4f , ms",
               source ? source : "", phase, inputs ? inputs : "",
               output ? output : "", arch ? arch : "", ms) < 0)
    row = NULL;
  add(&c->time_rows, keep(c, row));
}

static cuemu_status write_time_table(command *c, double driver_ms) {
  time_row(c, NULL, "nvcc (driver)", NULL,
           c->output ? c->output : "", NULL, driver_ms);
  if (c->time_rows.oom)
    return oom();
  int to_stdout = strcmp(c->time_file, "-") == 0;
  FILE *f = to_stdout ? stdout : fopen(c->time_file, "ae");
  if (!f)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", c->time_file,
                         strerror(errno));
  struct stat st;
  if (to_stdout || (fstat(fileno(f), &st) == 0 && st.st_size == 0))
    fputs("source file name , phase name , phase input files , phase output "
          "file , arch , tool, metric , unit\n",
          f);
  for (int i = 0; i < c->time_rows.n; ++i)
    fprintf(f, "%s\n", c->time_rows.v[i]);
  if (to_stdout ? fflush(f) != 0 : fclose(f) != 0)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", c->time_file);
  return CUEMU_SUCCESS;
}

/* The -time table's name of the device pass's architecture. */
static const char *time_arch(command *c) {
  char *s = NULL;
  if (asprintf(&s, "compute_%d", (c->arch ? c->arch : 900) / 10) < 0)
    s = NULL;
  return keep(c, s);
}

static int input_kind(const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash))
    return -1;
  static const char *const cxx[] = {".cpp", ".cc", ".cxx", ".C", ".c++",
                                    ".cp", ".CPP", NULL};
  if (strcmp(dot, ".cu") == 0)
    return IN_CU;
  for (int i = 0; cxx[i]; ++i)
    if (strcmp(dot, cxx[i]) == 0)
      return IN_CXX;
  if (strcmp(dot, ".c") == 0)
    return IN_C;
  if (strcmp(dot, ".o") == 0 || strcmp(dot, ".a") == 0 ||
      strcmp(dot, ".so") == 0 || strcmp(dot, ".obj") == 0 ||
      strcmp(dot, ".lib") == 0 || strstr(path, ".so."))
    return IN_LINK;
  return -1;
}

/* Appends to the comma-separated list `list` (of `cap` bytes) the image
 * that the code name `name` (`n` bytes: "sm_90a", "compute_80") makes,
 * unless it holds it already. An lto_ name makes none that a device runs
 * (it needs a device link), nor does a name CUDA 13 does not know. */
static void add_image(char *list, size_t cap, const char *name, size_t n) {
  const int value = cuemu__gpu_arch_value(name, n);
  const char suffix = cuemu__gpu_arch_suffix(name, n);
  const char *kind = strncmp(name, "sm_", 3) == 0        ? "sm"
                     : strncmp(name, "compute_", 8) == 0 ? "compute"
                                                         : NULL;
  if (!value || !kind)
    return;
  char image[32];
  snprintf(image, sizeof image, "%s_%d%.1s", kind, value / 10, &suffix);
  const size_t len = strlen(image), used = strlen(list);
  for (const char *p = list; (p = strstr(p, image)) != NULL; p += len)
    if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
      return;
  if (used + len + 2 <= cap)
    snprintf(list + used, cap - used, "%s%s", used ? "," : "", image);
}

/* The group of the virtual architecture `value` (with `suffix`), made
 * when there is none; NULL when there are too many. */
static struct arch_group *arch_group(command *c, int value, char suffix) {
  if (c->ngroups < 0)
    return NULL;
  for (int i = 0; i < c->ngroups; ++i)
    if (c->groups[i].value == value && c->groups[i].suffix == suffix)
      return &c->groups[i];
  if (c->ngroups == (int)(sizeof c->groups / sizeof c->groups[0])) {
    c->ngroups = -1;
    return NULL;
  }
  struct arch_group *g = &c->groups[c->ngroups++];
  memset(g, 0, sizeof *g);
  g->value = value;
  g->suffix = suffix;
  return g;
}

/* Reads an -arch, -code or -gencode value into the command's targets,
 * after checking every architecture name as nvcc does. An -arch value is
 * one name (or "all", "all-major", "native"), and the last -arch counts,
 * as with nvcc; -code takes a list ("sm_90,compute_90") of the codes made
 * from -arch's virtual architecture; -gencode
 * "arch=compute_90,code=[sm_90,compute_90]" (or code="sm_90,compute_90"),
 * of which the arch= part is a virtual architecture compiled for. */
static cuemu_status arch_option(command *c, int option, const char *v) {
  if (option == O_ARCH) {
    int number = 0;
    cuemu_gpu_arch_set set;
    if (strcmp(v, "all") == 0 || strcmp(v, "all-major") == 0) {
      set = cuemu__gpu_arch_all(v[3] == '-');
    } else if (strcmp(v, "native") == 0) {
      /* The GPU of this machine: the emulated device's. */
      set = cuemu__gpu_arch_one(CUEMU_DEFAULT_ARCH);
    } else {
      /* nvcc checks the value after the command line, and only the last
       * -arch's: a Makefile's default -arch=sm_35 followed by the user's
       * -arch=sm_90 builds (arch_targets reports an unsupported one). */
      number = cuemu__gpu_arch_value(v, strlen(v));
      set = number ? cuemu__gpu_arch_one(number) : 0;
    }
    if (c->arch_name && strcmp(c->arch_name, v) != 0)
      cuemu__driver_say("warning",
                        "incompatible redefinition for option "
                        "'gpu-architecture', the last value of this option "
                        "was used");
    c->arch_name = v;
    c->arch_value = number;
    c->arch_unsupported = !number && !set;
    c->arch_suffix = number ? cuemu__gpu_arch_suffix(v, strlen(v)) : 0;
    c->arch_set = set;
    return CUEMU_SUCCESS;
  }
  if (option == O_CODE) {
    c->code_given = 1;
    c->code_images[0] = '\0'; /* the last -code counts */
  }
  /* nvcc also takes a -gencode keyword's list in double quotes
   * (code=\"sm_90,compute_90\" in a Makefile, as the CUDA samples' older
   * Makefiles write it), but not a quoted -code value. */
  const char *separators = option == O_GENCODE ? ",[]=\"" : ",[]=";
  int in_arch = 0;
  struct arch_group *group = NULL;
  for (const char *p = v; *p;) {
    const size_t n = strcspn(p, separators);
    if (n == 4 && strncmp(p, "arch", 4) == 0 && p[n] == '=') {
      in_arch = 1;
    } else if (n == 4 && strncmp(p, "code", 4) == 0 && p[n] == '=') {
      in_arch = 0;
    } else if (n > 0) {
      const int value = cuemu__gpu_arch_value(p, n);
      /* A -code value is checked as the option's, at once (before an
       * unsupported -arch, whatever their order), with nvcc's words. */
      if (!value && option == O_CODE)
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "Value '%.*s' is not defined for option "
                             "'gpu-code'",
                             (int)n, p);
      if (!value)
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "Unsupported gpu architecture '%.*s'", (int)n, p);
      if (!in_arch)
        add_image(option == O_CODE ? c->code_images : c->gencode_images,
                  sizeof c->code_images, p, n);
      if (!in_arch && option == O_GENCODE && group)
        add_image(group->images, sizeof group->images, p, n);
      if (in_arch && option == O_GENCODE)
        group = arch_group(c, value, cuemu__gpu_arch_suffix(p, n));
      if (option == O_GENCODE && in_arch) {
        c->gencode_set |= cuemu__gpu_arch_one(value);
        const char suffix = cuemu__gpu_arch_suffix(p, n);
        if (value > c->gencode_value ||
            (value == c->gencode_value && suffix))
          c->gencode_suffix = suffix;
        if (value > c->gencode_value)
          c->gencode_value = value;
      }
    }
    p += n + (p[n] ? 1 : 0);
  }
  return CUEMU_SUCCESS;
}

/* After the command line: checks -code against -arch as nvcc does, and
 * sets the device pass's __CUDA_ARCH__ (c->arch: the highest architecture
 * named by -arch or a -gencode's arch=, or the emulated device's for
 * -arch=all, all-major and native, and without either) and the value of
 * __CUDA_ARCH_LIST__, nvcc's list of every virtual architecture compiled
 * for (the emulated device's without -arch and -gencode). */
static cuemu_status arch_targets(command *c) {
  if (c->arch_unsupported)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "Unsupported gpu architecture '%s'", c->arch_name);
  if (c->code_given && !c->arch_name)
    return cuemu__report(CUEMU_INVALID_VALUE, "-arch option not specified");
  if (c->code_given && strncmp(c->arch_name, "compute_", 8) != 0)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "Value of -arch option ('%s') must be a virtual "
                         "code architecture",
                         c->arch_name);
  int arch = c->arch_name ? (c->arch_value ? c->arch_value
                                           : CUEMU_DEFAULT_ARCH)
                          : 0;
  c->suffix = c->arch_value ? c->arch_suffix : 0;
  if (c->gencode_value > arch) {
    arch = c->gencode_value;
    c->suffix = c->gencode_suffix;
  } else if (c->gencode_value == arch && c->gencode_suffix && arch) {
    c->suffix = c->gencode_suffix;
  }
  c->arch = arch;
  cuemu_gpu_arch_set set = c->arch_set | c->gencode_set;
  if (!set)
    set = cuemu__gpu_arch_one(CUEMU_DEFAULT_ARCH);
  char list[128];
  cuemu__gpu_arch_list_macro(set, list, sizeof list);
  /* The images (nvcc 13's --dryrun): -arch=sm_90 makes sm_90 and
   * compute_90; sm_90a (or f) also compute_90, which a newer device's
   * driver compiles (compute_90a is for 9.0 only); compute_90 the PTX
   * alone (with -code, -code's); all and all-major a cubin of each
   * architecture and the PTX of the highest; native the emulated device's.
   * Each -gencode adds its code= values. */
  char *images = c->images;
  images[0] = '\0';
  if (c->code_given) {
    snprintf(images, sizeof c->images, "%s", c->code_images);
  } else if (c->arch_name && !c->arch_value) {
    int highest = 0;
    for (const char *p = list; *p;) {
      const int value = atoi(p);
      char name[32];
      snprintf(name, sizeof name, "sm_%d", value / 10);
      add_image(images, sizeof c->images, name, strlen(name));
      highest = value > highest ? value : highest;
      p += strcspn(p, ",");
      p += *p == ',';
    }
    if (highest) {
      char name[32];
      snprintf(name, sizeof name, "compute_%d", highest / 10);
      add_image(images, sizeof c->images, name, strlen(name));
    }
  } else if (c->arch_name) {
    const char *v = c->arch_name;
    const size_t n = strlen(v);
    const int virtual_only = strncmp(v, "compute_", 8) == 0;
    const char *number = v + (virtual_only ? 8 : 3);
    char name[32];
    if (!virtual_only)
      add_image(images, sizeof c->images, v, n);
    if (c->arch_suffix) {
      snprintf(name, sizeof name, "compute_%d", c->arch_value / 10);
      add_image(images, sizeof c->images, name, strlen(name));
    }
    snprintf(name, sizeof name, "compute_%s", number);
    add_image(images, sizeof c->images, name, strlen(name));
  }
  for (const char *p = c->gencode_images; *p;) {
    const size_t n = strcspn(p, ",");
    add_image(images, sizeof c->images, p, n);
    p += n + (p[n] == ',');
  }
  /* -arch's own virtual architecture and its images: with -code, -code's;
   * else what -arch=sm_XY or compute_XY makes (all and all-major: one
   * pass, as before). */
  if (c->arch_name && !c->arch_value) {
    c->ngroups = -1;
  } else if (c->arch_name) {
    struct arch_group *g = arch_group(c, c->arch_value, c->arch_suffix);
    if (g) {
      char own[sizeof c->code_images] = "";
      const char *v = c->arch_name;
      const int virtual_only = strncmp(v, "compute_", 8) == 0;
      char name[32];
      if (c->code_given) {
        snprintf(own, sizeof own, "%s", c->code_images);
      } else {
        if (!virtual_only)
          add_image(own, sizeof own, v, strlen(v));
        /* nvcc 13's --dryrun of -arch=sm_90a: a cicc pass of compute_90
         * (its PTX, without the 'a' macros) besides compute_90a's, so
         * compute_90 is a device pass of its own, which a 10.0 device
         * runs. */
        struct arch_group *plain =
            c->arch_suffix ? arch_group(c, c->arch_value, 0) : NULL;
        if (plain) {
          snprintf(name, sizeof name, "compute_%d", c->arch_value / 10);
          add_image(plain->images, sizeof plain->images, name, strlen(name));
        }
        snprintf(name, sizeof name, "compute_%s", v + (virtual_only ? 8 : 3));
        add_image(own, sizeof own, name, strlen(name));
      }
      for (const char *p = own; *p;) {
        const size_t n = strcspn(p, ",");
        add_image(g->images, sizeof g->images, p, n);
        p += n + (p[n] == ',');
      }
    }
  }
  /* The further device passes: each group but the one of `arch` (the
   * first device pass's), as "800:sm_80,compute_80;" (docs/nvcc-checks.md,
   * one device pass per virtual architecture). */
  c->passes[0] = '\0';
  for (int i = 0; i < c->ngroups; ++i) {
    const struct arch_group *g = &c->groups[i];
    if ((g->value == c->arch && g->suffix == c->suffix) || !g->images[0])
      continue;
    size_t used = strlen(c->passes);
    snprintf(c->passes + used, sizeof c->passes - used, "%d%.1s:%s;",
             g->value, &g->suffix, g->images);
  }
  char *define = NULL;
  if (asprintf(&define, "-D__CUDA_ARCH_LIST__=%s", list) < 0)
    return oom();
  c->arch_list = keep(c, define);
  return c->arch_list ? CUEMU_SUCCESS : oom();
}

static cuemu_status parse_words(command *c, int argc, const char *const *argv,
                                int depth);

/* How split_words() reads a text: as a POSIX shell does (the items of
 * -Xcompiler, -Xlinker and --run-args, which nvcc hands to its shell), as
 * nvcc reads an options file, or as it reads NVCC_PREPEND_FLAGS and
 * NVCC_APPEND_FLAGS (tried with nvcc 13.0: docs/nvcc-checks.md). */
enum split_rules { SPLIT_SHELL, SPLIT_OPTIONS_FILE, SPLIT_ENVIRONMENT };

/* Splits `text` into words by `rules`. White space separates words, and
 * "..." keeps everything in it in one word, in all three. SPLIT_SHELL, a
 * POSIX shell without its expansions: '...' keeps everything in it as it
 * is, a backslash inside "..." keeps a \, ", $ or ` after it as it is,
 * and a backslash outside quotes the character after it. SPLIT_OPTIONS_FILE:
 * a backslash, inside "..." or outside, keeps the character after it as it
 * is (`a\ b` is one word, "a\"b" is a"b), and ' is a character like any
 * other. SPLIT_ENVIRONMENT: only "..." is special. Quotes next to other
 * characters join them into one word, and "" is an empty word. `what`
 * names the text in the error about a quote left open. */
static cuemu_status split_words(command *c, const char *text,
                                enum split_rules rules, words *out,
                                const char *what) {
  char *word = malloc(strlen(text) + 1);
  if (!word)
    return oom();
  size_t len = 0;
  int quote = 0, in_word = 0;
  cuemu_status st = CUEMU_SUCCESS;
  for (const char *p = text; st == CUEMU_SUCCESS; ++p) {
    const char ch = *p;
    if (ch == '\0' && quote) {
      st = cuemu__report(CUEMU_INVALID_VALUE, "Unterminated %c quote in %s",
                         quote, what);
      break;
    }
    if (ch == '\0' || (!quote && isspace((unsigned char)ch))) {
      if (in_word) {
        char *s = keep(c, strndup(word, len));
        st = s ? add(out, s) : oom();
        len = 0;
        in_word = 0;
      }
      if (ch == '\0')
        break;
      continue;
    }
    in_word = 1;
    if (rules == SPLIT_OPTIONS_FILE && ch == '\\' && p[1]) {
      word[len++] = *++p;
    } else if (quote == '\'' || (quote == '"' && ch == '"')) {
      if (ch == quote)
        quote = 0;
      else
        word[len++] = ch;
    } else if (quote == '"') {
      if (rules == SPLIT_SHELL && ch == '\\' && p[1] &&
          strchr("\\\"$`", p[1]))
        ++p;
      word[len++] = *p;
    } else if (ch == '"' || (ch == '\'' && rules == SPLIT_SHELL)) {
      quote = ch;
    } else {
      if (rules == SPLIT_SHELL && ch == '\\' && p[1])
        ++p;
      word[len++] = *p;
    }
  }
  free(word);
  return st;
}

/* Reads an options file (--options-file): its words, split as nvcc splits
 * them (SPLIT_OPTIONS_FILE). */
static cuemu_status options_file(command *c, const char *path, int depth) {
  if (depth > 8)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "options files nested too deep (%s)", path);
  FILE *f = fopen(path, "re");
  if (!f)
    return cuemu__report(CUEMU_IO_ERROR, "Could not open options file '%s'",
                         path);
  char *text = NULL;
  size_t size = 0;
  FILE *m = open_memstream(&text, &size);
  int ch;
  while (m && (ch = fgetc(f)) != EOF)
    fputc(ch, m);
  fclose(f);
  if (!m || fclose(m) != 0) {
    free(text);
    return oom();
  }
  words w = {0};
  char *what = NULL;
  cuemu_status st = asprintf(&what, "options file '%s'", path) < 0
                        ? oom()
                        : split_words(c, text, SPLIT_OPTIONS_FILE, &w, what);
  free(what);
  free(text);
  if (st == CUEMU_SUCCESS)
    st = parse_words(c, w.n, w.v, depth + 1);
  free(w.v);
  return st;
}

/* The next item of a comma-separated option value at *p, split as nvcc 13
 * splits the values of its list options (-I, -D, -U, -isystem, -include,
 * -L, -l, -Xcompiler, -Xlinker, --options-file): a comma inside double
 * quotes does not end the item, and a backslash before a comma, a double
 * quote or a backslash keeps that character as it is and is dropped (`\,`
 * is a comma of the item, `a\\b` is a\b); before any other character it
 * stays, as nvcc keeps it (-I 'C:\dir' searches C:\dir). With
 * `keep_quotes` the double quotes stay in the item (nvcc 13 defines S as
 * "a,b" for -D 'S="a,b"', and the shell that runs the host compiler removes
 * an -Xcompiler item's quotes); without, they are dropped (-I '"a,b",c'
 * searches a,b and c). Advances *p past the item and its comma; NULL when
 * out of memory. */
static char *next_piece(command *c, const char **p, int keep_quotes) {
  const char *s = *p;
  size_t n = 0;
  char *piece = malloc(strlen(s) + 1);
  if (!piece)
    return NULL;
  int quoted = 0;
  for (; *s && (quoted || *s != ','); ++s) {
    if (*s == '\\' && s[1] && strchr(",\"\\", s[1]))
      ++s;
    else if (*s == '"') {
      quoted = !quoted;
      if (!keep_quotes)
        continue;
    }
    piece[n++] = *s;
  }
  piece[n] = '\0';
  *p = *s ? s + 1 : s;
  return keep(c, piece);
}

/* Adds the words of an -Xcompiler, -Xlinker or --run-args value as nvcc
 * does: nvcc splits the value into items (next_piece(), keeping their
 * quotes, except those of --run-args, which it drops), writes
 * them (each after `prefix`, if any) into the host compiler's command, and
 * the shell that runs it splits them into words and removes their quotes.
 * So -Xcompiler "-O3 -Wall" is two options, -Xcompiler '"-Wl,-rpath,/x"'
 * one, and FindCUDA's -Xcompiler ,"-O3","-DNDEBUG" two; an open quote is an
 * error naming `option` and the value. */
static cuemu_status add_pieces(command *c, words *w, const char *value,
                               const char *prefix, const char *option) {
  char *text = NULL;
  size_t size = 0;
  FILE *m = open_memstream(&text, &size);
  if (!m)
    return oom();
  int out_of_memory = 0, written = 0;
  for (const char *p = value; *p;) {
    const char *piece = next_piece(c, &p, strcmp(option, "--run-args") != 0);
    if (!piece) {
      out_of_memory = 1;
      break;
    }
    /* One space between items, as nvcc writes them (an item may end in a
     * backslash, which then escapes that space). */
    if (*piece)
      fprintf(m, "%s%s%s%s", written++ ? " " : "", prefix ? prefix : "",
              prefix ? " " : "", piece);
  }
  if (fclose(m) != 0 || out_of_memory) {
    free(text);
    return oom();
  }
  char *what = NULL;
  cuemu_status st = asprintf(&what, "%s value '%s'", option, value) < 0
                        ? oom()
                        : split_words(c, text, SPLIT_SHELL, w, what);
  free(what);
  free(text);
  return st;
}

/* Records a dialect older than C++14 that the user asked for (`spelled`,
 * as given after -std=; `digits`: "03" or "11"), which cuemu compiles as
 * C++14 (the shims need it: docs/dialects.md). The note waits for the
 * inputs (old_dialect_note()): a link that a Makefile gives its compile
 * flags compiles nothing. Once per command, whether -std or -Xcompiler
 * named the dialect. */
static cuemu_status old_dialect(command *c, const char *spelled,
                                const char *digits) {
  if (c->old_dialect)
    return CUEMU_SUCCESS;
  c->old_dialect = spelled;
  /* No warning about what only C++14 deprecates: the user's dialect has it
   * (see cuemu_old_dialect.h). */
  char *marker = joined(c, "-D" CUEMU_OLD_DIALECT_MACRO "=", digits);
  cuemu_status st = marker ? add(&c->host, marker) : oom();
  /* C++03 has no rule against narrowing in braces (nvcc -std=c++03
   * compiles `int a[] = {1.5};` without a word). */
  if (st == CUEMU_SUCCESS && strcmp(digits, "03") == 0)
    st = add(&c->host, "-Wno-narrowing");
  /* Read before everything else, the user's -include included. */
  char *first = joined(c, "-include", shims_dir());
  first = first ? joined(c, first, "/" OLD_DIALECT_HEADER) : NULL;
  if (st == CUEMU_SUCCESS)
    st = first ? add_first(&c->host, first) : oom();
  return st;
}

/* A host compiler's -std word given through -Xcompiler (`-Xcompiler
 * "-std=c++11 -fPIC"`, as Makefiles pass their C++ flags). nvcc hands it
 * to the host compiler, which compiles nvcc's host pass in it; here it
 * would compile cuemu's headers too, which need C++14. So a dialect older
 * than C++14 (c++98, c++03, c++0x, c++11 and their gnu++ forms) becomes
 * C++14 (gnu++14 for a GNU one), and *older and *digits say which it was,
 * for old_dialect(); any other word is returned as it is. */
static const char *host_dialect(const char *word, const char **older,
                                const char **digits) {
  static const struct {
    const char *name, *digits;
  } old[] = {{"98", "03"}, {"03", "03"}, {"0x", "11"}, {"11", "11"}};
  const char *v = word + 5;
  int gnu = strncmp(v, "gnu++", 5) == 0;
  if (!gnu && strncmp(v, "c++", 3) != 0)
    return word;
  for (size_t i = 0; i < sizeof old / sizeof *old; ++i)
    if (strcmp(v + (gnu ? 5 : 3), old[i].name) == 0) {
      *older = v;
      *digits = old[i].digits;
      return gnu ? "-std=gnu++14" : "-std=c++14";
    }
  return word;
}

/* Whether -std=value is one that nvcc 13 takes: c++03, c++11, c++14,
 * c++17 or c++20 (no gnu++ dialect, no c++98 or c++23). */
static int known_dialect(const char *value) {
  static const char *const values[] = {"c++03", "c++11", "c++14", "c++17",
                                       "c++20"};
  for (size_t i = 0; i < sizeof values / sizeof *values; ++i)
    if (strcmp(value, values[i]) == 0)
      return 1;
  return 0;
}

static void note(const char *what, const char *value) {
  cuemu__driver_say("note", "%s%s%s is accepted and ignored (%s)", what,
                    value ? " " : "", value ? value : "",
                    "cuemu compiles no PTX or device binary");
}

/* -Xptxas LIST: ptxas's -v (--verbose) asks for each kernel's resources,
 * which cuemu prints as --resource-usage does (SHOC-style Makefiles pass
 * -Xptxas -v to see them); every other ptxas option is noted as ignored.
 * LIST is comma-separated, as nvcc reads it, and each part may hold
 * several of ptxas's words (`--ptxas-options="-v -O3"`), which ptxas's
 * command line splits. */
static void ptxas_options(command *c, const char *list) {
  size_t n = strlen(list);
  char *copy = malloc(n + 1);
  if (!copy) {
    note("-Xptxas", list);
    return;
  }
  memcpy(copy, list, n + 1);
  char *save = NULL;
  for (char *o = strtok_r(copy, ", \t\n", &save); o;
       o = strtok_r(NULL, ", \t\n", &save)) {
    if (strcmp(o, "-v") == 0 || strcmp(o, "--verbose") == 0)
      c->resource_usage = 1;
    else if (strcmp(o, "-w") == 0 || strcmp(o, "--disable-warnings") == 0)
      c->ptxas_no_warnings = 1; /* ptxas's own warnings, which cuemu has */
    else
      note("-Xptxas", o);
  }
  free(copy);
}

/* Non-zero for a library of the toolkit that libcuemu stands in for
 * (-lcuda, -lcudart, -lnvrtc, ...): linking it would fail, or link the
 * real driver. */
static int provided_library(const char *name) {
  static const char *const provided[] = {
      "cuda", "cudart", "cudart_static", "cudadevrt", "nvrtc",
      "nvrtc_static", "nvrtc-builtins", "nvrtc-builtins_static",
      "nvJitLink", "nvJitLink_static", NULL};
  for (int i = 0; provided[i]; ++i)
    if (strcmp(name, provided[i]) == 0)
      return 1;
  return 0;
}

static const char *driver_link_option(command *c);
static const char *lib_dir(void);

/* After a build that failed, a note naming the libraries of the toolkit
 * that cuemu does not emulate and left out of the link
 * (cuda_library_link()): a call into one of them is the likely cause of
 * the linker's undefined references. */
static void say_unemulated(command *c) {
  for (int i = 0; i < c->unemulated.n; ++i)
    cuemu__driver_say(
        "note",
        "%s is not emulated by cuemu, which provides the CUDA runtime, the "
        "driver API, NVRTC, cuBLAS, cuRAND, cuFFT, cuSPARSE and cuSOLVER "
        "only (docs/cublas.md): it was left out of the link, and a program "
        "that calls it needs NVIDIA's nvcc",
        c->unemulated.v[i]);
}

/* What -lNAME or a file libNAME.so links for a library of CUDA's toolkit
 * (cuemu__cuda_library()): cuemu's own cuBLAS, cuRAND, cuFFT, cuSPARSE or
 * cuSOLVER (its dense API) through the
 * cuemu toolkit's lib64 script (emulator/libs/libs.am), *link set to its
 * path; "" (nothing to link) for a library cuemu does not emulate, which
 * would otherwise link NVIDIA's and fail when it runs: it is kept in
 * c->unemulated, for the message of a link that fails without it;
 * CUEMU_SUCCESS with *link NULL for any other library. */
static cuemu_status cuda_library_link(command *c, const char *name,
                                      const char *as_given,
                                      const char **link) {
  const char *what = NULL;
  *link = NULL;
  int kind = cuemu__cuda_library(name, &what);
  if (kind < 0) {
    char *entry = joined(c, "lib", name);
    entry = entry ? joined(c, entry, " (") : NULL;
    entry = entry ? joined(c, entry, what) : NULL;
    entry = entry ? joined(c, entry, ")") : NULL;
    if (!entry)
      return oom();
    (void)as_given;
    *link = "";
    return add(&c->unemulated, entry);
  }
  if (kind > 0) {
    /* The _static forms link the same shared library. */
    char base[64];
    size_t len = strcspn(name, "_");
    if (len >= sizeof base)
      len = sizeof base - 1;
    memcpy(base, name, len);
    base[len] = '\0';
    const char *dir = joined(c, lib_dir(), "/cuemu-toolkit/lib64/lib");
    const char *path = dir ? joined(c, dir, base) : NULL;
    path = path ? joined(c, path, ".so") : NULL;
    if (!path)
      return oom();
    *link = path;
  }
  return CUEMU_SUCCESS;
}

/* Adds one item of a list option (-I, -D, -U, -L, -l, -isystem,
 * -include) to the compile or link words. */
static cuemu_status list_item(command *c, enum opt_id id, const char *value) {
  /* cuemu's own toolkit include folder given with -isystem (CMake's
   * CUDA::cudart) adds nothing: its headers are the shims, which every
   * compile searches before the system folders
   * (cuemu__toolkit_shim_links_dir()). */
  if (id == O_SYSTEM_INCLUDE &&
      cuemu__toolkit_shim_links_dir(value, shims_dir()))
    return CUEMU_SUCCESS;
  if (id == O_SYSTEM_INCLUDE || id == O_PRE_INCLUDE) {
    words *w = id == O_SYSTEM_INCLUDE ? &c->host : &c->pre;
    cuemu_status st = add(w, id == O_SYSTEM_INCLUDE ? "-isystem" : "-include");
    return st == CUEMU_SUCCESS ? add(w, value) : st;
  }
  /* libcuemu is the CUDA runtime, the driver and NVRTC; -lcuda links
   * cuemu's libcuda.so.1 for the driver's C symbols. */
  if (id == O_LIBRARY && strcmp(value, "cuda") == 0) {
    const char *driver = driver_link_option(c);
    return driver ? add(&c->link, driver) : CUEMU_SUCCESS;
  }
  if (id == O_LIBRARY && provided_library(value))
    return CUEMU_SUCCESS;
  if (id == O_LIBRARY) {
    const char *link;
    char *given = joined(c, "-l", value);
    cuemu_status st = given ? cuda_library_link(c, value, given, &link)
                            : oom();
    if (st != CUEMU_SUCCESS || link)
      return st != CUEMU_SUCCESS ? st
             : *link          ? add(&c->link, link)
                              : CUEMU_SUCCESS;
  }
  const char *flag = id == O_INCLUDE_PATH   ? "-I"
                     : id == O_DEFINE       ? "-D"
                     : id == O_UNDEFINE     ? "-U"
                     : id == O_LIBRARY_PATH ? "-L"
                                            : "-l";
  /* cuemu's own toolkit include folder is the shims' links: the shims'
   * folder is searched in its place (cuemu__toolkit_shim_links_dir()). */
  if (id == O_INCLUDE_PATH &&
      cuemu__toolkit_shim_links_dir(value, shims_dir()))
    value = shims_dir();
  char *w = joined(c, flag, value);
  if (!w)
    return oom();
  /* A CUDA toolkit's include folder stays where it is, but after the
   * shims that replace its runtime headers: they come just before the
   * first such folder (cuemu__toolkit_headers_dir(); GCC ignores their
   * later -I). */
  if (id == O_INCLUDE_PATH && !c->shims_searched &&
      cuemu__toolkit_headers_dir(value, shims_dir())) {
    char *shims = joined(c, "-I", shims_dir());
    cuemu_status st = shims ? add(&c->host, shims) : oom();
    if (st != CUEMU_SUCCESS)
      return st;
    c->shims_searched = 1;
  }
  return add(id == O_LIBRARY_PATH || id == O_LIBRARY ? &c->link : &c->host, w);
}

/* -Werror's value: a comma-separated list of nvcc's kinds. The warnings
 * that cuemu gives become errors; the others are accepted. */
static cuemu_status werror_kinds(command *c, const char *value) {
  static const char *const kinds[] = {
      "all-warnings", "default-stream-launch", "missing-launch-bounds",
      "cross-execution-space-call", "reorder", "ext-lambda-captures-this",
      "deprecated-declarations"};
  const char *p = value;
  while (*p) {
    size_t n = strcspn(p, ",");
    size_t k = 0;
    while (k < sizeof kinds / sizeof *kinds &&
           !(strlen(kinds[k]) == n && strncmp(p, kinds[k], n) == 0))
      k++;
    if (k == sizeof kinds / sizeof *kinds)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "Value '%.*s' is not defined for option 'Werror'",
                           (int)n, p);
    if (k == 0) c->werror_all = 1;
    if (k == 1) c->warn_stream = 2;
    if (k == 2) c->warn_bounds = 2;
    p += n + (p[n] == ',');
  }
  return CUEMU_SUCCESS;
}

static cuemu_status parse_words(command *c, int argc, const char *const *argv,
                                int depth) {
  cuemu_status st = CUEMU_SUCCESS;
  for (int i = 0; i < argc && st == CUEMU_SUCCESS; ++i) {
    const char *a = argv[i];
    if (!a)
      return cuemu__report(CUEMU_INVALID_VALUE, "argument %d is NULL", i);
    if (a[0] != '-' || a[1] == '\0') {
      int kind = input_kind(a); /* -x, if any, is applied after parsing */
      if (kind < 0)
        kind = IN_EXEC; /* an error in execute(), unless -run runs it */
      /* NVIDIA's cuBLAS or cuRAND named by its path (CMake's CUDA::cublas
       * of a real toolkit) links cuemu's; another library of the
       * toolkit's is refused. */
      char library[64];
      if (kind == IN_LINK &&
          cuemu__cuda_library_file(a, library, sizeof library)) {
        const char *link;
        st = cuda_library_link(c, library, a, &link);
        if (st != CUEMU_SUCCESS)
          return st;
        if (!*link)
          continue; /* not emulated: left out (c->unemulated) */
        a = link;
      }
      input *grown = realloc(c->inputs, (size_t)(c->ninputs + 1) *
                                            sizeof *grown);
      if (!grown)
        return oom();
      c->inputs = grown;
      c->inputs[c->ninputs].path = a;
      c->inputs[c->ninputs].kind = (enum input_kind)kind;
      c->ninputs++;
      continue;
    }
    const char *value;
    const option *o = find_option(a, &value);
    if (!o) {
      if (c->forward_unknown || c->forward_unknown_linker) {
        st = c->forward_unknown ? add(&c->host, a) : CUEMU_SUCCESS;
        if (st == CUEMU_SUCCESS && c->forward_unknown_linker)
          st = add(&c->link, "-Xlinker");
        if (st == CUEMU_SUCCESS && c->forward_unknown_linker)
          st = add(&c->link, a);
        continue;
      }
      return cuemu__report(CUEMU_INVALID_VALUE, "Unknown option '%s'", a);
    }
    if (o->takes != FLAG && !value) {
      if (i + 1 >= argc || !argv[i + 1])
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "Option '%s' requires a value", a);
      value = argv[++i];
    }
    switch (o->id) {
    case O_OUTPUT:
      c->output = value;
      break;
    case O_ODIR:
      c->odir = value;
      break;
    case O_COMPILE:
    case O_DW:
      c->mode = MODE_COMPILE;
      break;
    case O_DC:
      c->mode = MODE_COMPILE;
      c->rdc = 1;
      break;
    case O_DLINK:
      c->mode = MODE_DLINK;
      break;
    case O_LIB:
      c->mode = MODE_LIB;
      break;
    case O_RLINK:
      c->mode = MODE_RLINK;
      break;
    case O_LINK:
      c->mode = MODE_LINK;
      break;
    case O_PREPROCESS:
      c->mode = MODE_PREPROCESS;
      break;
    case O_CUDA:
      c->mode = MODE_CUDA;
      break;
    case O_DEPS:
    case O_DEPS_NONSYS:
      c->mode = MODE_DEPS;
      c->mm = o->id == O_DEPS_NONSYS;
      break;
    case O_MD:
    case O_MMD:
      c->md = 1;
      c->mm = o->id == O_MMD;
      break;
    case O_MF:
      c->mf = value;
      break;
    case O_MT:
      c->mt = value;
      break;
    case O_MP:
      c->mp = 1;
      break;
    case O_X: {
      /* nvcc's -x is one setting for every input, wherever it stands (not
       * gcc's, for the inputs after it), and knows no "none". */
      int kind = strcmp(value, "cu") == 0    ? IN_CU
                 : strcmp(value, "c++") == 0 ? IN_CXX
                 : strcmp(value, "c") == 0   ? IN_C
                                             : -1;
      if (kind < 0)
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "Value '%s' is not defined for option "
                             "'x'",
                             value);
      if (c->forced >= 0 && c->forced != kind)
        cuemu__driver_say("warning",
                          "incompatible redefinition for option 'x', the "
                          "last value of this option was used");
      c->forced = kind;
      break;
    }
    case O_STD: {
      /* The user's dialect, as nvcc compiles it: -std=c++14 is compiled as
       * C++14, so that what C++17 removed (dynamic exception
       * specifications) is accepted and what it added is refused, or
       * warned about, by the host compiler at the user's line; CCCL's
       * headers refuse it with their own #error, as with nvcc. The shims
       * need C++14 (docs/dialects.md): C++11 and C++03 are compiled as
       * C++14, with a note. nvcc's five values only, as nvcc. */
      if (!known_dialect(value))
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "Value '%s' is not defined for option 'std'",
                             value);
      const char *v = value + 3;
      if (strcmp(v, "03") == 0 || strcmp(v, "11") == 0) {
        st = old_dialect(c, value, v);
        value = "c++14";
        if (st != CUEMU_SUCCESS)
          break;
      }
      c->std = joined(c, "-std=", value);
      st = c->std ? add(&c->host, c->std) : oom();
      break;
    }
    case O_INCLUDE_PATH:
    case O_DEFINE:
    case O_UNDEFINE:
    case O_LIBRARY_PATH:
    case O_LIBRARY:
    case O_SYSTEM_INCLUDE:
    case O_PRE_INCLUDE:
      /* Lists, as nvcc takes them: `-I a,b`, `-D X=1,Y=2`, `-l m,dl`. */
      for (const char *p = value; *p && st == CUEMU_SUCCESS;) {
        const char *piece = next_piece(c, &p, o->id == O_DEFINE);
        st = !piece ? oom() : *piece ? list_item(c, o->id, piece) : st;
      }
      break;
    case O_THREADS: { /* nvcc's own threads: a number, checked */
      long long threads;
      st = read_count(o, value, &threads);
      break;
    }
    case O_OPTIMIZE: {
      long long level;
      char *w = NULL;
      st = read_count(o, value, &level);
      if (st != CUEMU_SUCCESS)
        break;
      /* nvcc takes -O4 and more silently and gives them to g++, which
       * takes a level above 3 for 3; clang++, which compiles the units
       * that include CUB or Thrust, takes it for 3 too but warns
       * ("-O4 is equivalent to -O3"), once for each compile. */
      if (asprintf(&w, "-O%lld", level > 3 ? 3 : level) < 0 || !keep(c, w))
        w = NULL;
      st = w ? add(&c->host, w) : oom();
      c->host_level = 1;
      c->nvcc_level = level > 0 ? w : NULL;
      break;
    }
    case O_XCOMPILER: {
      int before = c->host.n;
      st = add_pieces(c, &c->host, value, NULL, "-Xcompiler");
      const char *older = NULL, *digits = NULL;
      for (int i = before; i < c->host.n; ++i)
        if (strncmp(c->host.v[i], "-O", 2) == 0)
          c->host_level = 0;
        else if (strncmp(c->host.v[i], "-std=", 5) == 0)
          c->host.v[i] = host_dialect(c->host.v[i], &older, &digits);
      if (st == CUEMU_SUCCESS && older)
        st = old_dialect(c, older, digits);
      break;
    }
    case O_XLINKER:
      st = add_pieces(c, &c->link, value, "-Xlinker", "-Xlinker");
      break;
    case O_XPTXAS:
      ptxas_options(c, value);
      break;
    case O_XNVLINK:
      note("-Xnvlink", value);
      break;
    case O_XFATBIN:
      note("-Xfatbin", value);
      break;
    case O_ARBIN:
      c->arbin = value;
      break;
    case O_PROFILE:
      st = add(&c->host, "-pg");
      if (st == CUEMU_SUCCESS)
        st = add(&c->link, "-pg");
      break;
    case O_LIST_GPU_ARCH:
      c->list_gpu |= CUEMU_GPU_LIST_ARCH;
      break;
    case O_LIST_GPU_CODE:
      c->list_gpu |= CUEMU_GPU_LIST_CODE;
      break;
    case O_DEVICE_VISIBILITY:
      if (strcmp(value, "false") == 0) {
        st = add(&c->host, "-D" CUEMU_VISIBLE_DEVICE_MACRO "=1");
        if (st != CUEMU_SUCCESS)
          return st;
      } else if (strcmp(value, "true") != 0) {
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "Value '%s' is not defined for option "
                             "'device-entity-has-hidden-visibility'",
                             value);
      }
      break;
    case O_DEFAULT_STREAM:
      /* As nvcc: per-thread defines CUDA_API_PER_THREAD_DEFAULT_STREAM
       * for the host code (stream 0 is then the calling thread's default
       * stream, docs/streams.md); legacy and null are the default. */
      if (strcmp(value, "per-thread") == 0)
        st = add(&c->host, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      else if (strcmp(value, "legacy") != 0 && strcmp(value, "null") != 0)
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "Value '%s' is not defined for option "
                             "'default-stream'",
                             value);
      break;
    case O_EXPT:
      if (strstr(a, "relaxed-constexpr"))
        c->relaxed_constexpr = 1;
      else
        c->extended_lambda = 1;
      break;
    case O_FMAD:
      if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "'%s': expected true or false", value);
      c->fmad = value[0] == 't';
      break;
    case O_FAST_MATH: /* implies -fmad=true, unless -fmad says otherwise */
      c->fast_math = 1;
      break;
    case O_XIGNORED:
    case O_IGNORED:
    case O_TIME:
      c->time_file = value;
      break;
    case O_LINEINFO:
      c->lineinfo = 1;
      break;
    case O_DIAG_SUPPRESS:
      c->suppressed |= diag_bits(value);
      break;
    case O_DIAG_WARN:
      c->diag_warned |= diag_bits(value);
      break;
    case O_DIAG_ERROR:
      c->diag_errors |= diag_bits(value);
      break;
    case O_IGNORED_VALUE:
    case O_M64:
      break;
    case O_CCBIN:
      c->ccbin = value;
      break;
    case O_TEMPLATE_LIMIT: { /* the host compiler's option of that name */
      char *w = NULL;
      if (asprintf(&w, "%s=%s", o->short_name, value) < 0)
        return oom();
      st = keep(c, w) ? add(&c->host, w) : oom();
      break;
    }
    case O_DEVICE_DEBUG:
      c->device_debug = 1;
      c->debug = 1;
      break;
    case O_DEBUG:
      c->debug = 1;
      break;
    case O_NO_WARNINGS:
      c->no_warnings = 1;
      st = add(&c->host, "-w");
      break;
    case O_NVCC_WARNING:
      if (strcmp(o->short_name, "-Wno-deprecated-declarations") == 0 ||
          strcmp(o->short_name, "-Wreorder") == 0)
        st = add(&c->host, o->short_name);
      else if (strcmp(o->short_name, "-Wdefault-stream-launch") == 0)
        c->warn_stream = c->warn_stream ? c->warn_stream : 1;
      else if (strcmp(o->short_name, "-Wmissing-launch-bounds") == 0)
        c->warn_bounds = c->warn_bounds ? c->warn_bounds : 1;
      else
        st = werror_kinds(c, value);
      break;
    case O_VERSION:
      c->version = 1;
      break;
    case O_VERBOSE:
      c->verbose = 1;
      break;
    case O_DRYRUN:
      c->dryrun = 1;
      c->verbose = 1;
      break;
    case O_RUN:
      c->run = 1;
      break;
    case O_RUN_ARGS:
      st = add_pieces(c, &c->run_args, value, NULL, "--run-args");
      break;
    case O_SHARED:
      c->shared = 1;
      break;
    case O_ARCH:
    case O_CODE:
    case O_GENCODE: {
      st = arch_option(c, o->id, value);
      break;
    }
    case O_RDC:
      if (strcmp(value, "true") == 0)
        c->rdc = 1;
      else if (strcmp(value, "false") == 0)
        c->rdc = 0;
      else
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "Value '%s' is not defined for option "
                             "'relocatable-device-code'",
                             value);
      break;
    case O_FORWARD:
      c->forward_unknown = 1;
      break;
    case O_KEEP:
      c->keep = 1;
      break;
    case O_RES_USAGE:
      c->resource_usage = 1;
      break;
    case O_KEEP_DIR:
      c->cuemu_keep_dir = value;
      break;
    case O_FORWARD_LINKER:
      c->forward_unknown_linker = 1;
      break;
    case O_FORWARD_BOTH:
      c->forward_unknown = c->forward_unknown_linker = 1;
      break;
    case O_OPTIONS_FILE: /* a list too: -optf a.txt,b.txt */
      for (const char *p = value; *p && st == CUEMU_SUCCESS;) {
        const char *piece = next_piece(c, &p, 0);
        st = !piece ? oom() : *piece ? options_file(c, piece, depth) : st;
      }
      break;
    case O_HELP:
      c->help = 1;
      break;
    case O_MODULE:
      c->module = 1;
      break;
    case O_PTX:
    case O_CUBIN:
    case O_FATBIN:
      c->module = 1;
      c->module_suffix = o->id == O_PTX     ? ".ptx"
                         : o->id == O_CUBIN ? ".cubin"
                                            : ".fatbin";
      break;
    case O_CHECK:
      c->checks = value;
      break;
    case O_SANITIZE:
      /* nvcc 13.0's ptxas instruments for memcheck alone. */
      if (strcmp(value, "memcheck") != 0)
        return cuemu__report(CUEMU_INVALID_VALUE,
                             "Value '%s' is not defined for option "
                             "'sanitize'",
                             value);
      c->checks = "mem";
      break;
    case O_NO_EXCEPTIONS:
      st = add(&c->host, "-fno-exceptions");
      break;
    case O_CLEAN:
      c->clean = 1;
      break;
    case O_RANDOM_SEED: {
      char *w = NULL;
      if (asprintf(&w, "-frandom-seed=%s", value) < 0)
        return oom();
      st = keep(c, w) ? add(&c->host, w) : oom();
      break;
    }
    case O_CXX:
      c->cxx = value;
      break;
    case O_NO_CACHE:
      c->no_cache = 1;
      break;
    case O_NAME_EXPR:
      st = add(&c->names, value);
      break;
    case O_CUDA_PATH:
      c->cuda_path = value;
      break;
    }
  }
  return st;
}

/* ---- Phases ---------------------------------------------------------------- */

/* Where the shims, the public headers and libcuemu are
 * (base/cuemu_locations.h). */
static const char *shims_dir(void) {
  return cuemu__location_shims();
}
static const char *include_dir(void) {
  return cuemu__location_include();
}
static const char *lib_dir(void) {
  return cuemu__location_lib();
}

/* The host C++ compiler: --cxx, -ccbin (a compiler, or a folder holding
 * g++), $CXX, then c++. */
/* Whether the compiler command `cmd` ("ccache g++", "cuemu-nvcc") is
 * cuemu-nvcc or cuemu-cc itself, under its name or another (a link named
 * nvcc): a Makefile run as `make CC=cuemu-nvcc CXX=cuemu-nvcc` puts them in
 * the environment, where they must not become the host compiler (the
 * compile would call itself without end). nvcc ignores $CC and $CXX. */
static int names_cuemu(const char *cmd) {
  char word[PATH_MAX], real[PATH_MAX], path[PATH_MAX];
  size_t n = strcspn(cmd, " \t");
  if (n == 0 || n >= sizeof word)
    return 0;
  memcpy(word, cmd, n);
  word[n] = '\0';
  const char *found = NULL;
  if (strchr(word, '/')) {
    found = word;
  } else {
    for (const char *dirs = getenv("PATH"); dirs && *dirs;) {
      size_t d = strcspn(dirs, ":");
      if (d > 0 && (size_t)snprintf(path, sizeof path, "%.*s/%s", (int)d,
                                    dirs, word) < sizeof path &&
          access(path, X_OK) == 0) {
        found = path;
        break;
      }
      dirs += d;
      if (*dirs == ':')
        dirs++;
    }
  }
  const char *name = found && realpath(found, real) ? real : word;
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  return strncmp(base, "cuemu-cc", 8) == 0 ||
         strncmp(base, "cuemu-nvcc", 10) == 0;
}

/* The C++ driver of a -ccbin that names a C driver: nvcc builds with g++
 * for -ccbin gcc and with clang++ for -ccbin clang, in the same folder where
 * one is given (-ccbin /usr/bin/gcc links with /usr/bin/g++), and so links
 * the C++ library that the C driver leaves out; other names (gcc-12, cc,
 * clang-14) it keeps as they are, and so does cuemu. (nvcc compiles with
 * `gcc -x c++`, which g++ is.) */
static const char *ccbin_cxx(command *c, const char *ccbin) {
  const char *slash = strrchr(ccbin, '/');
  const char *base = slash ? slash + 1 : ccbin;
  const char *cxx = strcmp(base, "gcc") == 0     ? "g++"
                    : strcmp(base, "clang") == 0 ? "clang++"
                                                 : NULL;
  char *s = NULL;
  if (!cxx ||
      asprintf(&s, "%.*s%s", (int)(base - ccbin), ccbin, cxx) < 0)
    return ccbin;
  const char *kept = keep(c, s);
  return kept ? kept : ccbin;
}

static const char *host_cxx(command *c) {
  if (c->cxx && *c->cxx)
    return c->cxx;
  /* As nvcc, NVCC_CCBIN names the host compiler when -ccbin does not. */
  const char *ccbin =
      c->ccbin && *c->ccbin ? c->ccbin : getenv("NVCC_CCBIN");
  if (ccbin && *ccbin) {
    struct stat st;
    if (stat(ccbin, &st) == 0 && S_ISDIR(st.st_mode))
      return joined(c, ccbin, "/g++");
    return ccbin_cxx(c, ccbin);
  }
  const char *e = getenv("CXX");
  return e && *e && !names_cuemu(e) ? e : "c++";
}

/* The host C compiler: $CC (unless it is cuemu-nvcc), then cc. */
static const char *host_cc(void) {
  const char *e = getenv("CC");
  return e && *e && !names_cuemu(e) ? e : "cc";
}

/* Appends the words of a compiler command ("ccache g++ -m64"). */
static cuemu_status add_command_words(command *c, words *w, const char *cmd) {
  char *copy = keep(c, strdup(cmd));
  if (!copy)
    return oom();
  for (char *tok = strtok(copy, " \t"); tok; tok = strtok(NULL, " \t"))
    if (add(w, tok) != CUEMU_SUCCESS)
      return oom();
  return CUEMU_SUCCESS;
}

static void print_command(const words *w) {
  fputs("#$ ", stderr);
  for (int i = 0; i < w->n; ++i)
    fprintf(stderr, "%s%s", i ? " " : "", w->v[i]);
  fputc('\n', stderr);
}

/* Runs a command (or, with -dryrun, only shows it). */
static cuemu_status run(command *c, const words *w, const char *what) {
  if (w->oom || !w->v)
    return oom();
  if (c->verbose)
    print_command(w);
  if (c->dryrun)
    return CUEMU_SUCCESS;
  int rc;
  if (cuemu_command_run(w->v, NULL, &rc) != CUEMU_SUCCESS)
    return cuemu__report(CUEMU_COMPILE, "cannot run %s", w->v[0]);
  if (rc != 0)
    return cuemu__report(CUEMU_COMPILE,
                         "%s failed (the compiler's messages are above)",
                         what);
  return CUEMU_SUCCESS;
}

/* Whether the host option `a` is the -include of the old-dialect header
 * that cuemu-nvcc adds for -std=c++11 and -std=c++03. */
static int old_dialect_include(const char *a) {
  static const char tail[] = "/" OLD_DIALECT_HEADER;
  size_t n = strlen(a), t = sizeof tail - 1;
  return strncmp(a, "-include", 8) == 0 && n > 8 + t &&
         strcmp(a + n - t, tail) == 0;
}

/* Whether the host option `a` is one that cuemu-nvcc adds for C++ only
 * (the dialect, and what an older one asks for), left out of a C compile. */
static int cxx_only(const char *a) {
  return strncmp(a, "-std=", 5) == 0 ||
         strncmp(a, "-D" CUEMU_OLD_DIALECT_MACRO "=",
                 sizeof CUEMU_OLD_DIALECT_MACRO + 2) == 0 ||
         old_dialect_include(a);
}

/* Adds the macros that nvcc defines in both passes of a .cu file for the
 * options that ask for them: __CUDACC_RDC__ (-rdc=true, -dc),
 * __CUDACC_DEBUG__ (-G), __CUDACC_EXTENDED_LAMBDA__ (--extended-lambda) and
 * __CUDACC_RELAXED_CONSTEXPR__ (--expt-relaxed-constexpr), and
 * __CUDA_ARCH_LIST__ (which nvcc also defines for .cpp and .c files). Code
 * checks them, as in `#ifndef __CUDACC_EXTENDED_LAMBDA__ #error`. */
static void add_cu_macros(const command *c, words *w) {
  add(w, c->arch_list);
  if (c->rdc)
    add(w, "-D__CUDACC_RDC__=1");
  if (c->device_debug)
    add(w, "-D__CUDACC_DEBUG__=1");
  if (c->extended_lambda)
    add(w, "-D__CUDACC_EXTENDED_LAMBDA__=1");
  if (c->relaxed_constexpr)
    add(w, "-D__CUDACC_RELAXED_CONSTEXPR__=1");
}

/* The words of a host compile of `in` (a .cpp or .c file, or a .cu file
 * for -E and -M): the compiler, the dialect, the shims and the public
 * headers on the include path (as nvcc puts the toolkit's), the user's
 * options. A .cu file is seen as cuemu's preprocessing pass sees it. */
static cuemu_status host_words(command *c, const input *in, words *w) {
  cuemu_status st = add_command_words(
      c, w, in->kind == IN_C ? host_cc() : host_cxx(c));
  if (st != CUEMU_SUCCESS)
    return st;
  if (in->kind != IN_C && !c->std)
    add(w, "-std=c++17");
  if (c->debug)
    add(w, "-g");
  char *pre = joined(c, shims_dir(), "/cuda_runtime.h");
  char *shims = joined(c, "-I", shims_dir());
  char *inc = joined(c, "-I", include_dir());
  if (!pre || !shims || !inc)
    return oom();
  /* A .c file compiles against NVIDIA's own runtime headers, which compile
   * as C, where a toolkit has them (the shims are C++): its calls are the C
   * symbols of libcuemu_cudart.so, which every link has (cudart.am).
   * Without them it gets the shims, which say that they are C++. */
  char nv[PATH_MAX];
  int nv_headers = in->kind == IN_C &&
                   cuemu__toolkit_c_headers(c->cuda_path, nv, sizeof nv);
  char *nv_include = nv_headers ? joined(c, "-I", nv) : NULL;
  if (nv_headers && !nv_include)
    return oom();
  /* A .cu file: cuda_runtime.h where nvcc reads it (runtime_at). */
  int at = in->kind == IN_CU ? c->runtime_at : -1;
  for (int i = 0; i <= c->host.n; ++i) {
    if (i == at) {
      add(w, "-include");
      add(w, pre);
    }
    if (i < c->host.n && (in->kind != IN_C || !cxx_only(c->host.v[i])) &&
        !(nv_headers && strcmp(c->host.v[i], shims) == 0))
      add(w, c->host.v[i]);
  }
  if (in->kind == IN_CU)
    add_cu_macros(c, w);
  else
    add(w, c->arch_list);
  if (c->shared)
    add(w, "-fPIC");
  if (in->kind == IN_CU) {
    char *dir = keep(c, strdup(in->path));
    if (!dir)
      return oom();
    char *slash = strrchr(dir, '/');
    if (slash)
      *slash = '\0';
    char *quote = joined(c, "-iquote", slash ? dir : ".");
    if (!quote)
      return oom();
    add(w, quote);
    add(w, "-D__CUDACC__");
  }
  /* nvcc defines these for .c and .cpp files too (nvcc -dryrun): host code
   * that tests __NVCC__ or the toolkit's version takes nvcc's branch. */
  add(w, "-D__NVCC__");
  for (int i = 0; cuemu__nvcc_version_macros[i]; ++i)
    add(w, cuemu__nvcc_version_macros[i]);
  add(w, nv_headers ? nv_include : shims);
  if (in->kind != IN_C) {
    add(w, inc);
    /* The rest of the toolkit's headers after the shims, as nvcc has them
     * (cuemu_compile() adds the same to a .cu file's passes). */
    char *toolkit = keep(c, malloc(PATH_MAX));
    if (!toolkit)
      return oom();
    if (cuemu__toolkit_include(c->cuda_path, w->n, (const char *const *)w->v,
                               toolkit, PATH_MAX)) {
      add(w, "-isystem");
      add(w, toolkit);
    }
    /* CCCL's headers, where the compile of a .cu file finds them
     * (cuemu_compile(): after the user's folders and the shims);
     * --cuda-path's are in the host words already (add_toolkit_cccl()).
     * nvcc puts TOOLKIT/include/cccl on a .cpp file's compile too, so a
     * C++ file may include <cuda/std/...>; without them that failed, and
     * so did -M and -MD (CMake's depfiles) of a unit with CUB or Thrust. */
    char *cccl = keep(c, malloc(PATH_MAX));
    if (!cccl)
      return oom();
    if (!c->cuda_path &&
        cuemu__cccl_headers(NULL, cccl, PATH_MAX) != CUEMU_CCCL_NONE &&
        cccl[0]) {
      add(w, "-isystem");
      add(w, cccl);
    }
  }
  if (in->kind == IN_CU) {
    add(w, "-x");
    add(w, "c++");
  } else if (input_kind(in->path) != (int)in->kind) {
    /* A file that -x makes C++ or C whatever its name says (a .cu file's
     * CPU back end under -x c++): the host compiler is told the language,
     * as it would otherwise take the file for a linker input. */
    add(w, "-x");
    add(w, in->kind == IN_C ? "c" : "c++");
  }
  return CUEMU_SUCCESS;
}

/* "dir/name.cu" -> "name" + suffix, in the working folder (nvcc's default
 * object names). */
static char *default_name(command *c, const char *path, const char *suffix) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  int n = dot ? (int)(dot - base) : (int)strlen(base);
  char *s = NULL;
  if (asprintf(&s, "%.*s%s", n, base, suffix) < 0)
    return NULL;
  return keep(c, s);
}

/* The dependency file of -MD and -MMD without -MF: the output `path` with
 * its suffix replaced by ".d", in the output's folder, as nvcc writes it
 * (`-c src/a.cu -o build/a.cu.o -MMD` writes build/a.cu.d). */
static char *dependency_name(command *c, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  int n = (int)(dot && dot > base ? dot - path : (ptrdiff_t)strlen(path));
  char *s = NULL;
  if (asprintf(&s, "%.*s.d", n, path) < 0)
    return NULL;
  return keep(c, s);
}

/* The __CUDA_ARCH__ of the device pass, as a -D option. */
static const char *arch_define(command *c) {
  char *s = NULL;
  if (asprintf(&s, "-D__CUDA_ARCH__=%d", c->arch ? c->arch : CUEMU_DEFAULT_ARCH) < 0)
    return NULL;
  return keep(c, s);
}

/* The preprocessor's -M of `in` in one pass (`define`: the pass's macro)
 * into `file` (NULL: the standard output). */
static cuemu_status pass_dependencies(command *c, const input *in,
                                      const char *define, const char *target,
                                      int phony, const char *file) {
  words w = {0};
  /* The host words have CCCL's headers (host_words()). */
  cuemu_status st = host_words(c, in, &w);
  if (st == CUEMU_SUCCESS) {
    if (define)
      add(&w, define);
    add(&w, c->mm ? "-MM" : "-M");
    if (phony)
      add(&w, "-MP");
    add(&w, "-MT");
    add(&w, target);
    if (file) {
      add(&w, "-MF");
      add(&w, file);
    }
    add(&w, in->path);
    st = run(c, &w, in->path);
  }
  free(w.v);
  return st;
}

/* Writes the dependencies of `in` (-M, -MD): the preprocessor's -M; for a
 * .cu file, of both passes, merged as nvcc merges them. */
static cuemu_status dependencies(command *c, const input *in,
                                 const char *target, const char *file) {
  if (in->kind != IN_CU || c->dryrun)
    return pass_dependencies(c, in, in->kind == IN_CU ? arch_define(c) : NULL,
                             target, c->mp, file);
  char device[] = "/tmp/cuemu-deps-XXXXXX", host[] = "/tmp/cuemu-deps-XXXXXX";
  int fd_device = mkstemp(device), fd_host = fd_device < 0 ? -1 : mkstemp(host);
  if (fd_device < 0 || fd_host < 0) {
    if (fd_device >= 0) {
      close(fd_device);
      unlink(device);
    }
    return cuemu__report(CUEMU_IO_ERROR, "cannot make a temporary file: %s",
                         strerror(errno));
  }
  close(fd_device);
  close(fd_host);
  const char *define = arch_define(c);
  cuemu_status st = define ? CUEMU_SUCCESS : oom();
  if (st == CUEMU_SUCCESS)
    st = pass_dependencies(c, in, define, "cuemu", 0, device);
  if (st == CUEMU_SUCCESS)
    st = pass_dependencies(c, in, "-DCUEMU_HOST_PASS=1", "cuemu", 0, host);
  if (st == CUEMU_SUCCESS)
    st = cuemu__deps_merge(device, host, target, c->mp, file);
  unlink(device);
  unlink(host);
  return st;
}

/* The cuemu-host-link beside the running cuemu-cc (in the build tree,
 * beside its libtool wrapper), or NULL. */
static const char *host_link_path(command *c) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return NULL;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash)
    return NULL;
  *slash = '\0';
  size_t len = strlen(exe);
  if (len >= 6 && strcmp(exe + len - 6, "/.libs") == 0)
    exe[len - 6] = '\0';
  char *path = joined(c, exe, "/cuemu-host-link");
  return path && access(path, X_OK) == 0 ? path : NULL;
}

/* libcuemu_by_path.a in libcuemu's folder, or NULL where there is none: a
 * linker script that links libcuemu by its absolute path, for the links
 * that CMake makes with the host C++ compiler from the libraries of the
 * link line below, without its run path (emulator/export/by_path.am). */
static const char *by_path_script(command *c) {
  struct stat st;
  const char *path = joined(c, lib_dir(), "/libcuemu_by_path.a");
  return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? path : NULL;
}

/* The library folders of nvcc -v's LIBRARIES line and of the link line it
 * shows, which CMake finds by this text: the toolkit's lib64/emulated
 * folder (links to lib64's scripts naming cuemu's libraries, not to those
 * that refuse a library cuemu does not emulate: emulator/libs/libs.am),
 * where it is built, then libcuemu's folder. nvcc shows its
 * targets/<arch>/lib there; CMake links a CUDA target that also holds C++
 * code (a C++ library among its libraries) with the C++ compiler and these
 * folders, so that -lcublas or -lcufft finds cuemu's libraries there, not
 * NVIDIA's on the system's paths (whose calls fail without a GPU). */
static const char *library_folders(command *c) {
  struct stat st;
  const char *lib = lib_dir();
  const char *lib64 = joined(c, lib, "/cuemu-toolkit/lib64/emulated");
  if (lib64 && stat(lib64, &st) == 0 && S_ISDIR(st.st_mode)) {
    char *both = joined(c, "\"-L", lib64);
    both = both ? joined(c, both, "\" \"-L") : NULL;
    both = both ? joined(c, both, lib) : NULL;
    both = both ? joined(c, both, "\"") : NULL;
    if (both)
      return both;
  }
  char *one = joined(c, "\"-L", lib);
  one = one ? joined(c, one, "\"") : NULL;
  return one ? one : "";
}

/* The link option of -lcuda: cuemu-toolkit/lib64/libcuda.so in libcuemu's
 * folder (a linker script naming cuemu's libcuda.so.1 and libcuemu:
 * emulator/export/libcuda.am), linked only where an object calls the
 * driver's C symbols (a C file, an object built against CUDA's cuda.h, a
 * call of a function of cuemu's cuda.h, which refers to its symbol:
 * CUEMU_DRV_SYMBOL); NULL where there is none (a build tree whose toolkit
 * folder is not built), and -lcuda then links nothing. */
static const char *driver_link_option(command *c) {
  char option[PATH_MAX + 64];
  if (!cuemu__driver_library_option(lib_dir(), option, sizeof option))
    return NULL;
  return joined(c, option, "");
}

/* Rewrites the module file at `path` in its text form
 * (runtime/cuemu_module_text.h). */
static cuemu_status module_to_text(const char *path) {
  FILE *in = fopen(path, "rbe");
  if (!in)
    return cuemu__report(CUEMU_IO_ERROR, "cannot read %s: %s", path,
                         strerror(errno));
  char *image = NULL;
  size_t size = 0, cap = 0, n;
  char buf[65536];
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
    if (size + n > cap) {
      char *grown = realloc(image, cap = (size + n) * 2);
      if (!grown) {
        free(image);
        fclose(in);
        return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory");
      }
      image = grown;
    }
    memcpy(image + size, buf, n);
    size += n;
  }
  fclose(in);
  char temp[PATH_MAX];
  snprintf(temp, sizeof temp, "%s.text.%ld", path, (long)getpid());
  FILE *out = fopen(temp, "we");
  int bad = !out || cuemu__module_text_write(out, image, size) != 0;
  if (out && fclose(out) != 0)
    bad = 1;
  free(image);
  if (bad || rename(temp, path) != 0) {
    unlink(temp);
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", path,
                         strerror(errno));
  }
  return CUEMU_SUCCESS;
}

/* The level of one of nvcc's optional warnings (cuemu_compile_options'
 * warn_*): given by -W<kind> (1) or -Werror=<kind> (2); -Werror
 * all-warnings makes a given warning an error, -w silences it. */
static int nvcc_warning(const command *c, int given) {
  if (given == 1 && c->werror_all) return 2;
  if (given == 1 && c->no_warnings) return 0;
  return given;
}

/* Whether -g is nvcc's (cuemu_compile_nvcc_debug()). */
static _Thread_local int nvcc_debug;

/* The option of one of nvcc's numbered warnings, whose bit of
 * command.suppressed is `bit` (cuemu_compile_options'
 * cuemu_warn_redeclared): -1 under its -diag-suppress, 3 under its
 * -diag-error (unless -diag-warn; -w does not silence it), -1 under -w,
 * 2 under -Werror all-warnings, else 0 (a warning). */
static int numbered_warning(const command *c, int bit) {
  return c->suppressed & bit                        ? -1
         : c->diag_errors & ~c->diag_warned & bit   ? 3
         : c->no_warnings                           ? -1
         : c->werror_all                            ? 2
                                                    : 0;
}

static cuemu_status compile_cu(command *c, const char *source,
                               const char *output, int object, int *hit);

/* Compiles the reading module of --resource-usage for the architecture
 * c->arch (with its images c->images) into `path`: the unit as nvcc's
 * -cubin compiles it, recording its kernel template instances
 * (CUEMU_RECORD_INSTANCES_MACRO). */
static cuemu_status usage_module(command *c, const char *source,
                                 const char *path) {
  int was_module = c->module;
  const char *was_suffix = c->module_suffix;
  c->module = 1;
  c->module_suffix = ".cubin";
  c->reporting = 1;
  const int n = c->host.n;
  add(&c->host, CUEMU_RECORD_INSTANCES_MACRO);
  cuemu_status st = c->host.n == n ? oom() : compile_cu(c, source, path, 0, NULL);
  c->host.n = n;
  c->reporting = 0;
  c->module = was_module;
  c->module_suffix = was_suffix;
  return st;
}

/* Prints ptxas's lines for the kernels of `module` as compiled for the
 * real architecture `image` ("sm_80", "sm_90a"), as relocatable device
 * code with `relocatable` (-dc, -rdc=true: ptxas counts its constant data
 * otherwise), in a child process that loads the module with its functions
 * bound lazily: a unit compiled with
 * -c calls functions of the program's other files, which the module
 * cannot resolve when it loads (nvcc's ptxas reads device code only).
 * Whatever the module does when it loads (its static constructors) stays
 * in the child, whose own messages are dropped. */
static void usage_lines(const char *source, const char *module,
                        const char *image, int relocatable) {
  fflush(stdout);
  fflush(stderr);
  int e = -1;
  pid_t pid = fork();
  if (pid == 0)
    _exit(cuemu__resource_usage_print(module, image, relocatable));
  if (pid > 0) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    e = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  if (e)
    cuemu__driver_say("warning", "--resource-usage: cannot read the "
                      "kernels of %s (%s %d)", source,
                      e < 0 ? "the reading process failed:" : "CUDA error",
                      e);
}

/* Calls usage_lines() for each real architecture ("sm_XY") of the
 * comma-separated `images`; for `arch` alone when they name none and
 * `fallback` is set. */
static void usage_images(const char *source, const char *module,
                         const char *images, int arch, int fallback,
                         int relocatable) {
  int any = 0;
  for (const char *p = images; *p;) {
    const size_t n = strcspn(p, ",");
    if (n > 3 && n < 32 && strncmp(p, "sm_", 3) == 0) {
      char image[32];
      snprintf(image, sizeof image, "%.*s", (int)n, p);
      usage_lines(source, module, image, relocatable);
      any = 1;
    }
    p += n + (p[n] == ',');
  }
  if (!any && fallback) {
    char image[32];
    snprintf(image, sizeof image, "sm_%d", arch / 10);
    usage_lines(source, module, image, relocatable);
  }
}

/* --resource-usage (and -Xptxas -v): prints, for each kernel of `source`
 * and each real architecture compiled for, the lines nvcc's ptxas prints,
 * with what cuemu reports for the kernel in cudaFuncGetAttributes: its
 * static shared memory (smem), its local memory (the stack frame of its
 * compiled code) and its registers (32, cuemu's fixed figure); barriers
 * and spills, which cuemu does not know, are left out. As ptxas compiles
 * each -gencode's device code for each of its code=sm_XY, the unit is
 * compiled as a module for each virtual architecture (its __CUDA_ARCH__),
 * through the cache, its references to other files made weak so that it
 * loads alone, and read for each of its real ones
 * (cuemu_resource_usage.c); without -arch or -gencode, for the default
 * architecture. */
static cuemu_status resource_usage(command *c, const char *source) {
  char temp[] = "/tmp/cuemu-res-usage-XXXXXX";
  int fd = mkstemp(temp);
  if (fd < 0)
    return cuemu__report(CUEMU_IO_ERROR, "cannot make %s: %s", temp,
                         strerror(errno));
  close(fd);
  const int arch = c->arch;
  const char suffix = c->suffix;
  char images[sizeof c->images];
  memcpy(images, c->images, sizeof images);
  cuemu_status st = CUEMU_SUCCESS;
  int groups = 0;
  for (int i = 0; i < c->ngroups && st == CUEMU_SUCCESS; ++i) {
    const struct arch_group *g = &c->groups[i];
    if (!strstr(g->images, "sm_"))
      continue;
    c->arch = g->value;
    c->suffix = g->suffix;
    snprintf(c->images, sizeof c->images, "%s", g->images);
    st = usage_module(c, source, temp);
    if (st == CUEMU_SUCCESS)
      st = cuemu__elf_weaken_references(temp);
    if (st == CUEMU_SUCCESS)
      usage_images(source, temp, g->images, g->value, 0, c->rdc);
    groups++;
  }
  c->arch = arch;
  c->suffix = suffix;
  memcpy(c->images, images, sizeof images);
  if (!groups && st == CUEMU_SUCCESS) {
    st = usage_module(c, source, temp);
    if (st == CUEMU_SUCCESS)
      st = cuemu__elf_weaken_references(temp);
    if (st == CUEMU_SUCCESS)
      usage_images(source, temp, c->images, arch ? arch : CUEMU_DEFAULT_ARCH,
                   !strstr(c->images, "compute_"), c->rdc);
  }
  unlink(temp);
  return st;
}

/* ptxas's warning when -G and -lineinfo meet, which nvcc prints once for
 * each real architecture (sm_XY) that it compiles a unit's device code
 * for: each of -arch's and -gencode's, or the default one (not under -w
 * or -Xptxas -w). */
static void ptxas_line_info_warnings(const command *c) {
  int targets = 0;
  for (const char *p = c->images; (p = strstr(p, "sm_")) != NULL; p += 3)
    targets++;
  if (!c->images[0])
    targets = 1;
  for (int i = 0; i < targets; ++i)
    fprintf(stderr, "ptxas warning : Conflicting options --device-debug and "
                    "--generate-line-info specified, ignoring "
                    "--generate-line-info option\n");
}

/* Compiles a .cu file into `object` (cuemu_compile, cached), or into a
 * whole program or module when `object` is NULL. */
static cuemu_status compile_cu(command *c, const char *source,
                               const char *output, int object, int *hit) {
  cuemu_compile_options o;
  memset(&o, 0, sizeof o);
  o.module = c->module;
  o.nvcc_module = c->module_suffix != NULL;
  o.object = object;
  /* nvcc's -g asks for the host code's debug information only ("--debug
   * (-g): Generate debug information for host code"); its device code stays
   * optimised unless -G. cuemu-cc's -g debugs every pass. */
  o.debug = c->device_debug ? CUEMU_DEBUG_DEVICE
            : !c->debug     ? 0
            : nvcc_debug    ? CUEMU_DEBUG_HOST
                            : 1;
  o.cuemu_host_level = c->host_level;
  o.cuemu_nvcc_level = c->nvcc_level;
  /* A whole program links the driver library only where the command
   * names it (-lcuda), as nvcc. */
  o.cuemu_driver_as_nvcc = 1;
  o.argv = c->host.v;
  o.argc = c->host.n;
  o.name_expressions = c->names.v;
  o.name_expression_count = c->names.n;
  o.cxx = host_cxx(c);
  o.no_cache = c->no_cache;
  /* --keep: the units are written by a compile, never by a cache hit. */
  if (c->keep) {
    o.cuemu_keep_dir = c->cuemu_keep_dir ? c->cuemu_keep_dir : ".";
    o.no_cache = 1;
  }
  o.checks = c->checks;
  o.arch = c->arch;
  o.arch_suffix = c->suffix;
  /* A module of -cubin holds the cubins alone (nvcc's -cubin is one
   * cubin), one of -ptx its PTX alone (which a driver compiles for any
   * device no older than its target). */
  char kept[sizeof c->images] = "";
  o.cuemu_arch_images = c->images[0] ? c->images : NULL;
  const int ptx = c->module_suffix && strcmp(c->module_suffix, ".ptx") == 0;
  if ((ptx || (c->module_suffix && strcmp(c->module_suffix, ".cubin") == 0)) &&
      c->images[0]) {
    const char *prefix = ptx ? "compute_" : "sm_";
    for (const char *p = c->images; *p;) {
      const size_t n = strcspn(p, ",");
      if (strncmp(p, prefix, strlen(prefix)) == 0)
        add_image(kept, sizeof kept, p, n);
      p += n + (p[n] == ',');
    }
    /* No image of that kind named: the module is not checked. */
    o.cuemu_arch_images = kept[0] ? kept : NULL;
  }
  o.rdc = c->rdc;
  /* One device pass per further virtual architecture: programs and
   * objects, with relocatable device code too (docs/nvcc-checks.md). */
  if (c->passes[0] && !c->module)
    o.cuemu_arch_passes = c->passes;
  o.runtime_header_at = c->runtime_at;
  /* Contraction only when asked for (docs/nvcc-checks.md: nvcc's default
   * is -fmad=true). */
  o.fmad = c->fmad >= 0 ? c->fmad : c->fast_math;
  o.cuemu_fast_math = c->fast_math;
  o.cuemu_warn_default_stream_launch = nvcc_warning(c, c->warn_stream);
  o.cuemu_warn_missing_launch_bounds = nvcc_warning(c, c->warn_bounds);
  o.cuemu_warn_redeclared = numbered_warning(c, 1);
  o.cuemu_warn_redeclared_device = numbered_warning(c, 2);
  o.cuemu_warn_redeclared_host_device = numbered_warning(c, 4);
  o.cuemu_warn_device_redeclared_host_device = numbered_warning(c, 8);
  o.cuemu_warn_main_bare_return = numbered_warning(c, 16);
  o.cuemu_warn_host_read = numbered_warning(c, 32);
  o.cuemu_warn_host_write = numbered_warning(c, 64);
  o.cuemu_warn_defaulted_space = numbered_warning(c, 128);
  if (c->verbose) {
    fprintf(stderr, "#$ cuemu_compile %s -> %s (%s)\n", source, output,
            c->module ? "module" : object ? "object" : "program");
    /* The link that the compile of a program ends with (CMake reads the
     * libraries it links from this line, and links CUDA targets with its
     * first word: cuemu-host-link, which adds libcuemu's run path and
     * --wrap options to the host compiler's link). */
    /* With libcuemu_by_path.a there, the line has no -lcuemu: a program
     * that the host compiler links from a shared library of CUDA code
     * and calls no CUDA function itself would get libcuemu.so.0 by its
     * name, without a run path, from -lcuemu (--as-needed counts the
     * library's references, and its DT_NEEDED names libcuemu by path),
     * and would not start. */
    if (!object && !c->module) {
      const char *linker = host_link_path(c), *script = by_path_script(c);
      fprintf(stderr, "#$ %s -pthread \"%s.o\" -o \"%s\" %s %s%s%s"
              "-Wl,-rpath,%s\n",
              linker ? linker : o.cxx, output, output, library_folders(c),
              script ? "\"" : "-lcuemu", script ? script : "",
              script ? "\" " : " ", lib_dir());
    }
  }
  if (c->dryrun)
    return CUEMU_SUCCESS;
  /* The host options, the macros of the .cu file's options (after the
   * options, so that runtime_header_at still counts in them) and a
   * program's link options (cuemu_compile links). */
  words all = {0};
  for (int i = 0; i < c->host.n; ++i)
    add(&all, c->host.v[i]);
  add_cu_macros(c, &all);
  if (!object)
    for (int i = 0; i < c->link.n; ++i)
      add(&all, c->link.v[i]);
  if (all.oom) {
    free(all.v);
    return oom();
  }
  o.argv = all.v;
  o.argc = all.n;
  int was_hit = 0;
  cuemu_status st = cuemu_compile(source, output, &o, &was_hit);
  free(all.v);
  if (hit)
    *hit = was_hit;
  if (st == CUEMU_SUCCESS && c->verbose)
    cuemu__driver_say("note", "%s: %s", output,
                      was_hit ? "cache hit" : "compiled");
  if (st == CUEMU_SUCCESS && c->device_debug && c->lineinfo && !c->module &&
      !c->reporting && !c->no_warnings && !c->ptxas_no_warnings)
    ptxas_line_info_warnings(c);
  if (st == CUEMU_SUCCESS && c->resource_usage && !c->reporting)
    st = resource_usage(c, source);
  return st;
}

/* Compiles the .cu file `source` into the fat module `output` of -fatbin
 * with several virtual architectures (cuemu_fat_module.h): a module of
 * each -gencode group, compiled as a module of that architecture alone
 * (its __CUDA_ARCH__ and images), and the modules in one file, of which
 * the driver API's load picks the one that the emulated device runs, as
 * CUDA's driver picks an image of a fat binary. */
static cuemu_status compile_fat_module(command *c, const char *source,
                                       const char *output, int *hit) {
  const int arch = c->arch;
  const char suffix = c->suffix;
  char images[sizeof c->images];
  memcpy(images, c->images, sizeof images);
  char *parts[16] = {0}; /* zeroed: g++ cannot see that n bounds the use */
  const char *lists[16] = {0};
  int n = 0;
  cuemu_status st = CUEMU_SUCCESS;
  for (int i = 0; i < c->ngroups && n < 16 && st == CUEMU_SUCCESS; ++i) {
    const struct arch_group *g = &c->groups[i];
    if (!g->images[0])
      continue;
    if (asprintf(&parts[n], "%s.cuemu-pass%d", output, n) < 0) {
      st = oom();
      break;
    }
    lists[n] = g->images;
    c->arch = g->value;
    c->suffix = g->suffix;
    snprintf(c->images, sizeof c->images, "%s", g->images);
    st = compile_cu(c, source, parts[n++], 0, hit);
  }
  c->arch = arch;
  c->suffix = suffix;
  memcpy(c->images, images, sizeof images);
  if (st == CUEMU_SUCCESS && !c->dryrun)
    st = cuemu__fat_module_write(output, (const char *const *)parts, lists, n);
  for (int i = 0; i < n; ++i) {
    unlink(parts[i]);
    free(parts[i]);
  }
  return st;
}

static cuemu_status compile_host(command *c, const input *in,
                                 const char *object) {
  words w = {0};
  cuemu_status st = host_words(c, in, &w);
  if (st == CUEMU_SUCCESS) {
    add(&w, "-c");
    add(&w, in->path);
    add(&w, "-o");
    add(&w, object);
    st = run(c, &w, in->path);
  }
  free(w.v);
  return st;
}

/* The environment nvcc -v shows, which CMake reads to find the toolkit
 * (TOP, with nvvm/libdevice), its headers, its libraries and the default
 * architecture. */
static void verbose_environment(command *c) {
  const char *shims = shims_dir(), *lib = lib_dir();
  /* The toolkit's folder: cuemu-toolkit beside libcuemu, which also has
   * the include and lib64 folders of find_package(CUDAToolkit)
   * (emulator/export/toolkit.am), else the shims' nvvm folder alone. */
  const char *top = joined(c, lib, "/cuemu-toolkit");
  struct stat st;
  char *libdevice = top ? joined(c, top, "/nvvm/libdevice") : NULL;
  if (!libdevice || stat(libdevice, &st) != 0 || !S_ISDIR(st.st_mode))
    top = joined(c, shims, "/toolkit");
  /* The headers: the toolkit's include folder, which links the shims' and
   * cuemu's headers, as nvcc 13 names its toolkit's targets/<arch>/include.
   * CMake reads it as CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES, and projects
   * take the toolkit's root from it (the folder less /include) to find
   * cuBLAS and the runtime there: the shims' folder has no libraries beside
   * it, so they found NVIDIA's (trial pub21). Without the toolkit, the
   * shims' and cuemu's folders. */
  char *toolkit_include = top ? joined(c, top, "/include") : NULL;
  char *runtime_header =
      toolkit_include ? joined(c, toolkit_include, "/cuda_runtime.h") : NULL;
  int in_toolkit = runtime_header && stat(runtime_header, &st) == 0;
  fprintf(stderr,
          "#$ _NVVM_BRANCH_=nvvm\n"
          "#$ _CUEMU_=cuemu " CUEMU_VERSION "\n"
          "#$ TOP=%s\n"
          "#$ NVVMIR_LIBRARY_DIR=%s/nvvm/libdevice\n",
          top ? top : "", top ? top : "");
  if (in_toolkit)
    fprintf(stderr, "#$ INCLUDES=\"-I%s\"\n", toolkit_include);
  else
    fprintf(stderr, "#$ INCLUDES=\"-I%s\" \"-I%s\"\n", shims, include_dir());
  fprintf(stderr,
          "#$ LIBRARIES=  %s\n"
          "#$ cuemu: -arch compute_%d (the emulated device's compute "
          "capability)\n",
          library_folders(c), (c->arch ? c->arch : CUEMU_DEFAULT_ARCH) / 10);
  static const char *const flags[] = {"NVCC_PREPEND_FLAGS",
                                      "NVCC_APPEND_FLAGS"};
  for (size_t i = 0; i < sizeof flags / sizeof *flags; ++i) {
    const char *v = getenv(flags[i]);
    if (v && *v)
      fprintf(stderr, "#$ %s=\"%s\"\n", flags[i], v);
  }
}

/* Parses the options of an environment variable that nvcc reads before
 * (NVCC_PREPEND_FLAGS) or after (NVCC_APPEND_FLAGS) its command line;
 * conda's nvcc package sets NVCC_PREPEND_FLAGS="-ccbin=$CXX". The value is
 * split at white space, with "..." quoting only (SPLIT_ENVIRONMENT). */
static cuemu_status environment_options(command *c, const char *name) {
  const char *v = getenv(name);
  if (!v || !*v)
    return CUEMU_SUCCESS;
  words w = {0};
  cuemu_status st = split_words(c, v, SPLIT_ENVIRONMENT, &w, name);
  if (st == CUEMU_SUCCESS)
    st = parse_words(c, w.n, w.v, 0);
  free(w.v);
  return st;
}

/* 1 when the link brings in OpenMP (cuemu__links_openmp): by the host
 * options (-Xcompiler -fopenmp), the link's words or its inputs. */
static int links_openmp(command *c) {
  const char *cxx = host_cxx(c);
  if (cuemu__links_openmp(cxx, c->host.v, c->host.n) ||
      cuemu__links_openmp(cxx, c->link.v, c->link.n))
    return 1;
  for (int i = 0; i < c->ninputs; ++i)
    if (c->inputs[i].kind == IN_LINK &&
        cuemu__links_openmp(cxx, &c->inputs[i].path, 1))
      return 1;
  return 0;
}

/* The files a link reads: `objects` and the command's link inputs (the
 * caller frees v). */
static words link_files(command *c, const words *objects) {
  words files = {0};
  for (int i = 0; objects && i < objects->n; ++i)
    add(&files, objects->v[i]);
  for (int i = 0; i < c->ninputs; ++i)
    if (c->inputs[i].kind == IN_LINK)
      add(&files, c->inputs[i].path);
  return files;
}

/* 1 when the host options ask for code that calls a profile runtime
 * (--coverage, -fprofile-arcs, -fprofile-generate, and clang++'s
 * -fprofile-instr-generate). */
static int links_profile(command *c) {
  for (int i = 0; i < c->host.n; ++i) {
    const char *a = c->host.v[i];
    if (cuemu__profile_option(a) && strncmp(a, "-fprofile-use", 13) != 0 &&
        strncmp(a, "-fprofile-instr-use", 19) != 0)
      return 1;
  }
  return 0;
}

/* Adds to w the runtimes of LLVM that the link's objects (`objects` and
 * the command's .o inputs) call, where clang++ compiled them with OpenMP
 * or profiling and another compiler links (cuemu_clang_runtimes.c); they
 * go before -lgomp. Scans the objects only when the options ask for
 * either. */
static void add_clang_runtimes(command *c, const words *objects, words *w) {
  if (!links_openmp(c) && !links_profile(c))
    return;
  words files = link_files(c, objects);
  const char *runtimes[4];
  int n = files.oom ? 0
                    : cuemu__clang_runtime_words(files.v, files.n, runtimes,
                                                 4);
  for (int i = 0; i < n; ++i)
    add(w, runtimes[i]);
  free(files.v);
}

/* Links `objects` (and the link inputs) into the output with libcuemu. */
/* The words that a pulled virtual table adds (see vtable_pulls()). */
typedef struct pull_words {
  command *c;
  words *w;
  const char *before, *after; /* around the name */
} pull_words;

static cuemu_status add_pull(void *ctx, const char *name) {
  pull_words *p = ctx;
  char *word = NULL;
  if (asprintf(&word, "%s%s%s", p->before, name, p->after) < 0)
    word = NULL;
  return add(p->w, keep(p->c, word));
}

/* Adds to w, one a word between `before` and `after`, the device virtual
 * tables that the link's objects (`objects` and the command's link
 * inputs) reference and its archives define
 * (cuemu__archive_vtable_pulls()): named undefined, they link the member
 * that defines them, as nvcc's device link does. */
static cuemu_status vtable_pulls(command *c, const words *objects, words *w,
                                 const char *before, const char *after) {
  words files = link_files(c, objects);
  pull_words p = {c, w, before, after};
  cuemu_status st =
      files.oom ? oom()
                : cuemu__archive_vtable_pulls(files.v, files.n, c->link.v,
                                              c->link.n, add_pull, &p);
  free(files.v);
  return st;
}

/* The context of device_undefined(): the link's files, how many
 * references were told, and the undefined names of a build for one
 * architecture (sorted once read). */
typedef struct undefined_refs {
  const words *files;
  const char *name; /* the reference whose object is looked for */
  int found;        /* an object's walk met the reference */
  int count;
  char **names;
  size_t nnames, cap;
  unsigned char *verdict; /* by name: 0 not asked yet, 1 undefined, 2 a
                           * library's (is_undefined()) */
} undefined_refs;

static cuemu_status find_reference(void *ctx, const char *name, int kind) {
  undefined_refs *u = ctx;
  if (kind == CUEMU_LINK_UNDEFINED && strcmp(name, u->name) == 0)
    u->found = 1;
  return CUEMU_SUCCESS;
}

/* Prints nvlink's line for one undefined reference NAME.cuemu_arch_800:
 * the name without the suffix, the first object that references it, the
 * pass's target. Keeps another undefined name for tell_reference(). */
static cuemu_status tell_undefined(void *ctx, const char *name) {
  undefined_refs *u = ctx;
  const char *suffix = strstr(name, CUEMU_ARCH_SUFFIX_PREFIX);
  if (!suffix) {
    if (u->nnames == u->cap) {
      size_t cap = u->cap ? 2 * u->cap : 64;
      char **grown = realloc(u->names, cap * sizeof *grown);
      if (!grown)
        return oom();
      u->names = grown;
      u->cap = cap;
    }
    if (!(u->names[u->nnames] = strdup(name)))
      return oom();
    u->nnames++;
    return CUEMU_SUCCESS;
  }
  const char *arch = suffix + strlen(CUEMU_ARCH_SUFFIX_PREFIX);
  const char *object = "?";
  u->name = name;
  u->found = 0;
  for (int i = 0; i < u->files->n && !u->found; ++i)
    if (cuemu__elf_link_symbols(u->files->v[i], 0, 0, find_reference, u) ==
            CUEMU_SUCCESS &&
        u->found)
      object = u->files->v[i];
  fprintf(stderr,
          "nvlink error   : Undefined reference to '%.*s' in '%s' "
          "(target: sm_%ld)\n",
          (int)(suffix - name), name, object, strtol(arch, NULL, 10) / 10);
  u->count++;
  return CUEMU_SUCCESS;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the device code's reference `name` is one that no input defines
 * (tell_undefined() kept it) and that no library of every program's link
 * defines either (printf, sinf, the C++ runtime's). */
static int is_undefined(void *ctx, const char *name) {
  undefined_refs *u = ctx;
  char **found = bsearch(&name, u->names, u->nnames, sizeof *u->names, by_name);
  if (!found)
    return 0;
  unsigned char *verdict = &u->verdict[found - u->names];
  if (!*verdict)
    *verdict = cuemu__runtime_defines(lib_dir(), name) ? 2 : 1;
  return *verdict == 1;
}

/* Prints nvlink's line for an undefined reference of a build for one
 * architecture. */
static cuemu_status tell_reference(void *ctx, const char *name,
                                   const char *object) {
  undefined_refs *u = ctx;
  fprintf(stderr, "nvlink error   : Undefined reference to '%s' in '%s'\n",
          name, object);
  u->count++;
  return CUEMU_SUCCESS;
}

/* nvcc's device link refuses a device function or variable that no input
 * defines: the -dlink step, and the link of a program of relocatable
 * device code (`objects`, with the command's link inputs). Where the
 * objects were built for several architectures, a further pass's
 * references name device code alone (NAME.cuemu_arch_800), so the link's
 * objects and archives tell which are undefined; for one architecture,
 * the summaries of what the units' device functions reference do
 * (cuemu__reach_undefined(); tests/driver_dlink_undefined.sh). */
static cuemu_status device_undefined(command *c, const words *objects) {
  words files = {0};
  for (int i = 0; objects && i < objects->n; ++i)
    add(&files, objects->v[i]);
  for (int i = 0; i < c->ninputs; ++i)
    if (c->inputs[i].kind == IN_LINK)
      add(&files, c->inputs[i].path);
  undefined_refs u = {&files, NULL, 0, 0, NULL, 0, 0, NULL};
  cuemu_status st =
      files.oom ? oom()
                : cuemu__archive_undefined(files.v, files.n, c->link.v,
                                           c->link.n, tell_undefined, &u);
  if (st == CUEMU_SUCCESS && !u.count && u.nnames) {
    qsort(u.names, u.nnames, sizeof *u.names, by_name);
    u.verdict = calloc(u.nnames, 1);
    st = u.verdict ? cuemu__reach_undefined(files.v, files.n, c->link.v,
                                            c->link.n, is_undefined,
                                            tell_reference, &u)
                   : oom();
  }
  free(u.verdict);
  free(files.v);
  for (size_t i = 0; i < u.nnames; ++i)
    free(u.names[i]);
  free(u.names);
  if (st == CUEMU_SUCCESS && u.count)
    st = cuemu__report(CUEMU_COMPILE, "the device link has %d undefined "
                                      "reference%s (nvlink's messages are "
                                      "above)",
                       u.count, u.count == 1 ? "" : "s");
  return st;
}

/* A private folder for the objects of a link; removed by remove_temps(). */
static char *temp_folder(command *c) {
  const char *tmp = getenv("TMPDIR");
  char *dir = NULL;
  if (asprintf(&dir, "%s/cuemu-nvcc.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
    return NULL;
  if (!mkdtemp(dir)) {
    free(dir);
    return NULL;
  }
  return keep(c, dir);
}

static void remove_temps(const char *dir, const words *files) {
  for (int i = 0; i < files->n; ++i)
    unlink(files->v[i]);
  if (dir)
    rmdir(dir);
}

/* Writes to `source` the records of the static shared memory that the
 * functions of the link's objects (`objects` and the command's link
 * inputs) reach through other units' functions (relocatable device code:
 * cuemu__shared_reach_source()), as nvlink counts it; *count records (0:
 * no file written). */
static cuemu_status shared_reach(command *c, const words *objects,
                                 const char *source, int *count) {
  words files = {0};
  for (int i = 0; objects && i < objects->n; ++i)
    add(&files, objects->v[i]);
  for (int i = 0; i < c->ninputs; ++i)
    if (c->inputs[i].kind == IN_LINK)
      add(&files, c->inputs[i].path);
  cuemu_status st =
      files.oom ? oom()
                : cuemu__shared_reach_source(files.v, files.n, c->link.v,
                                             c->link.n, source, count);
  free(files.v);
  return st;
}

/* The object of the records of shared_reach() in a folder of its own
 * (*dir, to remove with its files `temps`), added to w; nothing when there
 * are none. */
static cuemu_status shared_reach_object(command *c, const words *objects,
                                        words *w, char **dir, words *temps) {
  char *folder = temp_folder(c);
  if (!folder)
    return CUEMU_SUCCESS; /* no records: the link goes on as before */
  *dir = folder;
  const char *source = joined(c, folder, "/shared_reach.s");
  const char *object = joined(c, folder, "/shared_reach.o");
  if (!source || !object)
    return oom();
  int count = 0;
  cuemu_status st = shared_reach(c, objects, source, &count);
  if (count)
    add(temps, source);
  if (st != CUEMU_SUCCESS || !count)
    return st;
  words as = {0};
  st = add_command_words(c, &as, host_cxx(c));
  if (st == CUEMU_SUCCESS) {
    add(&as, "-c");
    add(&as, "-x");
    add(&as, "assembler");
    add(&as, source);
    add(&as, "-o");
    add(&as, object);
    add(temps, object);
    st = run(c, &as, "the device link");
  }
  free(as.v);
  if (st == CUEMU_SUCCESS)
    add(w, object);
  return st;
}

static cuemu_status link_program(command *c, const words *objects,
                                 const char *output) {
  words w = {0};
  char buffers[4 * PATH_MAX];
  const char *tail[16];
  unsigned checks = 0;
  char bad[64];
  cuemu_status st = CUEMU_SUCCESS;
  if (cuemu__check_parse(c->checks ? c->checks : getenv("CUEMU_CC_CHECK"),
                         &checks, bad, sizeof bad) != 0)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "--check: unknown checker '%s' (expected a list of "
                         "sync, race, mem, init or all)",
                         bad);
  st = add_command_words(c, &w, host_cxx(c));
  if (st != CUEMU_SUCCESS)
    return st;
  /* A program drops the copies of functions no one calls (see
   * cuemu_compile.c); a library keeps everything. */
  add(&w, c->shared ? "-shared" : "-Wl,--gc-sections");
  add(&w, "-pthread");
  if (c->debug)
    add(&w, "-g");
  /* The host options that matter to a link (-Xcompiler -fopenmp, -m...). */
  for (int i = 0; i < c->host.n; ++i) {
    const char *a = c->host.v[i];
    if (a[0] == '-' && (a[1] == 'f' || a[1] == 'm' || a[1] == 'O' ||
                        strcmp(a, "-pthread") == 0 || a[1] == 's' ||
                        strcmp(a, "-rdynamic") == 0 ||
                        cuemu__profile_option(a)) &&
        strncmp(a, "-std=", 5) != 0)
      add(&w, a);
  }
  /* nvcc device-links a program of relocatable device code. */
  st = device_undefined(c, objects);
  if (st == CUEMU_SUCCESS)
    st = vtable_pulls(c, objects, &w, "-Wl,--undefined=", "");
  if (st != CUEMU_SUCCESS) {
    free(w.v);
    return st;
  }
  for (int i = 0; i < objects->n; ++i)
    add(&w, objects->v[i]);
  char *reach_dir = NULL;
  words reach_temps = {0};
  st = shared_reach_object(c, objects, &w, &reach_dir, &reach_temps);
  if (st != CUEMU_SUCCESS) {
    remove_temps(reach_dir, &reach_temps);
    free(reach_temps.v);
    free(w.v);
    return st;
  }
  for (int i = 0; i < c->ninputs; ++i)
    if (c->inputs[i].kind == IN_LINK)
      add(&w, c->inputs[i].path);
  for (int i = 0; i < c->link.n; ++i)
    add(&w, c->link.v[i]);
  /* libgomp before libcuemu, whose constructor then runs first
   * (emulator/core/cuemu_omp_wait.c); LLVM's libomp before both where an
   * object that clang++ compiled calls it (cuemu_clang_runtimes.c). */
  add_clang_runtimes(c, objects, &w);
  if (links_openmp(c))
    add(&w, "-lgomp");
  add(&w, "-o");
  add(&w, output);
  int n = cuemu__link_tail(lib_dir(), checks, tail, 16, buffers,
                           sizeof buffers);
  for (int i = 0; i < n; ++i)
    add(&w, tail[i]);
  st = run(c, &w, "the link");
  if (st != CUEMU_SUCCESS) {
    if (!w.oom)
      cuemu__driver_link_note(w.v, w.n, NULL);
    say_unemulated(c);
  } else
    cuemu__debug_line_tombstones(output);
  remove_temps(reach_dir, &reach_temps);
  free(reach_temps.v);
  free(w.v);
  return st;
}

static void usage(void) {
  fputs("usage: cuemu-nvcc [options] FILES...\n"
        "cuemu's drop-in for nvcc: compiles .cu files for the cuemu CPU\n"
        "emulator (.cpp and .c files with the host compiler) and links them\n"
        "with libcuemu. nvcc's options are accepted (see README.md); cuemu's "
        "own:\n"
        "  --module          build one .cu file into a loadable module\n"
        "  -ptx, -cubin, -fatbin\n"
        "                    the same, named as nvcc names them (FILE.ptx, ...):\n"
        "                    cuModuleLoad and cuModuleLoadData take it\n"
        "  --name-expr EXPR  export a template instantiation (repeatable)\n"
        "  --check=LIST      build in checkers: sync, race, mem, init or all\n"
        "  --cxx=COMPILER    the host C++ compiler (default: -ccbin, $CXX, "
        "c++)\n"
        "  --no-cache        do not use the compile cache\n"
        "  -v                show the commands, and whether the cache was hit\n",
        stdout);
}

/* nvcc 13's lines, in its order. Nothing after "V13.0.88" holds a capital
 * V: Meson reads the version as what follows the output's last V. */
static void version(void) {
  printf("nvcc: NVIDIA (R) Cuda compiler driver\n"
         "Copyright (c) 2005-2025 NVIDIA Corporation\n"
         "Built on cuemu " CUEMU_VERSION
         " (the cuemu CPU emulator's drop-in for nvcc; no NVIDIA code)\n"
         "Cuda compilation tools, release 13.0, V13.0.88\n"
         "Build cuemu-nvcc_13.0/cuemu-" CUEMU_VERSION "\n");
}

/* -run: runs `program` with the --run-args, in the working folder, as
 * nvcc does (./NAME for a name without a folder; -v shows the command).
 * The program's standard streams are cuemu-nvcc's. A program that exits
 * with another status than 0 is an error that names the status, which
 * cuemu_compile_run_status() gives (nvcc and cuemu-nvcc exit with it). */
/* What cuemu_compile_run_status() returns. */
static _Thread_local int last_run_status;

int cuemu_compile_run_status(void) { return last_run_status; }

void cuemu_compile_nvcc_debug(int on) { nvcc_debug = on != 0; }

static cuemu_status run_program(command *c, const char *program) {
  const char *path = strchr(program, '/') ? program : joined(c, "./", program);
  words w = {0};
  add(&w, path);
  for (int i = 0; i < c->run_args.n; ++i)
    add(&w, c->run_args.v[i]);
  if (w.oom) {
    free(w.v);
    return oom();
  }
  if (c->verbose)
    print_command(&w);
  cuemu_status st = CUEMU_SUCCESS;
  int rc = 0;
  fflush(NULL);
  if (!c->dryrun && cuemu_command_run(w.v, NULL, &rc) != CUEMU_SUCCESS) {
    free(w.v);
    return cuemu__report(CUEMU_IO_ERROR, "cannot run %s", path);
  }
  last_run_status = rc;
  if (rc > 128)
    st = cuemu__report(CUEMU_COMPILE, "%s was killed by signal %d (%s)",
                       path, rc - 128, strsignal(rc - 128));
  else if (rc != 0)
    st = cuemu__report(CUEMU_COMPILE, "%s exited with status %d", path, rc);
  free(w.v);
  return st;
}

/* -run of an input that is not a file as it is written: as nvcc does, the
 * shell runs it (`sh -c 'INPUT ARGS...'`), each of --run-args' words
 * quoted. */
static cuemu_status run_shell_program(command *c, const char *text) {
  size_t n = strlen(text) + 1;
  for (int i = 0; i < c->run_args.n; ++i)
    n += 4 * strlen(c->run_args.v[i]) + 3;
  char *line = keep(c, malloc(n));
  if (!line)
    return oom();
  char *o = line + sprintf(line, "%s", text);
  for (int i = 0; i < c->run_args.n; ++i) {
    *o++ = ' ';
    *o++ = '\'';
    for (const char *a = c->run_args.v[i]; *a; ++a) {
      if (*a == '\'') {
        memcpy(o, "'\\''", 4);
        o += 4;
      } else {
        *o++ = *a;
      }
    }
    *o++ = '\'';
  }
  *o = '\0';
  words w = {0};
  add(&w, "/bin/sh");
  add(&w, "-c");
  add(&w, line);
  if (w.oom) {
    free(w.v);
    return oom();
  }
  if (c->verbose)
    print_command(&w);
  int rc = 0;
  fflush(NULL);
  cuemu_status st = CUEMU_SUCCESS;
  if (!c->dryrun && cuemu_command_run(w.v, NULL, &rc) != CUEMU_SUCCESS)
    st = cuemu__report(CUEMU_IO_ERROR, "cannot run %s", text);
  else if ((last_run_status = rc) != 0)
    st = cuemu__report(CUEMU_COMPILE, "%s exited with status %d", text, rc);
  free(w.v);
  return st;
}

/* Deletes a file that -clean names (or, with -dryrun, shows the rm), as
 * nvcc's -clean does: a missing one is no error. */
static cuemu_status clean_file(command *c, const char *path) {
  if (!path)
    return oom();
  if (c->verbose)
    fprintf(stderr, "#$ rm %s\n", path);
  if (!c->dryrun && unlink(path) != 0 && errno != ENOENT)
    return cuemu__report(CUEMU_IO_ERROR, "cannot delete %s: %s", path,
                         strerror(errno));
  return CUEMU_SUCCESS;
}

/* nvcc's -clean (--clean-targets): runs no step, and deletes the files that
 * the same command without -clean would write, named as execute() names
 * them: the output (or its default name), each object of -c, and the
 * dependency file of -MD. Temporary files are not kept, so none is left. */
static cuemu_status clean_targets(command *c) {
  cuemu_status st = CUEMU_SUCCESS;
  if (c->module)
    return clean_file(c, c->output ? c->output
                                   : default_name(c, c->inputs[0].path,
                                                  c->module_suffix
                                                      ? c->module_suffix
                                                      : ".so"));
  if (c->mode == MODE_DEPS || c->mode == MODE_PREPROCESS) {
    const char *out = c->mode == MODE_DEPS && c->mf ? c->mf : c->output;
    return out ? clean_file(c, out) : CUEMU_SUCCESS;
  }
  if (c->mode == MODE_CUDA || c->mode == MODE_COMPILE) {
    for (int i = 0; i < c->ninputs && st == CUEMU_SUCCESS; ++i) {
      const input *in = &c->inputs[i];
      if (in->kind == IN_LINK || (c->mode == MODE_CUDA && in->kind != IN_CU))
        continue;
      const char *out =
          c->output ? c->output
                    : default_name(c, in->path, c->mode == MODE_CUDA
                                                    ? ".cu.cpp.ii"
                                                    : ".o");
      if (out && !c->output && c->odir && c->mode == MODE_COMPILE)
        out = joined(c, c->odir, joined(c, "/", out));
      st = clean_file(c, out);
      if (st == CUEMU_SUCCESS && c->md && c->mode == MODE_COMPILE)
        st = clean_file(c, c->mf ? c->mf : dependency_name(c, out));
    }
    return st;
  }
  const char *out = c->output;
  if (!out)
    out = c->mode == MODE_DLINK ? "a_dlink.o"
          : c->mode == MODE_LIB ? "a.a"
                                : "a.out";
  st = clean_file(c, out);
  if (st == CUEMU_SUCCESS && c->md && c->mode == MODE_LINK)
    st = clean_file(c, c->mf ? c->mf : dependency_name(c, out));
  return st;
}

static cuemu_status execute(command *c, int *cache_hit) {
  cuemu_status st = CUEMU_SUCCESS;
  if (c->help) {
    usage();
    return CUEMU_SUCCESS;
  }
  if (c->version) {
    version();
    return CUEMU_SUCCESS;
  }
  if (c->list_gpu) {
    cuemu__gpu_arch_list(stdout, c->list_gpu);
    return CUEMU_SUCCESS;
  }
  if (c->ninputs == 0)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "No input files specified; use option --help for "
                         "more information");
  for (int i = 0; i < c->ninputs; ++i)
    if (c->inputs[i].kind == IN_EXEC && (!c->run || c->ninputs > 1))
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "Don't know what to do with '%s'",
                           c->inputs[i].path);
  /* -run of an executable: no compile. nvcc gives the input to the shell,
   * so a quoted path (Meson's sanity check runs `nvcc --run
   * "\"/build/sanitycheckcuda.exe\""`) is run too; a file that is there is
   * run as it is. */
  if (c->run && c->inputs[0].kind == IN_EXEC)
    return access(c->inputs[0].path, X_OK) == 0
               ? run_program(c, c->inputs[0].path)
               : run_shell_program(c, c->inputs[0].path);
  if (c->run && (c->mode != MODE_LINK || c->module || c->shared))
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "--run runs the program that a link builds: it "
                         "does not go with -c, -dc, -E, -M, -lib, -dlink, "
                         "-shared or a module");
  int nsources = 0, ncu = 0;
  for (int i = 0; i < c->ninputs; ++i) {
    nsources += c->inputs[i].kind != IN_LINK;
    ncu += c->inputs[i].kind == IN_CU;
  }
  /* nvcc's warning when -G and -lineinfo meet (in every command); under
   * -Werror all-warnings ptxas refuses the two in a compile of device
   * code, which then fails. */
  if (c->device_debug && c->lineinfo) {
    cuemu__driver_say("warning", "'--device-debug (-G)' overrides "
                                 "'--generate-line-info (-lineinfo)'");
    if (c->werror_all && ncu > 0 && c->mode != MODE_PREPROCESS &&
        c->mode != MODE_DEPS)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "Conflicting options --device-debug and "
                           "--generate-line-info specified, with -Werror "
                           "all-warnings (ptxas refuses them)");
  }
  if (c->output && nsources > 1 &&
      (c->mode == MODE_COMPILE || c->mode == MODE_PREPROCESS ||
       c->mode == MODE_CUDA))
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "A single input file is required for a non-link "
                         "phase when an outputfile is specified");
  if (c->clean)
    return clean_targets(c);
  if (c->module) {
    if (c->ninputs != 1 || c->inputs[0].kind != IN_CU)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "%s builds one .cu file into a module",
                           c->module_suffix ? "-ptx, -cubin or -fatbin"
                                            : "--module");
    const char *out =
        c->output ? c->output
                  : default_name(c, c->inputs[0].path,
                                 c->module_suffix ? c->module_suffix : ".so");
    if (!out)
      return oom();
    /* -fatbin for several virtual architectures: a module of each pass,
     * in one file, of which a load picks the one the device runs. */
    if (c->module_suffix && strcmp(c->module_suffix, ".fatbin") == 0 &&
        c->ngroups > 1)
      st = compile_fat_module(c, c->inputs[0].path, out, cache_hit);
    else
      st = compile_cu(c, c->inputs[0].path, out, 0, cache_hit);
    /* -ptx: the module in its text form, as PTX is text. */
    if (st == CUEMU_SUCCESS && c->module_suffix &&
        strcmp(c->module_suffix, ".ptx") == 0)
      st = module_to_text(out);
    return st;
  }
  if (c->mode == MODE_DEPS || c->mode == MODE_PREPROCESS ||
      c->mode == MODE_CUDA) {
    for (int i = 0; i < c->ninputs && st == CUEMU_SUCCESS; ++i) {
      const input *in = &c->inputs[i];
      if (in->kind == IN_LINK || (c->mode == MODE_CUDA && in->kind != IN_CU))
        continue;
      if (c->mode == MODE_DEPS) {
        /* -odir DIR names the rule's target DIR/name.o, as nvcc's: the
         * option is there for this step (a Makefile that writes objects
         * into DIR). */
        const char *target =
            c->mt ? c->mt : default_name(c, in->path, ".o");
        if (!c->mt && c->odir && target)
          target = joined(c, c->odir, joined(c, "/", target));
        st = dependencies(c, in, target, c->mf ? c->mf : c->output);
      } else {
        /* nvcc's -E shows the device pass of a .cu file; -cuda writes
         * its host pass to NAME.cu.cpp.ii. */
        words w = {0};
        const char *out =
            c->output || c->mode != MODE_CUDA
                ? c->output
                : default_name(c, in->path, ".cu.cpp.ii");
        st = c->mode == MODE_CUDA && !out ? oom() : host_words(c, in, &w);
        if (st == CUEMU_SUCCESS && in->kind == IN_CU &&
            c->mode == MODE_PREPROCESS)
          /* Only __CUDA_ARCH__: nvcc 13's -E of an sm_90a unit has no
           * __CUDA_ARCH_SPECIFIC__, which its compiles have. */
          add(&w, arch_define(c));
        if (st == CUEMU_SUCCESS) {
          add(&w, "-E");
          add(&w, in->path);
          if (out) {
            add(&w, "-o");
            add(&w, out);
          }
          st = run(c, &w, in->path);
        }
        free(w.v);
      }
    }
    return st;
  }
  if (c->mode == MODE_DLINK) {
    /* The device link of nvcc: device code is linked with the host code
     * here, so its object holds no code; build systems link it all the
     * same. It names undefined the device virtual tables that the objects
     * reference and the archives define (vtable_pulls()), so that the
     * program's link links their members, as nvlink does. */
    const char *out = c->output ? c->output : "a_dlink.o";
    words w = {0}, lines = {0};
    const char *source = "/dev/null";
    char *dir = NULL;
    st = device_undefined(c, NULL);
    if (st == CUEMU_SUCCESS)
      st = vtable_pulls(c, NULL, &lines, "\t.globl ", "\n");
    /* And the records of the static shared memory that the objects'
     * kernels reach in other units (shared_reach()). */
    const char *records = NULL;
    int nrecords = 0;
    if (st == CUEMU_SUCCESS && (dir = temp_folder(c))) {
      records = joined(c, dir, "/shared_reach.s");
      st = records ? shared_reach(c, NULL, records, &nrecords) : oom();
    }
    if (st == CUEMU_SUCCESS && (lines.n || nrecords)) {
      source = dir ? joined(c, dir, "/pulls.s") : NULL;
      FILE *f = source ? fopen(source, "we") : NULL;
      for (int i = 0; f && i < lines.n; ++i)
        fputs(lines.v[i], f);
      FILE *in = nrecords && f ? fopen(records, "re") : NULL;
      char chunk[4096];
      size_t got;
      while (in && (got = fread(chunk, 1, sizeof chunk, in)) > 0)
        fwrite(chunk, 1, got, f);
      if (in)
        fclose(in);
      if (f) /* not an executable stack */
        fputs("\t.section .note.GNU-stack,\"\",@progbits\n", f);
      if (!f || fclose(f) != 0)
        st = cuemu__report(CUEMU_IO_ERROR,
                           "cannot write the device link's source");
    }
    if (st == CUEMU_SUCCESS)
      st = add_command_words(c, &w, host_cxx(c));
    if (st == CUEMU_SUCCESS) {
      add(&w, "-c");
      add(&w, "-x");
      add(&w, lines.n || nrecords ? "assembler" : "c++");
      add(&w, source);
      add(&w, "-o");
      add(&w, out);
      st = run(c, &w, "the device link");
    }
    if (dir) {
      words temps = {0};
      if (source && strcmp(source, "/dev/null") != 0)
        add(&temps, source);
      if (nrecords)
        add(&temps, records);
      remove_temps(dir, &temps);
      free(temps.v);
    }
    free(w.v);
    free(lines.v);
    return st;
  }
  /* A whole program of one .cu file: one cached compile. A program that
   * links libraries or linker options is not cached whole (their contents
   * are not in the key), and would compile without the precompiled prelude
   * every time: its .cu is compiled as a cached object and then linked, as
   * nvcc does (unless -MD asks for the program's dependencies). So is one
   * of relocatable device code, whose link is a device link
   * (device_undefined()). */
  if (c->mode == MODE_LINK && c->ninputs == 1 && ncu == 1 && !c->shared &&
      (c->md ||
       (!c->rdc && !cuemu__links_other_files(c->link.v, c->link.n)))) {
    const char *out = c->output ? c->output : "a.out";
    double began = now_ms();
    st = compile_cu(c, c->inputs[0].path, out, 0, cache_hit);
    if (st != CUEMU_SUCCESS)
      say_unemulated(c);
    time_row(c, c->inputs[0].path,
             "cuemu-cc (device and host passes, linking)", c->inputs[0].path,
             out, time_arch(c), now_ms() - began);
    if (st == CUEMU_SUCCESS && c->md)
      st = dependencies(c, &c->inputs[0], c->mt ? c->mt : out,
                        c->mf ? c->mf : dependency_name(c, out));
    if (st == CUEMU_SUCCESS && c->run)
      st = run_program(c, out);
    return st;
  }
  /* Objects: beside the output for -c, else in a private folder. */
  char *dir = NULL;
  words objects = {0}, temps = {0};
  if (c->mode != MODE_COMPILE && nsources > 0) {
    dir = temp_folder(c);
    if (!dir)
      return cuemu__report(CUEMU_IO_ERROR,
                           "cannot make a temporary folder: %s",
                           strerror(errno));
  }
  int hits = 1;
  for (int i = 0; i < c->ninputs && st == CUEMU_SUCCESS; ++i) {
    const input *in = &c->inputs[i];
    if (in->kind == IN_LINK) {
      if (c->mode == MODE_LIB || c->mode == MODE_RLINK)
        st = add(&objects, in->path);
      continue;
    }
    const char *object;
    if (c->mode == MODE_COMPILE) {
      object = c->output ? c->output : default_name(c, in->path, ".o");
      if (!c->output && c->odir && object) /* -odir DIR: DIR/name.o */
        object = joined(c, c->odir, joined(c, "/", object));
    } else {
      char *name = NULL;
      if (asprintf(&name, "%s/%d-%s", dir, i,
                   default_name(c, in->path, ".o")) < 0)
        name = NULL;
      object = keep(c, name);
      if (object)
        add(&temps, object);
    }
    if (!object) {
      st = oom();
      break;
    }
    double began = now_ms();
    if (in->kind == IN_CU) {
      int hit = 0;
      st = compile_cu(c, in->path, object, 1, &hit);
      hits &= hit;
      time_row(c, in->path, "cuemu-cc (device and host passes)", in->path,
               object, time_arch(c), now_ms() - began);
    } else {
      st = compile_host(c, in, object);
      hits = 0;
      time_row(c, in->path, in->kind == IN_C ? "gcc (compiling)" : "g++ (compiling)",
               in->path, object, NULL, now_ms() - began);
    }
    if (st == CUEMU_SUCCESS && c->md && c->mode == MODE_COMPILE)
      st = dependencies(c, in, c->mt ? c->mt : object,
                        c->mf ? c->mf : dependency_name(c, object));
    if (st == CUEMU_SUCCESS)
      st = add(&objects, object);
  }
  if (st == CUEMU_SUCCESS && c->mode == MODE_LINK) {
    double began = now_ms();
    st = link_program(c, &objects, c->output ? c->output : "a.out");
    time_row(c, NULL, "gcc (linking)", NULL, c->output ? c->output : "a.out",
             NULL, now_ms() - began);
  }
  if (st == CUEMU_SUCCESS && c->mode == MODE_LINK && c->run)
    st = run_program(c, c->output ? c->output : "a.out");
  if (st == CUEMU_SUCCESS && c->mode == MODE_LIB) {
    const char *out = c->output ? c->output : "a.a";
    words w = {0};
    const char *ar = c->arbin ? c->arbin : getenv("AR");
    st = add_command_words(c, &w, ar && *ar ? ar : "ar");
    if (st == CUEMU_SUCCESS) {
      unlink(out);
      add(&w, "rcs");
      add(&w, out);
      for (int i = 0; i < objects.n; ++i)
        add(&w, objects.v[i]);
      st = run(c, &w, "the archive");
    }
    free(w.v);
  }
  if (st == CUEMU_SUCCESS && c->mode == MODE_RLINK) {
    /* nvcc's relocatable link: one object that links as its inputs
     * would (the device link of -rdc objects happens in the final link,
     * as for any other object). */
    const char *out = c->output ? c->output : "a.out";
    words w = {0};
    st = add_command_words(c, &w, host_cxx(c));
    if (st == CUEMU_SUCCESS) {
      add(&w, "-r");
      add(&w, "-nostdlib");
      for (int i = 0; i < objects.n; ++i)
        add(&w, objects.v[i]);
      add(&w, "-o");
      add(&w, out);
      st = run(c, &w, "the relocatable link");
    }
    free(w.v);
  }
  if (cache_hit)
    *cache_hit = st == CUEMU_SUCCESS && ncu > 0 && hits;
  remove_temps(dir, &temps);
  free(objects.v);
  free(temps.v);
  return st;
}

/* The CCCL of --cuda-path's toolkit on the include path, after the user's
 * folders and the shims and before the compiler's own, as nvcc has it
 * (cuemu_toolkit.h); without --cuda-path, cuemu_compile() finds CCCL. */
static cuemu_status add_toolkit_cccl(command *c) {
  char dir[PATH_MAX];
  if (!c->cuda_path)
    return CUEMU_SUCCESS;
  if (!cuemu__toolkit_cccl(c->cuda_path, dir, sizeof dir)) {
    cuemu__driver_say("warning",
                      "--cuda-path %s: no CCCL headers in %s/include/cccl",
                      c->cuda_path, c->cuda_path);
    return CUEMU_SUCCESS;
  }
  add(&c->host, "-isystem");
  cuemu_status st = add(&c->host, keep(c, strdup(dir)));
  /* The rest of that toolkit's headers after its CCCL, as nvcc has them. */
  if (st == CUEMU_SUCCESS &&
      cuemu__toolkit_include(c->cuda_path, c->host.n,
                             (const char *const *)c->host.v, dir, sizeof dir)) {
    add(&c->host, "-isystem");
    st = add(&c->host, keep(c, strdup(dir)));
  }
  return st;
}

/* nvcc's own -include options, after every other host option: nvcc
 * force-includes cuda_runtime.h after the headers of -Xcompiler -include,
 * wherever they are on its command line, and before its own. */
static cuemu_status place_pre_includes(command *c) {
  cuemu_status st = CUEMU_SUCCESS;
  c->runtime_at = c->host.n;
  for (int i = 0; i < c->pre.n && st == CUEMU_SUCCESS; ++i)
    st = add(&c->host, c->pre.v[i]);
  return st;
}

/* The word of cuemu-host-link's link for its argument `a`: for a library
 * of the toolkit (-lNAME, or a path to libNAME.so or libNAME.a),
 * cuda_library_link()'s: cuemu's own library for one it emulates (else
 * the host compiler would find NVIDIA's, which fails without a GPU), ""
 * (left out) for one it does not; `a` for any other word. */
static const char *host_link_word(command *c, const char *a,
                                  cuemu_status *st) {
  char library[64];
  const char *name = NULL;
  if (strncmp(a, "-l", 2) == 0 && cuemu__cuda_library(a + 2, NULL) != 0)
    name = a + 2;
  else if (a[0] != '-' &&
           cuemu__cuda_library_file(a, library, sizeof library) != 0)
    name = library;
  if (!name)
    return a;
  const char *link = NULL;
  *st = cuda_library_link(c, name, a, &link);
  return link ? link : a;
}

/* The words of the response file `path` (@path), split as GCC splits
 * them: at white space, with double and single quotes and backslashes;
 * none when it cannot be read (the word @path is then kept as it is). */
static cuemu_status response_words(command *c, const char *path, words *out) {
  FILE *f = fopen(path, "r");
  if (!f)
    return CUEMU_SUCCESS;
  cuemu_status st = CUEMU_SUCCESS;
  size_t cap = 256, len = 0;
  char *word = malloc(cap);
  int ch, quote = 0, in_word = 0;
  if (!word) {
    fclose(f);
    return oom();
  }
  while (st == CUEMU_SUCCESS) {
    ch = fgetc(f);
    if (ch == EOF || (!quote && isspace(ch))) {
      if (in_word) {
        word[len] = '\0';
        char *kept = joined(c, word, "");
        st = kept ? add(out, kept) : oom();
        len = 0;
        in_word = 0;
      }
      if (ch == EOF)
        break;
      continue;
    }
    in_word = 1;
    if (ch == '\\') {
      int next = fgetc(f);
      if (next != EOF)
        ch = next;
    } else if (!quote && (ch == '"' || ch == '\'')) {
      quote = ch;
      continue;
    } else if (quote && ch == quote) {
      quote = 0;
      continue;
    }
    if (len + 2 > cap) {
      char *grown = realloc(word, cap *= 2);
      if (!grown) {
        st = oom();
        break;
      }
      word = grown;
    }
    word[len++] = (char)ch;
  }
  free(word);
  fclose(f);
  return st;
}

/* `cuemu-host-link ARGS` (`cuemu-cc --cuemu-host-link ARGS`): the host C++
 * compiler's link with ARGS (the toolkit's libraries as host_link_word()
 * gives them), and what a link with libcuemu
 * needs (its folder, the library, its run path, the --wrap options). The
 * link line of `cuemu-nvcc -v` names it, so that CMake links CUDA targets
 * with it (CMAKE_CUDA_HOST_LINK_LAUNCHER). */
static cuemu_status host_link(command *c, int argc, const char *const *argv) {
  words w = {0};
  char buffers[4 * PATH_MAX];
  const char *tail[16];
  cuemu_status st = add_command_words(c, &w, host_cxx(c));
  /* A program drops the copies of functions no one calls, as cuemu-nvcc's
   * link does (cuemu_compile.c): the device pass's host code, and what the
   * host compiler emits where nvcc's host code has nothing, such as the
   * vtable of a class whose virtual functions are all defined inline
   * after it (Open MPI's C++ bindings), whose library the program may not
   * link. A library or a relocatable link keeps everything. */
  int whole = 0;
  for (int i = 0; i < argc; ++i)
    whole |= strcmp(argv[i], "-shared") == 0 || strcmp(argv[i], "-r") == 0 ||
             strcmp(argv[i], "-Wl,-r") == 0 ||
             strcmp(argv[i], "-Wl,--relocatable") == 0;
  if (!whole && st == CUEMU_SUCCESS)
    st = add(&w, "-Wl,--gc-sections");
  /* The toolkit's libraries are cuemu's, or left out where cuemu does not
   * emulate them, also in a response file (CMake's linkLibs.rsp), whose
   * words then replace it. */
  for (int i = 0; i < argc && st == CUEMU_SUCCESS; ++i) {
    if (argv[i][0] == '@') {
      words inside = {0}, kept = {0};
      int changed = 0;
      st = response_words(c, argv[i] + 1, &inside);
      for (int k = 0; k < inside.n && st == CUEMU_SUCCESS; ++k) {
        const char *word = host_link_word(c, inside.v[k], &st);
        changed |= strcmp(word, inside.v[k]) != 0;
        if (*word && st == CUEMU_SUCCESS)
          st = add(&kept, word);
      }
      for (int k = 0; changed && k < kept.n && st == CUEMU_SUCCESS; ++k)
        st = add(&w, kept.v[k]);
      if (!changed && st == CUEMU_SUCCESS)
        st = add(&w, argv[i]);
      free(inside.v);
      free(kept.v);
    } else {
      const char *word = host_link_word(c, argv[i], &st);
      if (*word && st == CUEMU_SUCCESS)
        st = add(&w, word);
    }
  }
  int n = cuemu__link_tail(lib_dir(), 0, tail, 16, buffers, sizeof buffers);
  for (int i = 0; i < n && st == CUEMU_SUCCESS; ++i)
    st = add(&w, tail[i]);
  if (st == CUEMU_SUCCESS) {
    st = run(c, &w, "the link");
    if (st != CUEMU_SUCCESS) {
      if (!w.oom)
        cuemu__driver_link_note(w.v, w.n, NULL);
      say_unemulated(c);
    }
  }
  /* The output's line-number sequences of the functions the link dropped
   * are marked (cuemu_debug_line.h). */
  const char *output = "a.out";
  for (int i = 0; i < argc; ++i)
    if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
      output = argv[++i];
    else if (strncmp(argv[i], "-o", 2) == 0 && argv[i][2])
      output = argv[i] + 2;
  if (st == CUEMU_SUCCESS && !c->dryrun)
    cuemu__debug_line_tombstones(output);
  free(w.v);
  return st;
}

/* CUDA source on the standard input ("-" under -x cu, as configure scripts
 * pipe a probe into nvcc): nvcc copies it to a temporary file and compiles
 * that, so it is copied here to `stdin.cu` in a private folder, which
 * remove_stdin_copy() removes. C and C++ inputs stay "-": the host
 * compiler reads them itself (told their language: host_words()). */
static cuemu_status stdin_input(command *c) {
  for (int i = 0; i < c->ninputs; ++i) {
    if (strcmp(c->inputs[i].path, "-") != 0 || c->inputs[i].kind != IN_CU)
      continue;
    if (c->stdin_copy)
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "the standard input is given twice");
    const char *tmp = getenv("TMPDIR");
    char *dir = NULL;
    if (asprintf(&dir, "%s/cuemu-nvcc-stdin.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp") < 0 ||
        !keep(c, dir))
      return oom();
    if (!mkdtemp(dir))
      return cuemu__report(CUEMU_IO_ERROR, "cannot make a folder for the "
                                           "standard input: %s",
                           strerror(errno));
    char *path = joined(c, dir, "/stdin.cu");
    if (!path)
      return oom();
    c->stdin_copy = path;
    FILE *out = fopen(path, "wb");
    if (!out)
      return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", path,
                           strerror(errno));
    char buf[65536];
    size_t n;
    int bad = 0;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
      bad |= fwrite(buf, 1, n, out) != n;
    bad |= ferror(stdin);
    bad |= fclose(out) != 0;
    if (bad)
      return cuemu__report(CUEMU_IO_ERROR, "cannot copy the standard input "
                                           "to %s",
                           path);
    c->inputs[i].path = path;
  }
  return CUEMU_SUCCESS;
}

static void remove_stdin_copy(const command *c) {
  if (!c->stdin_copy)
    return;
  unlink(c->stdin_copy);
  char *slash = strrchr(c->stdin_copy, '/');
  *slash = '\0';
  rmdir(c->stdin_copy);
  *slash = '/';
}

/* The note of a dialect older than C++14, given once the inputs are known
 * and only when one of them is compiled as C++ (a .cu or C++ file): a link
 * of objects, or a C file, is not compiled as C++14. */
static void old_dialect_note(const command *c) {
  if (!c->old_dialect)
    return;
  for (int i = 0; i < c->ninputs; ++i)
    if (c->inputs[i].kind == IN_CU || c->inputs[i].kind == IN_CXX) {
      cuemu__driver_say("note",
                        "-std=%s is compiled as C++14 (cuemu's CUDA headers "
                        "need at least C++14)",
                        c->old_dialect);
      return;
    }
}

cuemu_status cuemu_compile_command(int argc, const char *const *argv,
                                   int *cache_hit) {
  if (cache_hit)
    *cache_hit = 0;
  if (argc < 0 || (argc > 0 && !argv))
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_compile_command: no argument vector");
  command c;
  memset(&c, 0, sizeof c);
  c.forced = -1;
  last_run_status = 0;
  c.fmad = -1;
  if (argc > 0 && argv[0] && strcmp(argv[0], "--cuemu-host-link") == 0) {
    cuemu_status st = host_link(&c, argc - 1, argv + 1);
    command_free(&c);
    return st;
  }
  /* As nvcc, -v shows the environment first, even when the command turns
   * out to be wrong (CMake runs `nvcc -v __cmake_determine_cuda`). */
  for (int i = 0; i < argc && argv[i]; ++i) {
    const char *value;
    const option *o = find_option(argv[i], &value);
    if (o && (o->id == O_VERBOSE || o->id == O_DRYRUN)) {
      verbose_environment(&c);
      break;
    }
    if (o && o->takes != FLAG && !value)
      ++i; /* the value of -Xptxas -v is not nvcc's -v */
  }
  cuemu_status st = environment_options(&c, "NVCC_PREPEND_FLAGS");
  if (st == CUEMU_SUCCESS)
    st = parse_words(&c, argc, argv, 0);
  if (st == CUEMU_SUCCESS)
    st = environment_options(&c, "NVCC_APPEND_FLAGS");
  /* -x: the language of every input, as nvcc has it. */
  for (int i = 0; st == CUEMU_SUCCESS && c.forced >= 0 && i < c.ninputs; ++i)
    c.inputs[i].kind = (enum input_kind)c.forced;
  if (st == CUEMU_SUCCESS)
    st = stdin_input(&c);
  if (st == CUEMU_SUCCESS)
    old_dialect_note(&c);
  if (st == CUEMU_SUCCESS)
    st = arch_targets(&c);
  if (st == CUEMU_SUCCESS)
    st = add_toolkit_cccl(&c);
  if (st == CUEMU_SUCCESS)
    st = place_pre_includes(&c);
  double began = now_ms();
  if (st == CUEMU_SUCCESS)
    st = execute(&c, cache_hit);
  if (st == CUEMU_SUCCESS && c.time_file && !c.dryrun)
    st = write_time_table(&c, now_ms() - began);
  remove_stdin_copy(&c);
  command_free(&c);
  return st;
}
