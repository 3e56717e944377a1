/*
 * cuemu_kernel_forward.c: the host pass's body of the user's kernel
 * template calls the device pass's instance with the kernel's own
 * parameters (CUEMU_KERNEL_HOST_FORWARD, see cuemu_kernel_instance.c), so
 * that the host compiler never sees the kernel's code, as nvcc's host
 * compile never does (`-Xcompiler -Wall` warns about host code only).
 *
 * This file spells the arguments of that call: each parameter's name, a
 * pack's expanded (`rest...`), and a name made up (cuemu_param_N) for a
 * parameter that has none, written into the host pass's declaration:
 *
 *   template <typename T, typename... Ts>
 *   __global__ void k(T *x, int, Ts..., const int idx[4], void (*)(int))
 *
 * is forwarded as `(x, cuemu_param_1, cuemu_param_2..., idx,
 * cuemu_param_4)`. An array parameter is a pointer, and is forwarded by
 * its name like any other.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cuemu_rewriter.h"

/* The kinds of token that end a parameter's type, never its name, before
 * an identifier (`struct S`, `a::b`). */
static int type_prefix(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {"::", "struct", "class", "enum",
                                      "union", "typename", NULL};
  for (int w = 0; words[w]; w++)
    if (cuemu__rw_is(rw, k, words[w]))
      return 1;
  return 0;
}

int cuemu__parameter_named(const cuemu_rewriter *rw, size_t from, size_t to) {
  if (to - from < 2 || !cuemu__rw_ident(rw, to - 1) ||
      cuemu__type_word(rw, to - 1) || type_prefix(rw, to - 2))
    return 0;
  /* `const T`: only qualifiers before it, so it is the type. */
  for (size_t k = from; k < to - 1; k++)
    if (!cuemu__rw_is(rw, k, "const") && !cuemu__rw_is(rw, k, "volatile"))
      return 1;
  return 0;
}

/* The token after the bracketed group that opens at token k (or k + 1
 * when token k opens none). */
static size_t after_group(const cuemu_rewriter *rw, size_t k) {
  if (cuemu__rw_is(rw, k, "<"))
    return cuemu__rw_template_close(rw, k) + 1;
  if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
      cuemu__rw_is(rw, k, "{"))
    return cuemu__rw_close(rw, k) + 1;
  return k + 1;
}

/* Appends the argument that forwards the parameter declared by tokens
 * [from, to), the `index`th, naming it first if it has no name. */
static cuemu_status forward_one(cuemu_rewriter *rw, size_t from, size_t to,
                                int index, cuemu_strbuf *sb) {
  size_t k, dots = rw->n, group = rw->n, end = to;
  /* Attributes before the declaration (`[[maybe_unused]] T x`) are not
   * its array's brackets; one after the name (`T x [[maybe_unused]]`)
   * ends it as an array's `[` does. */
  while (from + 1 < to && cuemu__rw_is(rw, from, "[") &&
         cuemu__rw_is(rw, from + 1, "["))
    from = after_group(rw, from);
  /* At the parameter's top level: the `...` of a pack, a declarator in
   * parentheses (`(*f)(int)`, `(&a)[4]`) and the `[` of an array. */
  for (k = from; k < to; k = after_group(rw, k)) {
    if (cuemu__rw_is(rw, k, ".") && cuemu__rw_is(rw, k + 1, ".") &&
        cuemu__rw_is(rw, k + 2, ".") && dots == rw->n)
      dots = k;
    else if (cuemu__rw_is(rw, k, "(") && group == rw->n &&
             (cuemu__rw_is(rw, k + 1, "*") || cuemu__rw_is(rw, k + 1, "&")))
      group = k;
    else if (cuemu__rw_is(rw, k, "[") && end == to && group == rw->n)
      end = k;
  }
  if (dots == from && to - from == 3)
    return CUEMU_NOT_SUPPORTED; /* a C-style `...`: no kernel has one */
  size_t first = from, last;
  if (group != rw->n) {
    /* The name is last in the parentheses, before any `[`. */
    size_t close = cuemu__rw_close(rw, group);
    if (close >= to)
      return CUEMU_NOT_SUPPORTED;
    for (end = group + 1; end < close && !cuemu__rw_is(rw, end, "[");)
      end = after_group(rw, end);
    first = group + 1;
  }
  last = end - 1;
  int named = group != rw->n
                  ? cuemu__rw_ident(rw, last) && !type_prefix(rw, last - 1) &&
                        !cuemu__rw_is(rw, last, "const") &&
                        !cuemu__rw_is(rw, last, "volatile")
                  : cuemu__parameter_named(rw, first, end);
  if (index)
    cuemu__sb_str(sb, ", ");
  if (named) {
    cuemu__sb_tokens(sb, rw, last, last + 1, 0);
  } else {
    char name[32];
    int n = snprintf(name, sizeof name, " cuemu_param_%d", index);
    const cuemu_token *t = &rw->toks[last];
    cuemu_status st =
        cuemu__rw_edit(rw, t->offset + t->length, 0, name, (size_t)n);
    if (st != CUEMU_SUCCESS)
      return st;
    cuemu__sb_str(sb, name + 1);
  }
  if (dots != rw->n)
    cuemu__sb_str(sb, "...");
  return CUEMU_SUCCESS;
}

char *cuemu__forward_arguments(cuemu_rewriter *rw, size_t open) {
  size_t close = cuemu__rw_close(rw, open), k, from = open + 1;
  cuemu_strbuf sb = {0};
  cuemu__sb_add(&sb, "", 0);
  if (close >= rw->n) {
    free(sb.data);
    return NULL;
  }
  if (close == open + 1 ||
      (close == open + 2 && cuemu__rw_is(rw, open + 1, "void")))
    return sb.data;
  int index = 0;
  for (k = from; k <= close;) {
    if (k < close && !cuemu__rw_is(rw, k, ",") && !cuemu__rw_is(rw, k, "=")) {
      k = after_group(rw, k);
      continue;
    }
    size_t end = k;
    if (cuemu__rw_is(rw, k, "=")) /* a default argument */
      while (k < close && !cuemu__rw_is(rw, k, ","))
        k = cuemu__rw_is(rw, k, "<") ? k + 1 : after_group(rw, k);
    if (end == from ||
        forward_one(rw, from, end, index++, &sb) != CUEMU_SUCCESS || sb.oom)
      break;
    if (k >= close)
      return sb.data;
    from = ++k;
  }
  free(sb.data);
  return NULL;
}
