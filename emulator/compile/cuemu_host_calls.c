/*
 * cuemu_host_calls.c: host functions that call CUDA's device-only
 * functions, refused by the translation where the host compile cannot.
 *
 * nvcc refuses a host function's call of a device-only function ("calling
 * a __device__ function("__int_as_float") from a __host__ function("main")
 * is not allowed"). cuemu's host pass usually reads the lean prelude,
 * whose declarations of those functions carry GCC's `error` attribute
 * (cuemu_host_decls.h), so that the host compiler refuses such a call. A
 * unit whose host pass reads the whole prelude instead (it includes CUB or
 * Thrust, or keeps device code: cuemu_compile.c's build()) has their
 * definitions, and compiled the call silently: a trial's program that
 * tagged particle types with __int_as_float in main built with cuemu and
 * not with nvcc. There the translation refuses it: in the body of a
 * namespace-scope function of the user's code that is neither a template
 * nor device code, an unqualified call of a name of
 * cuemu_device_only_names.h (made from the lean prelude by
 * scripts/device_only_names.py). A __device__ lambda ends the search in
 * that body (its own code may call them); member functions, templates and
 * system headers are not searched (nvcc checks templates when they are
 * instantiated, which the translation cannot see).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_device_only_names.h"
#include "cuemu_rewriter.h"

static int name_order(const void *key, const void *entry) {
  return strcmp((const char *)key, *(const char *const *)entry);
}

/* Whether identifier token i names a device-only function. */
static int device_only(const cuemu_rewriter *rw, size_t i) {
  char word[64];
  const cuemu_token *t = &rw->toks[i];
  if (t->length >= sizeof word) return 0;
  memcpy(word, rw->text + t->offset, t->length);
  word[t->length] = '\0';
  return bsearch(word, cuemu_device_only_names,
                 sizeof cuemu_device_only_names /
                     sizeof cuemu_device_only_names[0],
                 sizeof cuemu_device_only_names[0], name_order) != NULL;
}

size_t cuemu__host_body_name(const cuemu_rewriter *rw, size_t start,
                             size_t brace) {
  size_t k = brace;
  while (k > start && (cuemu__rw_is(rw, k - 1, "const") ||
                       cuemu__rw_is(rw, k - 1, "noexcept") ||
                       cuemu__rw_is(rw, k - 1, "override") ||
                       cuemu__rw_is(rw, k - 1, "final")))
    k--;
  if (k <= start || !cuemu__rw_is(rw, k - 1, ")")) return rw->n;
  for (size_t j = start; j < k; ++j)
    if (cuemu__rw_is(rw, j, "template") || cuemu__rw_is(rw, j, "__device__") ||
        cuemu__rw_is(rw, j, "__global__") || cuemu__rw_is(rw, j, "operator") ||
        cuemu__rw_is(rw, j, "="))
      return rw->n;
  size_t open = cuemu__rw_open(rw, k - 1);
  if (open == (size_t)-1 || open <= start || !cuemu__rw_ident(rw, open - 1))
    return rw->n;
  return open - 1;
}

void cuemu__host_call_check(cuemu_rewriter *rw, size_t i, size_t caller) {
  const cuemu_token *t = &rw->toks[i];
  if ((t->flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)) ||
      !cuemu__rw_is(rw, i + 1, "(") || !device_only(rw, i))
    return;
  /* A member (x.f(), p->f()) or a qualified name (ns::f(); ::f() is the
   * global one) is another function. */
  if (i > 0 && (cuemu__rw_is(rw, i - 1, ".") || cuemu__rw_is(rw, i - 1, "->")))
    return;
  if (i > 0 && cuemu__rw_is(rw, i - 1, "::") && i > 1 &&
      (cuemu__rw_ident(rw, i - 2) || cuemu__rw_is(rw, i - 2, ">")))
    return;
  const char *file;
  int line;
  char message[512];
  cuemu__rw_where(rw, t->line, &file, &line);
  snprintf(message, sizeof message,
           "%s:%d: error: calling a __device__ function(\"%.*s\") from a "
           "__host__ function(\"%.*s\") is not allowed\n",
           file, line, (int)t->length, rw->text + t->offset,
           (int)rw->toks[caller].length, rw->text + rw->toks[caller].offset);
  cuemu__sb_str(&rw->diagnostics, message);
  rw->diagnostic_errors++;
}
