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
 * deleted one or one defaulted out of its class, nor a destructor that is
 * virtual because a base's is (a base of a base too), without the word:
 * the bases are found by name among the unit's class definitions; a base
 * that names a parameter of the class's template is not looked into, as
 * nvcc cannot see into it at the definition and warns. Members of nested,
 * local and template classes are judged as others, as nvcc does. nvcc's
 * front end runs once for its device compile and once for its host
 * compile, and each gives the unit's warnings: so does each of cuemu's
 * passes, the device pass's first, as nvcc prints them.
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

static int virtual_destructor(const cuemu_rewriter *rw, size_t name, int level);

/* Whether a base named in the class head from token `head` to its body's
 * `{` at token `brace` has a virtual destructor; a base whose name or
 * arguments name a parameter of the class's template does not count. */
static int base_virtual_destructor(const cuemu_rewriter *rw, size_t head,
                                   size_t brace, int level) {
  size_t colon = rw->n, params = rw->n, params_end = rw->n;
  for (size_t k = head; k < brace; k++) {
    if (cuemu__rw_is(rw, k, "template") && cuemu__rw_is(rw, k + 1, "<")) {
      params = k + 1;
      params_end = cuemu__rw_template_close(rw, k + 1);
      if (params_end >= brace)
        return 0;
      k = params_end;
    } else if (cuemu__rw_is(rw, k, "<")) {
      size_t close = cuemu__rw_template_close(rw, k);
      if (close >= brace)
        return 0;
      k = close;
    } else if (cuemu__rw_is(rw, k, ":") && colon == rw->n)
      colon = k;
  }
  for (size_t k = colon + 1; k < brace; k++) {
    /* One base: its name is the last identifier before its arguments or
     * its `,`. */
    size_t name = rw->n, end = k;
    int dependent = 0;
    for (; end < brace && !cuemu__rw_is(rw, end, ","); end++) {
      if (cuemu__rw_is(rw, end, "<")) {
        size_t close = cuemu__rw_template_close(rw, end);
        for (size_t a = end; a < close && a < brace; a++)
          for (size_t p = params; params_end < brace && p < params_end; p++)
            dependent |= cuemu__rw_ident(rw, a) && cuemu__rw_ident(rw, p) &&
                         cuemu__rw_same(rw, a, p);
        end = close;
      } else if (cuemu__rw_ident(rw, end) && !cuemu__rw_is(rw, end, "public") &&
                 !cuemu__rw_is(rw, end, "private") &&
                 !cuemu__rw_is(rw, end, "protected") &&
                 !cuemu__rw_is(rw, end, "virtual"))
        name = end;
    }
    if (name < brace && !dependent && virtual_destructor(rw, name, level + 1))
      return 1;
    k = end;
  }
  return 0;
}

/* Whether the class named as token `name` (found by its definition in the
 * unit) declares its destructor virtual (`virtual`, `override` or `final`
 * in the declaration) or has a base whose destructor is. */
static int virtual_destructor(const cuemu_rewriter *rw, size_t name,
                              int level) {
  if (level > 16)
    return 0;
  for (size_t c = 1; c + 1 < rw->n; c++) {
    if (!(cuemu__rw_is(rw, c - 1, "struct") ||
          cuemu__rw_is(rw, c - 1, "class")) ||
        c == name || !cuemu__rw_same(rw, c, name))
      continue;
    size_t brace = c + 1;
    if (cuemu__rw_is(rw, brace, "final"))
      brace++;
    if (!cuemu__rw_is(rw, brace, "{") && !cuemu__rw_is(rw, brace, ":"))
      continue;
    while (brace < rw->n && !cuemu__rw_is(rw, brace, "{") &&
           !cuemu__rw_is(rw, brace, ";"))
      brace++;
    if (brace >= rw->n || !cuemu__rw_is(rw, brace, "{"))
      continue;
    size_t close = cuemu__rw_close(rw, brace);
    /* Its destructor's declaration, among the members. */
    size_t member = brace + 1;
    for (size_t k = brace + 1; k < close && k < rw->n; k++) {
      if (cuemu__rw_is(rw, k, "{") || cuemu__rw_is(rw, k, "(")) {
        k = cuemu__rw_close(rw, k);
        if (cuemu__rw_is(rw, k, "}"))
          member = k + 1;
        continue;
      }
      if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, ":"))
        member = k + 1;
      if (cuemu__rw_is(rw, k, "~") && cuemu__rw_same(rw, k + 1, c)) {
        size_t end = k;
        while (end < close && !cuemu__rw_is(rw, end, ";") &&
               !cuemu__rw_is(rw, end, "{") && !cuemu__rw_is(rw, end, "="))
          end++;
        for (size_t v = member; v < end; v++)
          if (cuemu__rw_is(rw, v, "virtual") ||
              cuemu__rw_is(rw, v, "override") || cuemu__rw_is(rw, v, "final"))
            return 1;
      }
    }
    size_t head = c;
    while (head > 0 && !cuemu__rw_is(rw, head - 1, ";") &&
           !cuemu__rw_is(rw, head - 1, "{") && !cuemu__rw_is(rw, head - 1, "}"))
      head--;
    return base_virtual_destructor(rw, head, brace, level);
  }
  return 0;
}

/* Whether the destructor whose declaration starts at token start is
 * virtual through a base of its class. */
static int virtual_through_base(const cuemu_rewriter *rw, size_t start) {
  long depth = 0;
  size_t brace = start;
  while (brace > 0) {
    size_t p = brace - 1;
    if (cuemu__rw_is(rw, p, "}"))
      depth++;
    else if (cuemu__rw_is(rw, p, "{") && depth-- == 0)
      break;
    brace = p;
  }
  if (brace == 0)
    return 0;
  brace--;
  size_t head = brace;
  while (head > 0 && !cuemu__rw_is(rw, head - 1, ";") &&
         !cuemu__rw_is(rw, head - 1, "{") && !cuemu__rw_is(rw, head - 1, "}"))
    head--;
  return base_virtual_destructor(rw, head, brace, 0);
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
  for (size_t k = open; k < i; k++)
    if (cuemu__rw_is(rw, k, "override") || cuemu__rw_is(rw, k, "final"))
      return; /* virtual */
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
  if (cuemu__rw_is(rw, first, "~") && virtual_through_base(rw, start))
    return;
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
