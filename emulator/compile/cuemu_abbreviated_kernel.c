/*
 * cuemu_abbreviated_kernel.c: C++20 abbreviated kernel templates.
 *
 * Under -std=c++20 a kernel may be a template without a template head:
 * `__global__ void k(auto *p, int n, std::integral auto d)` is
 * `template <class A, std::integral B> __global__ void k(A *p, int n, B d)`,
 * and nvcc compiles it as such. The translation finds kernel templates by
 * their template head (instance records, host-pass forwarding), so before
 * anything else each abbreviated kernel is given one: every `auto` of its
 * parameters (at their top level, with its type-constraint) becomes an
 * invented template parameter `cuemu_auto_N`, added to the kernel's own
 * template head or to a new one before the declaration. The edits stay on
 * their tokens' lines, and the unit is then translated again from the
 * edited text (cuemu_rewrite.c's rewrite()). A declaration and the
 * definition of one kernel get the same head, so they still name one
 * template; the instances' symbols are those of the abbreviated form,
 * which g++ and clang++ mangle as an ordinary template's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_rewriter.h"

/* Specifiers that may come before `__global__` in a declaration. */
static int leading_specifier(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {"static",      "inline",
                                      "extern",      "__forceinline__",
                                      "__noinline__", "__host__",
                                      NULL};
  for (int j = 0; words[j]; ++j)
    if (cuemu__rw_is(rw, k, words[j]))
      return 1;
  return 0;
}

/* The `(` that opens the parameters of the kernel declared with
 * `__global__` at token i, or rw->n. */
static size_t parameters_open(const cuemu_rewriter *rw, size_t i) {
  for (size_t k = i + 1; k < rw->n;) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
      continue;
    }
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, "="))
      return rw->n;
    if (cuemu__rw_is(rw, k, "<")) {
      k = cuemu__rw_template_close(rw, k);
      if (k >= rw->n)
        return rw->n;
      k++;
      continue;
    }
    if (cuemu__rw_is(rw, k, "("))
      return cuemu__rw_ident(rw, k - 1) ? k : rw->n;
    k++;
  }
  return rw->n;
}

/* The first token of the type-constraint before the `auto` at token a
 * (`std::integral auto`, `C<int> auto`), or a when it has none. */
static size_t constraint_start(const cuemu_rewriter *rw, size_t a,
                               size_t open) {
  size_t c = a - 1;
  if (c <= open)
    return a;
  if (cuemu__rw_is(rw, c, ">")) {
    size_t lt = cuemu__rw_template_open(rw, c);
    if (lt == (size_t)-1 || lt <= open + 1)
      return a;
    c = lt - 1;
  }
  if (!cuemu__rw_ident(rw, c) || cuemu__rw_is(rw, c, "const") ||
      cuemu__rw_is(rw, c, "volatile") || cuemu__rw_is(rw, c, "__restrict__"))
    return a;
  while (c > open + 2 && cuemu__rw_is(rw, c - 1, "::") &&
         cuemu__rw_ident(rw, c - 2))
    c -= 2;
  if (c > open + 1 && cuemu__rw_is(rw, c - 1, "::"))
    c--;
  return c;
}

/* Whether the parameter whose `auto` is token a is a pack (`auto... xs`,
 * `auto &&...xs`): a `...` before the parameter's end. */
static int is_pack(const cuemu_rewriter *rw, size_t a, size_t close) {
  for (size_t k = a + 1; k < close; k++) {
    if (cuemu__rw_is(rw, k, ",") || cuemu__rw_is(rw, k, "="))
      return 0;
    if (cuemu__rw_is(rw, k, "("))
      return 0;
    if (cuemu__rw_is(rw, k, ".") && cuemu__rw_is(rw, k + 1, ".") &&
        cuemu__rw_is(rw, k + 2, "."))
      return 1; /* the lexer gives `...` as three `.` */
  }
  return 0;
}

/* The template head's `>` of the declaration whose `__global__` is token
 * i, or rw->n when it has none; *start is the declaration's first token. */
