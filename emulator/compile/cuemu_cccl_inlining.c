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
 *
 * libcu++'s atomics go the other way: the functions between a
 * cuda::atomic_ref operation and its inline PTX (`__atomic_fetch_add_cuda`,
 * `__cuda_atomic_fetch_memory_order_dispatch`, `__cuda_atomic_fetch_add`,
 * ...: plain `static inline`) are made always inline, as the shims'
 * atomics are. A checker names an atomic's line from its return address;
 * where g++ left the memory-order dispatch a function of its own (a kernel
 * with two `fetch_add` calls), every atomic_ref operation was reported at
 * libcu++'s line (cuda_ptx_generated.h) instead of the user's
 * (tests/buggy/race_shared_read_seqcst_atomic.cu).
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

/* Whether the identifier at i names one of libcu++'s atomic functions
 * (`__atomic_*_cuda`, `__cuda_atomic_*`) where it is declared: followed by
 * its parameters and preceded by its return type (`void`, `bool`, `_Type`,
 * `_Tp`), not by `return` or an operator as a call is. */
static int libcudacxx_atomic_declared(const cuemu_rewriter *rw, size_t i) {
  const cuemu_token *t = &rw->toks[i];
  const char *name = rw->text + t->offset;
  size_t n = t->length;
  static const char cuda_atomic[] = "__cuda_atomic_", atomic[] = "__atomic_",
                    cuda[] = "_cuda";
  int named =
      (n > sizeof cuda_atomic - 1 &&
       strncmp(name, cuda_atomic, sizeof cuda_atomic - 1) == 0) ||
      (n > sizeof atomic - 1 + sizeof cuda - 1 &&
       strncmp(name, atomic, sizeof atomic - 1) == 0 &&
       strncmp(name + n - (sizeof cuda - 1), cuda, sizeof cuda - 1) == 0);
  if (!named || i == 0 || !cuemu__rw_is(rw, i + 1, "(") ||
      !cuemu__rw_ident(rw, i - 1))
    return 0;
  static const char *const not_types[] = {"return", "else", "do", "case",
                                          "throw", "co_return"};
  for (size_t k = 0; k < sizeof not_types / sizeof *not_types; ++k)
    if (cuemu__rw_is(rw, i - 1, not_types[k]))
      return 0;
  return 1;
}

cuemu_status cuemu__cccl_inlining(cuemu_rewriter *rw) {
  static const char forced[] = "__attribute__((__always_inline__)) ";
  for (size_t i = 0; i < rw->n; ++i) {
    const cuemu_token *t = &rw->toks[i];
    if (!(t->flags & CUEMU_TOKEN_CCCL) || t->kind != CUEMU_TOKEN_IDENT ||
        !libcudacxx_atomic_declared(rw, i))
      continue;
    cuemu_status st =
        cuemu__rw_edit(rw, t->offset, 0, forced, sizeof forced - 1);
    if (st != CUEMU_SUCCESS)
      return st;
  }
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
