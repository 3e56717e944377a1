/*
 * cuemu_pp_prelude.h: the preprocessing pass without the prelude's text
 * (cuemu_pp_prelude.c), used by cuemu_compile.c's preprocessing.
 */
#ifndef CUEMU_PP_PRELUDE_H
#define CUEMU_PP_PRELUDE_H

#include <limits.h>
#include <stddef.h>

/* One preprocessing command's shortcut: filled in by
 * cuemu__pp_prelude_prepare(), used by cuemu__pp_prelude_finish() and
 * released by cuemu__pp_prelude_free(). */
typedef struct cuemu_pp_prelude {
  const char **argv;         /* the command that reads the prelude's macros
                              * instead of the prelude, or NULL */
  char macros[PATH_MAX + 96]; /* the header of the prelude's macros */
  char entry[PATH_MAX + 96];  /* the cache entry's copy */
  char *payload;              /* the entry's contents */
  const char *text;           /* the prelude, preprocessed */
  size_t text_len;
  const char *deps;           /* the headers the prelude reads, as words of
                               * a make-style list */
  size_t deps_len;
  const char *output, *depfile, *source; /* words of the command */
} cuemu_pp_prelude;

/* Prepares the shortcut of the preprocessing command `argv` (NULL-
 * terminated; `... -MD -MF DEPFILE ... -E -x c++ SOURCE -o OUTPUT`), whose
 * first forced include is the shims' `runtime_header` (the prelude): from
 * the compile cache's entry of the prelude preprocessed with the command's
 * flags (made on a miss), writes the prelude's macros to a header beside
 * `temp` and sets pp->argv to the command with that header in the
 * prelude's place. `source_words` (NULL-terminated, at most 4) are the
 * command's words of the source's folder, which change nothing the prelude
 * reads or writes (its -iquote; the -fmacro-prefix-map of __FILE__ where no
 * folder of the prelude is under it), `context` the compiler's context
 * key, `search` the folders the prelude's headers are searched in (see
 * cuemu_cache_build). Returns 0, or -1 when the command must run as it is
 * (clang++, a preprocessing option that the shortcut does not keep, a
 * prelude that prints messages or keeps state that macros do not carry,
 * no usable cache). */
int cuemu__pp_prelude_prepare(cuemu_pp_prelude *pp, const char *const *argv,
                              const char *runtime_header,
                              const char *const *source_words,
                              const char *context,
                              const char *const *search, const char *temp);

/* After pp->argv ran: puts the prelude's text back into its output, and
 * the prelude's headers in place of the macros' header into its dependency
 * list, so that both are what the command itself would have written (but
 * for line markers of headers entered again, whose guards skip their text).
 * Returns 0, or -1 when the output does not have the expected form. */
int cuemu__pp_prelude_finish(cuemu_pp_prelude *pp);

/* Releases what cuemu__pp_prelude_prepare() made (a zeroed pp is fine). */
void cuemu__pp_prelude_free(cuemu_pp_prelude *pp);

#endif
