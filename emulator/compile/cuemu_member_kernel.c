/*
 * cuemu_member_kernel.c: a `__global__` inside a class is refused, as nvcc
 * refuses it ("A __global__ function or function template cannot be a
 * member function"), whether the member is static or not, a function or a
 * function template. A friend declaration (`friend __global__ void k();`)
 * names a namespace-scope kernel, and a declaration in a function's body
 * (`void f() { __global__ void k(int); ... }`) declares one: nvcc accepts
 * both, and so does cuemu (a declaration in a function's body of a kernel
 * declared before is dropped: with it, g++ emits the shims' templates
 * instantiated for the kernel twice, "symbol ... is already defined");
 * a friend declaration that defines the kernel is
 * refused, as nvcc refuses it ("A __global__ function or function template
 * cannot be defined in a friend declaration").
 */
#include "cuemu_rewriter.h"

/* Whether the `{` at token open starts a class's body: the tokens before
 * it, from the nearest class key (`struct`, `class` or `union`, not
 * `enum class`), are a class head: attributes, a name (`A`, `ns::A`,
 * `A<int>`), `final`, then the body or a base clause. */
static int class_body(const cuemu_rewriter *rw, size_t open) {
  size_t key = open, k;
  while (key > 0) {
    key--;
    if (cuemu__rw_is(rw, key, ";") || cuemu__rw_is(rw, key, "{") ||
        cuemu__rw_is(rw, key, "}"))
      return 0;
    if ((cuemu__rw_is(rw, key, "struct") || cuemu__rw_is(rw, key, "class") ||
         cuemu__rw_is(rw, key, "union")) &&
        !(key > 0 && cuemu__rw_is(rw, key - 1, "enum")))
      break;
  }
  if (key == 0 && !(cuemu__rw_is(rw, 0, "struct") ||
                    cuemu__rw_is(rw, 0, "class") ||
                    cuemu__rw_is(rw, 0, "union")))
    return 0;
  int named = 0;
  for (k = key + 1; k < open;) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
    } else if (cuemu__rw_is(rw, k, "::")) {
      named = 0;
      k++;
    } else if (cuemu__rw_is(rw, k, "<") && named) {
      k = cuemu__rw_template_close(rw, k);
      if (k >= open)
        return 0;
      k++;
    } else if (cuemu__rw_is(rw, k, "final") && named) {
      k++;
    } else if (cuemu__rw_ident(rw, k) && !named) {
      named = 1;
      k++;
    } else {
      return cuemu__rw_is(rw, k, ":");
    }
  }
  return 1;
}

/* Whether the member declaration that holds token i says `friend`: the
 * tokens since the end of the member before it (`;`, a brace, or an
 * access specifier's `:`). */
static int friend_declaration(const cuemu_rewriter *rw, size_t i) {
  while (i > 0) {
    i--;
    if (cuemu__rw_is(rw, i, ";") || cuemu__rw_is(rw, i, "{") ||
        cuemu__rw_is(rw, i, "}") || cuemu__rw_is(rw, i, ":"))
      return 0;
    if (cuemu__rw_is(rw, i, "friend"))
      return 1;
  }
  return 0;
}

/* Whether the declaration whose `__global__` is at token i has a body: a
 * `{` before its `;`, outside parentheses. */
static int defines(const cuemu_rewriter *rw, size_t i) {
  for (size_t k = i + 1; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, "(")) {
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n)
        return 0;
    } else if (cuemu__rw_is(rw, k, "{")) {
      return 1;
    } else if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "}")) {
      return 0;
    }
  }
  return 0;
}

/* A declaration in a function's body (`__global__` at token i) of a kernel
 * declared before: dropped, up to its `;` (see above). */
static cuemu_status local_declaration(cuemu_rewriter *rw, size_t i) {
  size_t start = i, end, name = rw->n;
  while (start > 0 && !cuemu__rw_is(rw, start - 1, ";") &&
         !cuemu__rw_is(rw, start - 1, "{") &&
         !cuemu__rw_is(rw, start - 1, "}"))
    start--;
  for (end = i + 1; end < rw->n; end++) {
    size_t after = cuemu__rw_skip_attribute(rw, end);
    if (after != end) {
      end = after - 1;
    } else if (cuemu__rw_is(rw, end, "(")) {
      if (name == rw->n && cuemu__rw_ident(rw, end - 1))
        name = end - 1;
      end = cuemu__rw_close(rw, end);
      if (end >= rw->n)
        return CUEMU_SUCCESS;
    } else if (cuemu__rw_is(rw, end, "{") || cuemu__rw_is(rw, end, "}")) {
      return CUEMU_SUCCESS;
    } else if (cuemu__rw_is(rw, end, ";")) {
      break;
    }
  }
  if (end >= rw->n || name >= rw->n ||
      !cuemu__kernel_known(rw, rw->text + rw->toks[name].offset,
                           rw->toks[name].length))
    return CUEMU_SUCCESS;
  const cuemu_token *a = &rw->toks[start], *b = &rw->toks[end];
  return cuemu__rw_edit(rw, a->offset, b->offset + b->length - a->offset, ";",
                        1);
}

cuemu_status cuemu__member_kernel_check(cuemu_rewriter *rw, size_t i) {
  size_t k = i, depth = 0;
  while (k > 0) {
    k--;
    if (rw->toks[k].flags & CUEMU_TOKEN_ALT_BRANCH)
      continue;
    if (cuemu__rw_is(rw, k, "}")) {
      depth++;
    } else if (cuemu__rw_is(rw, k, "{")) {
      if (depth == 0)
        break;
      depth--;
    }
  }
  if (!cuemu__rw_is(rw, k, "{"))
    return CUEMU_SUCCESS;
  if (!class_body(rw, k))
    return local_declaration(rw, i);
  if (!friend_declaration(rw, i))
    return cuemu__rw_error(rw, rw->toks[i].line,
                           "A __global__ function or function template "
                           "cannot be a member function");
  if (defines(rw, i))
    return cuemu__rw_error(rw, rw->toks[i].line,
                           "A __global__ function or function template "
                           "cannot be defined in a friend declaration");
  return CUEMU_SUCCESS;
}
