/*
 * cuemu_nv_atomic_args.c: nvcc's check of the memory order and thread
 * scope arguments of the __nv_atomic_* built-ins (CUDA 12.8) in device
 * code: each must be an integer literal or one of the __NV_ATOMIC_* and
 * __NV_THREAD_SCOPE_* names, parentheses allowed; a variable, even a const
 * one, is refused in nvcc's words ("atomic operation's memory order
 * argument is not an integer literal"). The shims' functions take any int,
 * as C++ cannot ask a parameter for a literal, so the translation checks
 * the call as written.
 */
#include <string.h>

#include "cuemu_rewriter.h"

/* Where a built-in takes its orders and its scope (argument positions,
 * -1: none). */
typedef struct {
  const char *name;
  int order, second_order, scope;
} atomic_args;

static const atomic_args builtins[] = {
    {"__nv_atomic_load_n", 1, -1, 2},
    {"__nv_atomic_exchange", 3, -1, 4},
    {"__nv_atomic_compare_exchange_n", 4, 5, 6},
    {"__nv_atomic_compare_exchange", 4, 5, 6},
    {"__nv_atomic_thread_fence", 0, -1, 1},
    /* The others: (ptr, value, order, scope). */
    {NULL, 2, -1, 3},
};

/* Whether tokens [from, to) are one integer literal or one of the built-in
 * names, in any number of parentheses. */
static int literal_argument(const cuemu_rewriter *rw, size_t from, size_t to) {
  while (to > from + 2 && cuemu__rw_is(rw, from, "(") &&
         cuemu__rw_close(rw, from) == to - 1) {
    from++;
    to--;
  }
  if (to != from + 1)
    return 0;
  const cuemu_token *t = &rw->toks[from];
  const char *s = rw->text + t->offset;
  return t->kind == CUEMU_TOKEN_NUMBER ||
         (t->kind == CUEMU_TOKEN_IDENT &&
          ((t->length > 13 && strncmp(s, "__NV_ATOMIC_", 12) == 0) ||
           (t->length > 19 && strncmp(s, "__NV_THREAD_SCOPE_", 18) == 0)));
}

cuemu_status cuemu__nv_atomic_args_check(cuemu_rewriter *rw, size_t i) {
  const cuemu_token *t = &rw->toks[i];
  if (t->kind != CUEMU_TOKEN_IDENT || t->length < 13 ||
      strncmp(rw->text + t->offset, "__nv_atomic_", 12) != 0 ||
      !cuemu__rw_is(rw, i + 1, "(") ||
      (i > 0 && (cuemu__rw_is(rw, i - 1, ".") || cuemu__rw_is(rw, i - 1, "->"))))
    return CUEMU_SUCCESS;
  const atomic_args *a = builtins;
  while (a->name && !cuemu__rw_is(rw, i, a->name))
    a++;
  size_t close = cuemu__rw_close(rw, i + 1);
  if (close >= rw->n)
    return CUEMU_SUCCESS;
  /* Each argument's tokens, between top-level commas. */
  size_t start = i + 2;
  int index = 0;
  for (size_t k = i + 2; k <= close; ++k) {
    if (k < close && (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
                      cuemu__rw_is(rw, k, "{"))) {
      k = cuemu__rw_close(rw, k);
      if (k >= close)
        return CUEMU_SUCCESS;
      continue;
    }
    if (k < close && !cuemu__rw_is(rw, k, ","))
      continue;
    int order = index == a->order || index == a->second_order;
    if ((order || index == a->scope) && !literal_argument(rw, start, k))
      return cuemu__rw_error(
          rw, rw->toks[start < k ? start : i].line,
          order ? "atomic operation's memory order argument is not an "
                  "integer literal"
                : "atomic operation's scope argument is not an integer "
                  "literal");
    start = k + 1;
    index++;
  }
  return CUEMU_SUCCESS;
}
