/*
 * cuemu_nvrtc_internal.h: what the files of NVRTC share inside libcuemu
 * (see cuemu_nvrtc.h).
 */
#ifndef CUEMU_NVRTC_INTERNAL_H
#define CUEMU_NVRTC_INTERNAL_H

#include <stddef.h>

/* nvrtcResult's values. */
enum {
  NVRTC_OK = 0,
  NVRTC_OUT_OF_MEMORY = 1,
  NVRTC_PROGRAM_CREATION_FAILURE = 2,
  NVRTC_INVALID_INPUT = 3,
  NVRTC_INVALID_PROGRAM = 4,
  NVRTC_INVALID_OPTION = 5,
  NVRTC_COMPILATION = 6,
  NVRTC_BUILTIN_OPERATION_FAILURE = 7,
  NVRTC_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  NVRTC_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  NVRTC_NAME_EXPRESSION_NOT_VALID = 10,
  NVRTC_INTERNAL_ERROR = 11,
  NVRTC_NO_PCH_CREATE_ATTEMPTED = 13,
  NVRTC_CANCELLED = 16
};

/* A growable text (the log). */
typedef struct cuemu_nvrtc_text {
  char *s;
  size_t len, cap;
} cuemu_nvrtc_text;

/* Appends printf-style text; returns 0, or -1 when out of memory. */
int cuemu__nvrtc_text_add(cuemu_nvrtc_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* NVRTC's options, read into what cuemu_compile() takes. */
typedef struct cuemu_nvrtc_options {
  char **argv; /* -I, -D, -U, -std, -include words (owned) */
  int argc, cap;
  int arch;    /* -arch's compute capability * 10; 0: the default */
  int debug;   /* -G */
  int rdc;     /* -rdc=true, -dc: the module's device functions and
                  variables can be linked (cuLink*) */
  int lto;     /* -dlto: the module is also the program's LTO IR */
  int arch_suffix; /* -arch's 'a' (sm_90a) or 'f' (sm_100f), or 0 */
  int real_arch; /* an -arch named a real architecture (sm_XX): NVRTC makes
                    a cubin only then (compute_XX, lto_XX and the default,
                    compute_75, are virtual) */
  char images[48]; /* the images the module stands for, as the module's
                      cuemu_arch_images ("compute_100"; "sm_90,compute_90"
                      for -arch=sm_90, whose cubin and PTX the program may
                      load), so that a device too old for them refuses it
                      as a driver does; "": every device runs it */
  int fmad;    /* -fmad: 0 not given, 1 false, 2 true */
  int fast_math; /* --use_fast_math */
} cuemu_nvrtc_options;

/* Reads `count` NVRTC options into *out (zeroed first). An unknown option
 * or a bad value is NVRTC_INVALID_OPTION with NVRTC's line in `log`.
 * Include folders of the program's headers come first: `header_dir` (may
 * be NULL) is put on the include path. */
int cuemu__nvrtc_options_read(int count, const char *const *options,
                              const char *header_dir,
                              cuemu_nvrtc_options *out,
                              cuemu_nvrtc_text *log);
void cuemu__nvrtc_options_free(cuemu_nvrtc_options *o);

/* Adds the word a followed by b (may be NULL) to o's words; returns 0, or
 * -1 when out of memory. */
int cuemu__nvrtc_options_add(cuemu_nvrtc_options *o, const char *a,
                             const char *b);

/* Whether `name` is a header that cuemu's CUDA headers include from the
 * host's library (the C library, <type_traits>, <limits>, ...): a
 * program's header of that name is then found by #include "name" only,
 * and #include <name> gets the host's (cuemu_nvrtc_headers.c). */
int cuemu__nvrtc_host_header(const char *name);

/* Whether `message` (len characters: the text of a "fatal error" of the
 * host compiler, after "FILE:LINE:COL: fatal error: ") says that an
 * include cannot be found: GCC's "NAME: No such file or directory" or
 * Clang's "'NAME' file not found". Sets the name's start and length and
 * returns 1, or returns 0 (cuemu_nvrtc_headers.c). */
int cuemu__nvrtc_missing_header(const char *message, size_t len,
                                const char **name, size_t *name_len);

/* The texts of a program that its log shows lines of: the program's
 * source under its name, and its headers under their include names. */
typedef struct cuemu_nvrtc_sources {
  const char *name, *source;
  int header_count;
  char *const *include_names, *const *headers;
} cuemu_nvrtc_sources;

/* Appends the host compiler's messages `text` (NUL-terminated, the
 * program's folders already dropped from its paths) to `log` in NVRTC's
 * form (cuemu_nvrtc_log.c): each "FILE:LINE:COL: error: TEXT" becomes
 * "FILE(LINE): error: TEXT" followed by the source line and a caret under
 * the column, where FILE is the program or one of its headers, and a
 * blank line; an include the compiler cannot find is NVRTC's
 * "catastrophic error: cannot open source file "NAME""; the compiler's own
 * context and source lines are dropped; a last line counts the errors as
 * NVRTC's does ("2 errors detected in the compilation of "NAME"."). Returns
 * 0, or -1 when out of memory. */
int cuemu__nvrtc_log_messages(cuemu_nvrtc_text *log, const char *text,
                              const cuemu_nvrtc_sources *sources);

#endif /* CUEMU_NVRTC_INTERNAL_H */
