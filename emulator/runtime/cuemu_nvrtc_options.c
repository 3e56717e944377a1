/*
 * cuemu_nvrtc_options.c: NVRTC's compile options (nvrtcCompileProgram),
 * read into the words of cuemu_compile() (see cuemu_nvrtc_internal.h).
 * Options that change code generation only (fast math, flushing, register
 * limits, PTX optimisation, link-time optimisation, ...) are accepted and
 * change nothing, since the emulator has no device code generator; the
 * rest is NVRTC's meaning.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cuemu_locations.h"
#include "compile/cuemu_gpu_arch.h"
#include "runtime/cuemu_nvrtc_internal.h"

int cuemu__nvrtc_text_add(cuemu_nvrtc_text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *piece = NULL;
  int n = vasprintf(&piece, fmt, ap);
  va_end(ap);
  if (n < 0)
    return -1;
  if (t->len + (size_t)n + 1 > t->cap) {
    size_t cap = (t->len + (size_t)n + 1) * 2;
    char *grown = realloc(t->s, cap);
    if (!grown) {
      free(piece);
      return -1;
    }
    t->s = grown;
    t->cap = cap;
  }
  memcpy(t->s + t->len, piece, (size_t)n + 1);
  t->len += (size_t)n;
  free(piece);
  return 0;
}

static int add_word(cuemu_nvrtc_options *o, const char *a, const char *b) {
  if (o->argc + 2 > o->cap) {
    int cap = o->cap ? o->cap * 2 : 16;
    char **grown = realloc(o->argv, (size_t)cap * sizeof *grown);
    if (!grown)
      return -1;
    o->argv = grown;
    o->cap = cap;
  }
  char *w = NULL;
  if (asprintf(&w, "%s%s", a, b ? b : "") < 0)
    return -1;
  o->argv[o->argc++] = w;
  o->argv[o->argc] = NULL;
  return 0;
}

int cuemu__nvrtc_options_add(cuemu_nvrtc_options *o, const char *a,
                             const char *b) {
  return add_word(o, a, b);
}

void cuemu__nvrtc_options_free(cuemu_nvrtc_options *o) {
  for (int i = 0; i < o->argc; ++i)
    free(o->argv[i]);
  free(o->argv);
  memset(o, 0, sizeof *o);
}

/* Options that take no value and change nothing here. */
static const char *const accepted_flags[] = {
    "-lineinfo", "--generate-line-info",
    "-extensible-whole-program", "--extensible-whole-program", "-ewp",
    "-restrict", "--restrict", "-w",
    "--disable-warnings", "-extra-device-vectorization",
    "--extra-device-vectorization", "-dopt", "--dopt", "-no-source-include",
    "--no-source-include", "-minimal",
    "--minimal", "-fdevice-syntax-only", "--fdevice-syntax-only",
    "-pch", "--pch", "-err-no", "--display-error-number",
    "-no-err-no", "--no-display-error-number", "--Wno-deprecated",
    "-gen-opt-lto", "--gen-opt-lto", "-no-cache", "--no-cache",
    "-device-stack-protector", "--device-stack-protector", NULL};

/* Options of the form NAME=VALUE that change nothing here. */
static const char *const accepted_values[] = {
    "-ftz", "--ftz", "-prec-sqrt", "--prec-sqrt", "-prec-div", "--prec-div",
    "-maxrregcount", "--maxrregcount", "-dopt", "--dopt",
    "-time", "--time", "-split-compile", "--split-compile",
    "-builtin-move-forward", "--builtin-move-forward",
    "-builtin-initializer-list", "--builtin-initializer-list",
    "-jump-table-density", "--jump-table-density", "-device-stack-protector",
    "--device-stack-protector", "-frandom-seed", "--frandom-seed",
    "-modify-stack-limit", "--modify-stack-limit", "-diag-error",
    "--diag-error", "-diag-suppress", "--diag-suppress", "-diag-warn",
    "--diag-warn", "-Xptxas", "--ptxas-options", "-create-pch", "--create-pch",
    "-use-pch", "--use-pch", "-pch-dir", "--pch-dir", "-pch-verbose",
    "--pch-verbose", "-pch-messages", "--pch-messages",
    "-instantiate-templates-in-pch", "--instantiate-templates-in-pch",
    "-optimization-info", "--optimization-info", "-Ofast-compile",
    "--Ofast-compile", "-fdevice-time-trace", "--fdevice-time-trace",
    "-brief-diag", "--brief-diagnostics", NULL};

static int listed(const char *const *list, const char *word, size_t n) {
  for (int i = 0; list[i]; ++i)
    if (strlen(list[i]) == n && strncmp(list[i], word, n) == 0)
      return 1;
  return 0;
}

/* The compute capability of "compute_90", "sm_90a", "lto_89", times ten,
 * or 0 when it is not one NVRTC 13 knows. */
