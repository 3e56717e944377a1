/*
 * cuemu_cccl_inlining.c: CCCL's forced inlining, left to the compiler.
 *
 * CCCL marks most of CUB's and Thrust's functions _CCCL_FORCEINLINE,
 * which its headers define as `__attribute__((__always_inline__))` for
 * every compiler but MSVC. On a GPU that is a choice about the machine
 * code of a kernel; on the emulator it is only a cost: clang++ and g++
 * inline every such call of a kernel's whole call tree, at -O0 too, and
 * the device pass of a unit that uses Thrust's or CUB's device-wide
 * algorithms spent most of its time there (tests/programs/thrust's
 * thrust_algorithms.cu, device pass at -O2 with clang++: 78 s of CPU with
 * the attributes, 41 s without; LLVM's inliner passes held 60% of it).
 * Inlining changes no result, so in the headers of CCCL (the tokens that
 * line_marker() of cuemu_rewrite.c flags CUEMU_TOKEN_CCCL) the attribute
 * becomes `__unused__`, and the compiler inlines as its own heuristics
 * choose.
 * The user's own `__forceinline__` and the shims' attributes are kept.
 */
#include <string.h>

#include "cuemu_rewriter.h"

/* Whether the identifier at i is an attribute of a GNU attribute list
 * `__attribute__((a, b(x), ...))`: the tokens before it, back to the list's
 * two opening parentheses, are attributes and their arguments. */
static int in_attribute_list(const cuemu_rewriter *rw, size_t i) {
  size_t k = i;
  while (k > 0) {
    size_t p = k - 1;
    if (cuemu__rw_is(rw, p, ")")) {
      size_t open = cuemu__rw_open(rw, p);
      if (open == (size_t)-1)
        return 0;
      k = open;
      continue;
    }
    if (cuemu__rw_is(rw, p, ",") || cuemu__rw_ident(rw, p)) {
      k = p;
      continue;
    }
    return cuemu__rw_is(rw, p, "(") && p >= 2 &&
           cuemu__rw_is(rw, p - 1, "(") &&
           (cuemu__rw_is(rw, p - 2, "__attribute__") ||
            cuemu__rw_is(rw, p - 2, "__attribute"));
  }
  return 0;
}

cuemu_status cuemu__cccl_inlining(cuemu_rewriter *rw) {
  static const char unused[] = "__unused__";
  for (size_t i = 0; i < rw->n; ++i) {
    const cuemu_token *t = &rw->toks[i];
    if (!(t->flags & CUEMU_TOKEN_CCCL) || t->kind != CUEMU_TOKEN_IDENT ||
        !(cuemu__rw_is(rw, i, "__always_inline__") ||
          cuemu__rw_is(rw, i, "always_inline")) ||
        !in_attribute_list(rw, i))
      continue;
    cuemu_status st =
        cuemu__rw_edit(rw, t->offset, t->length, unused, sizeof unused - 1);
    if (st != CUEMU_SUCCESS)
      return st;
  }
  return CUEMU_SUCCESS;
}
