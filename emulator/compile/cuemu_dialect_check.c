/*
 * cuemu_dialect_check.c: what cuemu-nvcc can check of a dialect older than
 * C++14 (-std=c++11, -std=c++03), which it compiles as C++14 (the shims
 * need C++14: docs/dialects.md). nvcc refuses a generic lambda there
 * ("\"auto\" is not allowed here"); the translation lists the user's
 * lambdas with their parameter types (cuemu_lambda_passes.c), so one with
 * a parameter of type auto is the same refusal, at its file and line.
 */
#include <ctype.h>
#include <string.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"
#include "cuemu_rewrite.h"

/* Non-zero when `text` holds the word `word` (not inside an identifier). */
static int has_word(const char *text, const char *word) {
  const size_t n = strlen(word);
  for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
    const int before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
    const int after = isalnum((unsigned char)p[n]) || p[n] == '_';
    if (!before && !after)
      return 1;
  }
  return 0;
}

cuemu_status cuemu__dialect_check(const cuemu_rewrite *rw,
                                  const char *dialect) {
  if (!dialect)
    return CUEMU_SUCCESS;
  for (int i = 0; i < rw->lambda_count; ++i)
    if (rw->lambdas[i].signature && has_word(rw->lambdas[i].signature, "auto"))
      return cuemu__report(CUEMU_COMPILE,
                           "%s: error: a generic lambda (a parameter of type "
                           "auto) is C++14, and the unit is compiled with "
                           "-std=c++%s (nvcc: \"auto\" is not allowed here)",
                           rw->lambdas[i].where, dialect);
  return CUEMU_SUCCESS;
}