static int arch_value(const char *v) {
  return cuemu__gpu_arch_value(v, strlen(v));
}

/* -std's value: C++14 and later as given, as cuemu-nvcc compiles them
 * (docs/dialects.md); C++03 and C++11 (NVRTC takes them) are compiled as
 * C++14, the oldest the shims are written in, with a note in the log. */
static int std_option(cuemu_nvrtc_options *o, const char *v,
                      cuemu_nvrtc_text *log) {
  if (strcmp(v, "c++14") == 0 || strcmp(v, "c++17") == 0 ||
      strcmp(v, "c++20") == 0 || strcmp(v, "c++23") == 0)
    return add_word(o, "-std=", v) ? NVRTC_OUT_OF_MEMORY : NVRTC_OK;
  if (strcmp(v, "c++03") == 0 || strcmp(v, "c++11") == 0) {
    cuemu__nvrtc_text_add(log,
                          "cuemu: note: -std=%s is compiled as C++14 (the "
                          "emulator's CUDA headers need at least C++14)\n",
                          v);
    return add_word(o, "-std=c++14", NULL) ? NVRTC_OUT_OF_MEMORY : NVRTC_OK;
  }
  cuemu__nvrtc_text_add(log, "nvrtc: error: invalid value for --std (-std)\n");
  return NVRTC_INVALID_OPTION;
}

