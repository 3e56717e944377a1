/*
 * cuemu_device_bare_return.c: `return;` in a device function that returns
 * a value.
 *
 * nvcc's front end takes a `return;` without a value in a __device__
 * function whose return type is not void, with its warning #117-D
 * (`non-void function "rtw::march" should return a value`): the function
 * then returns an unspecified value from there (its PTX leaves the return
 * register as it is). nvcc's host compile never sees the body of a
 * device-only function, so the program builds, as ray marchers written
 * for nvcc show. g++ refuses the statement ("return-statement with no
 * value, in function returning 'int'"), so the device pass makes each such
 * `return;` of the function's own body `return {};` (a value-initialized
 * result, one unspecified value among others), and the host pass, whose
 * stub of the body has none of its statements, gives nvcc's warning at its
 * line. Left to g++, which refuses them as nvcc's host compile does: the
 * `return;` of a __host__ __device__ function. Left alone: a template's
 * (its return type may be void in an instance), and a function returning a
 * reference, whose `return {};` would not compile either.
 */
#include <stdio.h>
#include <string.h>

#include "cuemu_rewriter.h"

/* Whether token k is a specifier that may stand before a function's name
 * where the function has no return type (a constructor). */
static int specifier(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {
      "__device__", "__host__", "__forceinline__", "__noinline__", "inline",
      "__inline__", "static",   "virtual",         "explicit",     "constexpr",
      "consteval",  "extern",   "friend",          "__global__"};
  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
    if (cuemu__rw_is(rw, k, words[w]))
      return 1;
  return 0;
}

/* The `(` of the parameters of the function declared from token `start`
 * to its body's `{` at `brace`, or rw->n for a declaration this file leaves
 * alone (a template's, an operator's, one it does not understand). */
static size_t parameters(const cuemu_rewriter *rw, size_t start,
                         size_t brace) {
  for (size_t k = start; k < brace; k++) {
    size_t past = cuemu__rw_skip_attribute(rw, k);
    if (past != k) {
      k = past - 1;
      continue;
    }
    if (cuemu__rw_is(rw, k, "template") || cuemu__rw_is(rw, k, "operator") ||
        cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, ";"))
      return rw->n;
    if (cuemu__rw_is(rw, k, "<")) {
      size_t close = cuemu__rw_template_close(rw, k);
      if (close >= brace)
        return rw->n;
      k = close;
      continue;
    }
    if (cuemu__rw_is(rw, k, "("))
      return k > start && cuemu__rw_ident(rw, k - 1) ? k : rw->n;
  }
  return rw->n;
}

/* Whether the type from token `from` to the body at `brace` (a trailing
 * return type) is one this file gives a value: not void, not a reference. */
static int trailing_value(const cuemu_rewriter *rw, size_t from,
                          size_t brace) {
  if (from >= brace || cuemu__rw_is(rw, brace - 1, "&") ||
      cuemu__rw_is(rw, brace - 1, "&&"))
    return 0;
  return !(cuemu__rw_is(rw, from, "void") && from + 1 == brace);
}

/* Whether the function whose parameters open at token `open`, declared
 * from token `start`, with its body at `brace`, returns a value of a type
 * that `return {};` gives; *name is set to the first token of its
 * (perhaps qualified) name. */
static int returns_value(const cuemu_rewriter *rw, size_t start, size_t open,
                         size_t brace, size_t *name) {
  size_t close = cuemu__rw_close(rw, open);
  if (close >= brace)
    return 0;
  size_t arrow = rw->n;
  for (size_t k = close + 1; k < brace; k++)
    if (cuemu__rw_is(rw, k, "->")) {
      arrow = k;
      break;
    }
  /* The name, with its qualification (`Sphere::hit`, `a::b::f`). */
  size_t first = open - 1;
  while (first >= start + 2 && cuemu__rw_is(rw, first - 1, "::") &&
         cuemu__rw_ident(rw, first - 2))
    first -= 2;
  *name = first;
  if (first == start || cuemu__rw_is(rw, first - 1, "~"))
    return 0; /* a constructor or a destructor */
  size_t type = first - 1;
  if (cuemu__rw_is(rw, type, "auto"))
    return arrow < rw->n && trailing_value(rw, arrow + 1, brace);
  if (cuemu__rw_is(rw, type, "void") || cuemu__rw_is(rw, type, "&") ||
      cuemu__rw_is(rw, type, "&&") || cuemu__rw_is(rw, type, ")") ||
      specifier(rw, type))
    return 0;
  return 1;
}

/* The name of the class whose body encloses token k, or NULL: the
 * identifier after the `struct`, `class` or `union` before the `{` that
 * opens the innermost brace around k. */
static const cuemu_token *enclosing_class(const cuemu_rewriter *rw,
                                          size_t k) {
  size_t depth = 0;
  while (k > 0) {
    k--;
    if (cuemu__rw_is(rw, k, "}")) {
      depth++;
      continue;
    }
    if (!cuemu__rw_is(rw, k, "{"))
      continue;
    if (depth > 0) {
      depth--;
      continue;
    }
    for (size_t p = k; p > 0; p--) {
      if (cuemu__rw_is(rw, p - 1, ";") || cuemu__rw_is(rw, p - 1, "{") ||
          cuemu__rw_is(rw, p - 1, "}"))
        return NULL;
      if ((cuemu__rw_is(rw, p - 1, "struct") ||
           cuemu__rw_is(rw, p - 1, "class") ||
           cuemu__rw_is(rw, p - 1, "union")) &&
          cuemu__rw_ident(rw, p))
        return &rw->toks[p];
    }
    return NULL;
  }
  return NULL;
}

/* Appends `length` bytes of `text` to buf (of size n, *used so far), when
 * they fit. */
static void append(char *buf, size_t n, size_t *used, const char *text,
                   size_t length) {
  if (*used + length + 1 > n)
    return;
  memcpy(buf + *used, text, length);
  *used += length;
  buf[*used] = '\0';
}

cuemu_status cuemu__device_bare_returns(cuemu_rewriter *rw, const char *ns,
                                        size_t start, size_t brace) {
  size_t open = parameters(rw, start, brace), name = rw->n;
  if (open >= rw->n || !returns_value(rw, start, open, brace, &name))
    return CUEMU_SUCCESS;
  /* The body: after a constructor's member initializers there are none
   * here (a constructor returns no value), so `brace` opens it. */
  size_t close = cuemu__rw_close(rw, brace);
  if (close >= rw->n)
    return CUEMU_SUCCESS;
  /* nvcc's name of the function: its namespace, its class (for a member
   * defined in its class body) and its name as written. */
  char function[256];
  size_t used = 0;
  function[0] = '\0';
  if (ns && ns[0]) {
    append(function, sizeof function, &used, ns, strlen(ns));
    append(function, sizeof function, &used, "::", 2);
  }
  const cuemu_token *cls = enclosing_class(rw, start);
  if (cls) {
    append(function, sizeof function, &used, rw->text + cls->offset,
           cls->length);
    append(function, sizeof function, &used, "::", 2);
  }
  for (size_t k = name; k < open; k++)
    append(function, sizeof function, &used, rw->text + rw->toks[k].offset,
           rw->toks[k].length);
  int edit = rw->pass != CUEMU_PASS_HOST, warn = rw->pass != CUEMU_PASS_DEVICE;
  return cuemu__rw_bare_returns(rw, brace, close, " {}", edit, warn, function);
}
