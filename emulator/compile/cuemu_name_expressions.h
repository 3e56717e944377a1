/*
 * cuemu_name_expressions.h: name expressions that use the source's macros.
 *
 * NVRTC evaluates a name expression (nvrtcAddNameExpression, CuPy's
 * name_expressions) at the end of the program, where the program's macros
 * are defined: "scale<float, BLOCK>" with `-DBLOCK=128` or a `#define BLOCK`
 * in the source names scale<float, 128>. cuemu's kernel table follows the
 * preprocessed unit, where no macro is left, so such an expression is
 * expanded first: the source is preprocessed once more with the expressions
 * after it, between markers (only when some identifier of an expression
 * does not occur in the preprocessed unit, as a macro's name does not).
 */
#ifndef CUEMU_NAME_EXPRESSIONS_H
#define CUEMU_NAME_EXPRESSIONS_H

#include <stddef.h>
#include <stdio.h>

/* Non-zero when an identifier of one of the `count` expressions is not a
 * token of the preprocessed text [text, text + size): it can only be a
 * macro (or a name the compile will refuse anyway). */
int cuemu__name_expressions_use_macros(const char *text, size_t size,
                                       const char *const *names, int count);

/* Writes the probe: an #include of `source` (an absolute path) followed by
 * each expression between markers. Returns 0, or -1 when `source` cannot
 * be named in an #include or on a write error. */
int cuemu__name_expressions_write_probe(FILE *out, const char *source,
                                        const char *const *names, int count);

/* Reads the `count` expanded expressions from the probe's preprocessed
 * text, each with its white space collapsed to single spaces. Returns a
 * malloc'ed array of malloc'ed strings (cuemu__name_expressions_free()),
 * or NULL when the markers are not all there or memory runs out. */
char **cuemu__name_expressions_read_probe(const char *text, size_t size,
                                          int count);

void cuemu__name_expressions_free(char **expanded, int count);

#endif /* CUEMU_NAME_EXPRESSIONS_H */
