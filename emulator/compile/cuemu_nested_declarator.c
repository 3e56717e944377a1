/*
 * cuemu_nested_declarator.c: telling a parenthesized declarator from a
 * parameter list.
 *
 * In `__device__ int (*p)(int) = f;` the first `(` opens a nested
 * declarator: the declaration is a variable (a pointer to a function), not a
 * function. The rules that give device variables one object in the program
 * (cuemu_rewrite.c, cuemu_internal_linkage.c, cuemu_space_notes.c) look for
 * the `(` of a parameter list to tell functions from variables, and must
 * step over such a group instead: the forms are a pointer, a reference or a
 * pointer to member (`(*p)`, `(&r)`, `(C::*m)`), possibly const (`(*const
 * p)`), an array of them (`(*table[3])`), nested again (`(*(*p)(int))`), and
 * a function returning a pointer to a function (`(*pick(int which))(int)`),
 * which is a function after all.
 */
#include "cuemu_rewriter.h"

/* Token k qualifies a pointer: `const`, `volatile` or a restrict keyword. */
static int pointer_qualifier(const cuemu_rewriter *rw, size_t k) {
  return cuemu__rw_is(rw, k, "const") || cuemu__rw_is(rw, k, "volatile") ||
         cuemu__rw_is(rw, k, "__restrict__") ||
         cuemu__rw_is(rw, k, "__restrict") || cuemu__rw_is(rw, k, "restrict");
}

/* The index after the parameter lists, array bounds, `noexcept` and
 * qualifiers (of a pointer to member function) that follow a declarator
 * from token k, or rw->n if one is not closed. */
static size_t skip_suffixes(const cuemu_rewriter *rw, size_t k) {
  for (;;) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[")) {
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n)
        return rw->n;
      ++k;
    } else if (cuemu__rw_is(rw, k, "noexcept") || pointer_qualifier(rw, k)) {
      ++k;
    } else {
      return k;
    }
  }
}

size_t cuemu__rw_nested_declarator(const cuemu_rewriter *rw, size_t open,
                                   size_t *name, int *is_function) {
  if (!cuemu__rw_is(rw, open, "("))
    return open;
  size_t k = open + 1;
  int pointer = 0;
  /* The pointer operators, each with its qualifiers. */
  for (;;) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
    } else if (cuemu__rw_is(rw, k, "*") || cuemu__rw_is(rw, k, "&") ||
               cuemu__rw_is(rw, k, "&&")) {
      pointer = 1;
      ++k;
    } else if (pointer && pointer_qualifier(rw, k)) {
      ++k;
    } else if (cuemu__rw_is(rw, k, "::") ||
               (cuemu__rw_ident(rw, k) && cuemu__rw_is(rw, k + 1, "::"))) {
      /* A nested name: of a pointer to member, or of the declared name. */
      k += cuemu__rw_is(rw, k, "::") ? 1 : 2;
    } else {
      break;
    }
  }
  if (!pointer)
    return open; /* a parameter list, or a name in parentheses */
  size_t inner_name = (size_t)-1;
  int inner_function = 0;
  if (cuemu__rw_is(rw, k, "(")) {
    size_t after = cuemu__rw_nested_declarator(rw, k, &inner_name,
                                               &inner_function);
    if (after == k)
      return open;
    k = after;
  } else if (cuemu__rw_ident(rw, k)) {
    inner_name = k++;
    inner_function = cuemu__rw_is(rw, k, "(");
  } else {
    return open; /* an abstract declarator, as in a cast's type */
  }
  k = skip_suffixes(rw, k);
  if (!cuemu__rw_is(rw, k, ")"))
    return open;
  k = skip_suffixes(rw, k + 1);
  if (k >= rw->n)
    return open;
  *name = inner_name;
  *is_function = inner_function;
  return k;
}