int cuemu__nvrtc_options_read(int count, const char *const *options,
                              const char *header_dir,
                              cuemu_nvrtc_options *o, cuemu_nvrtc_text *log) {
  memset(o, 0, sizeof *o);
  /* The shims come first, before the program's own include paths: a
   * program that compiles with the toolkit's headers puts a copy of them
   * on its include path (the CUDA samples copy cooperative_groups.h and
   * cooperative_groups/ beside themselves and pass --include-path), and a
   * copy of cuemu's shims outside their folder would be compiled as the
   * program's own code, without the folder they include from. */
  if (add_word(o, "-I", cuemu__location_shims()))
    return NVRTC_OUT_OF_MEMORY;
  if (header_dir && add_word(o, "-I", header_dir))
    return NVRTC_OUT_OF_MEMORY;
  /* The program and its headers are named by line markers as given
   * (cuemu_nvrtc.c), often relative ("kernel.cu"); the line table would
   * join such a name to the compiler's folder, and a fault's report would
   * name "/home/me/kernel.cu". The folder is mapped away, so that reports
   * name the program as the program named it. */
  char cwd[4096], map[4200];
  if (getcwd(cwd, sizeof cwd) && !strchr(cwd, '=') &&
      snprintf(map, sizeof map, "-fdebug-prefix-map=%s=", cwd) <
          (int)sizeof map &&
      add_word(o, map, NULL))
    return NVRTC_OUT_OF_MEMORY;
  for (int i = 0; i < count; ++i) {
    const char *a = options[i];
    if (!a)
      return NVRTC_INVALID_INPUT;
    const char *eq = strchr(a, '=');
    size_t name_len = eq ? (size_t)(eq - a) : strlen(a);
    const char *value = eq ? eq + 1 : NULL;
    int r = NVRTC_OK;
    /* -I, -D, -U and -include: glued, after '=', or in the next option. */
    static const struct {
      const char *short_name, *long_name, *flag;
    } paths[] = {{"-I", "--include-path", "-I"},
                 {"-D", "--define-macro", "-D"},
                 {"-U", "--undefine-macro", "-U"},
                 {"-include", "--pre-include", "-include"}};
    int done = 0;
    for (size_t k = 0; k < sizeof paths / sizeof paths[0] && !done; ++k) {
      size_t sn = strlen(paths[k].short_name);
      const char *v = NULL;
      /* The long name takes its value after '=' or in the next option,
       * as the short one does (nvrtc.h: "--pre-include=<header>" or
       * "--pre-include <header>"). */
      if (strncmp(a, paths[k].long_name, name_len) == 0 &&
          name_len == strlen(paths[k].long_name))
        v = value;
      else if (strncmp(a, paths[k].short_name, sn) == 0 &&
               (k == 3 ? a[sn] == '=' || a[sn] == '\0' : 1))
        v = a[sn] == '=' ? a + sn + 1 : a[sn] ? a + sn : NULL;
      else
        continue;
      if (!v) {
        if (i + 1 >= count || !options[i + 1]) {
          cuemu__nvrtc_text_add(log, "nvrtc: error: %s requires a value\n",
                                a);
          return NVRTC_INVALID_OPTION;
        }
        v = options[++i];
      }
      if (k == 3)
        r = add_word(o, "-include", NULL) || add_word(o, v, NULL);
      else
        r = add_word(o, paths[k].flag, v);
      if (r)
        return NVRTC_OUT_OF_MEMORY;
      done = 1;
    }
    if (done)
      continue;
#define IS(name) (name_len == sizeof name - 1 && strncmp(a, name, name_len) == 0)
    /* -arch and -std may also take their value from the next option. */
    if (!value && (IS("-arch") || IS("--gpu-architecture") || IS("-std") ||
                   IS("--std")) &&
        i + 1 < count && options[i + 1])
      value = options[++i];
    if ((IS("-arch") || IS("--gpu-architecture")) && value) {
      o->arch = arch_value(value);
      o->arch_suffix = cuemu__gpu_arch_suffix(value, strlen(value));
      if (strncmp(value, "sm_", 3) == 0)
        o->real_arch = 1;
      o->images[0] = '\0';
      if (strncmp(value, "sm_", 3) == 0 && strlen(value) < 16)
        snprintf(o->images, sizeof o->images, "%s,compute_%s", value,
                 value + 3);
      else if (strncmp(value, "compute_", 8) == 0 &&
               strlen(value) < sizeof o->images)
        snprintf(o->images, sizeof o->images, "%s", value);
      if (!o->arch) {
        cuemu__nvrtc_text_add(
            log, "nvrtc: error: invalid value for --gpu-architecture (-arch)\n");
        return NVRTC_INVALID_OPTION;
      }
    } else if ((IS("-std") || IS("--std")) && value) {
      r = std_option(o, value, log);
      if (r)
        return r;
    } else if ((IS("-fmad") || IS("--fmad")) && value) {
      /* As cuemu-nvcc: true contracts a*b+c in the module's code into fused
       * multiply-adds, false rounds each operation (docs/nvcc-checks.md). */
      if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
        cuemu__nvrtc_text_add(log,
                              "nvrtc: error: invalid value for --fmad\n");
        return NVRTC_INVALID_OPTION;
      }
      o->fmad = strcmp(value, "true") == 0 ? 2 : 1;
    } else if (!value && (IS("-use_fast_math") || IS("--use_fast_math"))) {
      o->fast_math = 1;
    } else if (IS("-G") || IS("--device-debug")) {
      o->debug = 1;
    } else if ((IS("-rdc") || IS("--relocatable-device-code")) && value &&
               (!strcmp(value, "true") || !strcmp(value, "false"))) {
      /* The module's external device functions and variables are then
       * visible to cuLink*. */
      o->rdc = !strcmp(value, "true");
    } else if (!value && (IS("-dc") || IS("--device-c"))) {
      o->rdc = 1;
    } else if (!value && (IS("-dlto") || IS("--dlink-time-opt") ||
                          IS("--dlto") || IS("-lto"))) {
      /* LTO IR for nvJitLink (nvrtcGetLTOIR): the module, which links as
       * relocatable device code does (-dlto implies -rdc=true). */
      o->lto = 1;
      o->rdc = 1;
    } else if (!value && (IS("-dw") || IS("--device-w"))) {
      /* NVRTC's documentation: --device-w is --relocatable-device-code=false. */
      o->rdc = 0;
      o->lto = 0;
    } else if (!value && (IS("-device-int128") || IS("--device-int128"))) {
      /* NVRTC defines the macro that CCCL tests for __int128 in device
       * code; the host compiler has the type anyway. */
      if (add_word(o, "-D__CUDACC_RTC_INT128__", NULL))
        return NVRTC_OUT_OF_MEMORY;
    } else if (!value &&
               (IS("-device-float128") || IS("--device-float128"))) {
      if (add_word(o, "-D__CUDACC_RTC_FLOAT128__", NULL))
        return NVRTC_OUT_OF_MEMORY;
    } else if (!value && (IS("-default-device") ||
                          IS("--device-as-default-execution-space"))) {
      /* Functions and variables without an execution space are device
       * ones: cuemu's GCC plugin then judges no body for host calls
       * (cuemu_gcc_plugin_spaces.cc). */
      if (add_word(o, "-D__CUEMU_DEFAULT_DEVICE", NULL))
        return NVRTC_OUT_OF_MEMORY;
    } else if (!value && (IS("-expt-relaxed-constexpr") ||
                          IS("--expt-relaxed-constexpr"))) {
      /* Device code may call constexpr host functions: cuemu's GCC plugin
       * reads nvcc's macro for it (cuemu_gcc_plugin_spaces.cc). */
      if (add_word(o, "-D__CUDACC_RELAXED_CONSTEXPR__=1", NULL))
        return NVRTC_OUT_OF_MEMORY;
    } else if (!value && listed(accepted_flags, a, name_len)) {
      /* accepted; no effect here */
    } else if (value && listed(accepted_values, a, name_len)) {
      /* accepted; no effect here */
    } else {
      cuemu__nvrtc_text_add(log, "nvrtc: error: unrecognized option %s found\n",
                            a);
      return NVRTC_INVALID_OPTION;
    }
#undef IS
  }
  return NVRTC_OK;
}