static size_t template_head(const cuemu_rewriter *rw, size_t i,
                            size_t *start) {
  size_t k = i;
  while (k > 0 && leading_specifier(rw, k - 1))
    k--;
  *start = k;
  if (k == 0 || !cuemu__rw_is(rw, k - 1, ">"))
    return rw->n;
  size_t lt = cuemu__rw_template_open(rw, k - 1);
  if (lt == (size_t)-1 || lt == 0 || !cuemu__rw_is(rw, lt - 1, "template"))
    return rw->n;
  *start = lt - 1;
  return k - 1;
}

/* Gives the abbreviated kernel declared with `__global__` at token i a
 * template head; *found is set when it is one. */
static cuemu_status abbreviated_kernel(cuemu_rewriter *rw, size_t i,
                                       int *found) {
  size_t open = parameters_open(rw, i);
  if (open >= rw->n)
    return CUEMU_SUCCESS;
  size_t close = cuemu__rw_close(rw, open);
  if (close >= rw->n)
    return CUEMU_SUCCESS;
  cuemu_strbuf head = {0};
  int count = 0;
  cuemu_status st = CUEMU_SUCCESS;
  for (size_t k = open + 1; k < close && st == CUEMU_SUCCESS; k++) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{")) {
      k = cuemu__rw_close(rw, k); /* a default argument's, a declarator's */
      if (k >= close)
        break;
      continue;
    }
    if (!cuemu__rw_is(rw, k, "auto"))
      continue;
    size_t c = constraint_start(rw, k, open);
    char name[32];
    snprintf(name, sizeof name, "cuemu_auto_%d", count);
    if (count++)
      cuemu__sb_str(&head, ", ");
    if (c == k) {
      cuemu__sb_str(&head, "class");
    } else {
      const cuemu_token *first = &rw->toks[c], *last = &rw->toks[k - 1];
      cuemu__sb_add(&head, rw->text + first->offset,
                    last->offset + last->length - first->offset);
    }
    cuemu__sb_str(&head, is_pack(rw, k, close) ? "... " : " ");
    cuemu__sb_str(&head, name);
    const cuemu_token *from = &rw->toks[c], *a = &rw->toks[k];
    st = cuemu__rw_edit(rw, from->offset, a->offset + a->length - from->offset,
                        name, strlen(name));
  }
  if (st == CUEMU_SUCCESS && count > 0) {
    *found = 1;
    size_t start, gt = template_head(rw, i, &start);
    cuemu_strbuf text = {0};
    if (gt < rw->n && !cuemu__rw_is(rw, gt - 1, "<")) {
      cuemu__sb_str(&text, ", ");
      cuemu__sb_add(&text, head.data, head.length);
      if (!text.oom)
        st = cuemu__rw_edit(rw, rw->toks[gt].offset, 0, text.data,
                            text.length);
    } else {
      cuemu__sb_str(&text, "template <");
      cuemu__sb_add(&text, head.data, head.length);
      cuemu__sb_str(&text, "> ");
      if (!text.oom)
        st = cuemu__rw_edit(rw, rw->toks[gt < rw->n ? gt + 1 : start].offset,
                            0, text.data, text.length);
    }
    if (text.oom && st == CUEMU_SUCCESS)
      st = CUEMU_OUT_OF_MEMORY;
    free(text.data);
  }
  if (head.oom && st == CUEMU_SUCCESS)
    st = CUEMU_OUT_OF_MEMORY;
  free(head.data);
  return st;
}

cuemu_status cuemu__abbreviated_kernels(cuemu_rewriter *rw, int *found) {
  *found = 0;
  cuemu_status st = CUEMU_SUCCESS;
  for (size_t i = 0; i < rw->n && st == CUEMU_SUCCESS; i++)
    if (cuemu__rw_is(rw, i, "__global__") &&
        !(rw->toks[i].flags & CUEMU_TOKEN_SHIM))
      st = abbreviated_kernel(rw, i, found);
  return st;
}
