/*
 * cuemu_defaulted_space.c: nvcc's warning #20012-D, an execution space on a
 * function explicitly defaulted on its first declaration.
 *
 * A member function defaulted where its class declares it (`__host__
 * __device__ vec3() = default;`) is implicitly __host__ __device__, as an
 * implicit member is, and nvcc 13.0 says that the written space is
 * ignored: "__host__ annotation is ignored on a non-virtual
 * function("vec3") that is explicitly defaulted on its first declaration",
 * once for each __host__ and each __device__ of the declaration, in their
 * order, the function named as written ("~vec3", "operator="). A virtual
 * one (`virtual` written in the declaration) gets none, nor does a
 * deleted one or one defaulted out of its class. nvcc's front end runs
 * once for its device compile and once for its host compile, and each
 * gives the unit's warnings: so does each of cuemu's passes, the device
 * pass's first, as nvcc prints them. A destructor that is virtual
 * because its base's is, without the word, is warned, where nvcc is
 * silent.
 */
#include <stdio.h>
#include <string.h>

#include "cuemu_rewriter.h"

/* The first token of the member declaration whose `=` of `= default` is
 * token eq: past the `;`, `{` or `}` before it and an access specifier's
 * `:`. */
static size_t declaration_start(const cuemu_rewriter *rw, size_t eq) {
  size_t k = eq;
  long depth = 0;
  while (k > 0) {
    size_t p = k - 1;
    if (cuemu__rw_is(rw, p, ")") || cuemu__rw_is(rw, p, "]"))
      depth++;
    else if (cuemu__rw_is(rw, p, "(") || cuemu__rw_is(rw, p, "[")) {
      if (depth-- == 0)
        return rw->n;
    } else if (depth == 0 &&
               (cuemu__rw_is(rw, p, ";") || cuemu__rw_is(rw, p, "{") ||
                cuemu__rw_is(rw, p, "}") || cuemu__rw_is(rw, p, ":")))
      return k;
    k = p;
  }
  return 0;
}

void cuemu__defaulted_space_check(cuemu_rewriter *rw, size_t i) {
  if (i < 1 || !cuemu__rw_is(rw, i - 1, "=") || !cuemu__rw_is(rw, i + 1, ";") ||
      (rw->toks[i].flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)))
    return;
  size_t start = declaration_start(rw, i - 1);
  if (start >= i)
    return;
  /* The function's name: the tokens before the `(` of its parameters
   * (`vec3`, `~vec3`, `operator=`), past attributes. */
  size_t open = rw->n;
  for (size_t k = start; k < i; k++) {
    size_t past = cuemu__rw_skip_attribute(rw, k);
    if (past != k) {
      k = past - 1;
      continue;
    }
    if (cuemu__rw_is(rw, k, "virtual") || cuemu__rw_is(rw, k, "friend"))
      return;
    if (cuemu__rw_is(rw, k, "(")) {
      open = k;
      break;
    }
  }
  if (open >= i || open == start)
    return;
  size_t first = open - 1;
  if (cuemu__rw_ident(rw, first)) {
    if (first > start && cuemu__rw_is(rw, first - 1, "~"))
      first--;
  } else {
    /* `operator=`, `operator==`: back to the `operator`. */
    while (first > start && !cuemu__rw_is(rw, first, "operator"))
      first--;
    if (!cuemu__rw_is(rw, first, "operator"))
      return;
  }
  char name[128];
  size_t used = 0;
  for (size_t k = first; k < open; k++) {
    size_t n = rw->toks[k].length;
    if (used + n + 1 > sizeof name)
      return;
    memcpy(name + used, rw->text + rw->toks[k].offset, n);
    used += n;
  }
  name[used] = '\0';
  for (size_t k = start; k < open; k++) {
    int host = cuemu__rw_is(rw, k, "__host__");
    if (!host && !cuemu__rw_is(rw, k, "__device__"))
      continue;
    char what[320];
    snprintf(what, sizeof what,
             "%s annotation is ignored on a non-virtual function(\"%s\") "
             "that is explicitly defaulted on its first declaration",
             host ? "__host__" : "__device__", name);
    cuemu__rw_diagnose(rw, k,
                       cuemu__rw_diag_level(rw, rw->toks[k].offset, 20012,
                                            rw->warn_defaulted_space),
                       "20012-D", what);
  }
}
