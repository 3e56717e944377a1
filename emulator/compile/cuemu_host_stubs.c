/*
 * cuemu_host_stubs.c: what the host pass keeps of the user's device code,
 * as nvcc's host compile (cudafe++) keeps it: declarations and stubs.
 *
 * nvcc's host compiler never sees the body of a kernel or of a function
 * that is only __device__: cudafe++ replaces them (a kernel by a stub that
 * launches it, a __device__ function by a body that exits), so `-Xcompiler
 * -Wall,-Werror` warns about host code only. In cuemu's host pass a
 * kernel's body is dropped (cuemu_rewrite.c's kernel_linkage(): a
 * declaration of the device pass's kernel, or a template's instance
 * record), and the body of a namespace-scope __device__ function becomes
 * `{ __builtin_trap(); }` with GCC's `error` attribute, so that a call
 * from host code that survives the optimiser is a compile error, as nvcc
 * refuses it ("calling a __device__ function from a __host__ function is
 * not allowed"); so does that of a __device__ member function defined in a
 * class (cuemu__host_member_stub()). Functions whose body the host may
 * need are kept: constexpr ones (--expt-relaxed-constexpr lets host code
 * call them), those whose return type is deduced, constructors with
 * initializers, and __host__ __device__ ones.
 *
 * A stub leaves its parameters unused, so it is wrapped in pragmas that
 * silence -Wunused-parameter (-Wextra) for it alone. The pragmas go before
 * the declaration's first token and after its last, where no directive
 * can be (the tokens are the significant ones), and on the lines of those
 * tokens, so that the line count is unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_rewriter.h"

static const char quiet_push[] =
    "_Pragma(\"GCC diagnostic push\") "
    "_Pragma(\"GCC diagnostic ignored \\\"-Wunused-parameter\\\"\") ";
static const char quiet_pop[] = " _Pragma(\"GCC diagnostic pop\")";

cuemu_status cuemu__host_quiet(cuemu_rewriter *rw, size_t first,
                               size_t last) {
  const cuemu_token *a = &rw->toks[first], *b = &rw->toks[last];
  cuemu_status st =
      cuemu__rw_edit(rw, a->offset, 0, quiet_push, sizeof quiet_push - 1);
  if (st == CUEMU_SUCCESS)
    st = cuemu__rw_edit(rw, b->offset + b->length, 0, quiet_pop,
                        sizeof quiet_pop - 1);
  return st;
}

/* The `(` of the parameters of the function declared after token `from`
 * (a `__device__`), skipping attributes, template argument lists and
 * decltype(...); rw->n when the declaration is not a function's or the
 * body is not the `{` at `brace`. */
static size_t parameters(const cuemu_rewriter *rw, size_t from, size_t brace) {
  size_t k = from + 1;
  while (k < brace) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
    } else if (cuemu__rw_is(rw, k, "<")) {
      k = cuemu__rw_template_close(rw, k) + 1;
    } else if (cuemu__rw_is(rw, k, "decltype") ||
               cuemu__rw_is(rw, k, "__typeof__") ||
               cuemu__rw_is(rw, k, "typeof")) {
      k = cuemu__rw_is(rw, k + 1, "(") ? cuemu__rw_close(rw, k + 1) + 1 : k + 1;
    } else if (cuemu__rw_is(rw, k, "operator")) {
      /* The operator's name: `operator()`, `operator+`, `operator[]`. */
      k++;
      if (cuemu__rw_is(rw, k, "(") && cuemu__rw_is(rw, k + 1, ")"))
        k += 2;
      while (k < brace && !cuemu__rw_is(rw, k, "("))
        k++;
      return k < brace ? k : rw->n;
    } else if (cuemu__rw_is(rw, k, "(")) {
      return k;
    } else if (cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "[") ||
               cuemu__rw_is(rw, k, ";")) {
      return rw->n;
    } else {
      k++;
    }
  }
  return rw->n;
}

cuemu_status cuemu__host_device_stub(cuemu_rewriter *rw, size_t decl_start,
                                     size_t brace) {
  static const char stub[] = "{ __builtin_trap(); }";
  size_t device = rw->n, k;
  int deduced = 0;
  for (k = decl_start; k < brace; k++) {
    if (cuemu__rw_is(rw, k, "__device__") && device == rw->n)
      device = k;
    else if (cuemu__rw_is(rw, k, "__host__") ||
             cuemu__rw_is(rw, k, "__global__") ||
             cuemu__rw_is(rw, k, "constexpr") ||
             cuemu__rw_is(rw, k, "consteval"))
      return CUEMU_SUCCESS;
    else if (cuemu__rw_is(rw, k, "auto"))
      deduced = 1;
  }
  if (device == rw->n)
    return CUEMU_SUCCESS;
  size_t open = parameters(rw, device, brace);
  size_t close = open < rw->n ? cuemu__rw_close(rw, open) : rw->n;
  if (close >= brace)
    return CUEMU_SUCCESS;
  /* Between the parameters and the body: a trailing return type, or a
   * constructor's initializers (`:`), whose body is kept. */
  for (k = close + 1; k < brace; k++) {
    if (cuemu__rw_is(rw, k, "->"))
      deduced = 0;
    if (cuemu__rw_is(rw, k, ":") || cuemu__rw_is(rw, k, "="))
      return CUEMU_SUCCESS;
  }
  size_t end = cuemu__rw_close(rw, brace);
  if (deduced || end >= rw->n)
    return CUEMU_SUCCESS;
  const cuemu_token *d = &rw->toks[device], *a = &rw->toks[brace],
                    *b = &rw->toks[end];
  /* nvcc's message, naming the function. */
  cuemu_strbuf refused = {0};
  cuemu__sb_str(&refused, " __attribute__((error(\"calling a __device__ "
                          "function(\\\"");
  if (cuemu__rw_ident(rw, open - 1))
    cuemu__sb_tokens(&refused, rw, open - 1, open, 0);
  cuemu__sb_str(&refused, "\\\") from a __host__ function is not allowed "
                          "(nvcc refuses it too)\"), noinline))");
  cuemu_status st =
      refused.oom ? CUEMU_OUT_OF_MEMORY
                  : cuemu__rw_edit(rw, d->offset + d->length, 0, refused.data,
                                   refused.length);
  free(refused.data);
  if (st == CUEMU_SUCCESS)
    st = cuemu__rw_edit(rw, a->offset, b->offset + b->length - a->offset, stub,
                        sizeof stub - 1);
  if (st == CUEMU_SUCCESS)
    st = cuemu__host_quiet(rw, decl_start, end);
  return st;
}

/* The name of the parameter [from, end) (`end` its `,`, `=` or `)`;
 * `bracket` and `paren` its first `[` and `(` at its own level, or end):
 * the token of its name, with *pack set for a function parameter pack
 * (`Args... args`, three `.` tokens before the name); end when it has no
 * name in a form that can take one (*at is then where a name goes), and
 * (size_t)-1 when it is a form that is not understood. */
static size_t parameter_name(const cuemu_rewriter *rw, size_t from, size_t end,
                             size_t bracket, size_t paren, int *pack,
                             size_t *at) {
  *pack = 0;
  if (paren < end) {
    /* A pointer or a reference to a function or an array:
     * `T (*name)(U)`, `T (&name)[N]`, or unnamed, `T (*)(U)`. */
    size_t c = cuemu__rw_close(rw, paren);
    int star = cuemu__rw_is(rw, paren + 1, "*") || cuemu__rw_is(rw, paren + 1, "&");
    if (c < end && c == paren + 3 && star && cuemu__rw_ident(rw, paren + 2) &&
        !cuemu__type_word(rw, paren + 2))
      return paren + 2;
    if (c < end && c == paren + 2 && star) {
      *at = paren + 1; /* unnamed, `T (*)(U)`: the name goes after the `*` */
      return end;
    }
    return (size_t)-1;
  }
  /* An array, `T name[N]`: the name is before the `[`. */
  size_t last = (bracket < end ? bracket : end) - 1;
  *at = last;
  if (last < from)
    return (size_t)-1;
  if (last >= from + 3 && cuemu__rw_is(rw, last, ".") &&
      cuemu__rw_is(rw, last - 1, ".") && cuemu__rw_is(rw, last - 2, ".")) {
    *pack = 1; /* an unnamed pack, `Args...` */
    return end;
  }
  if (cuemu__rw_is(rw, last, ">") || cuemu__rw_is(rw, last, "*") ||
      cuemu__rw_is(rw, last, "&") || cuemu__type_word(rw, last))
    return end;
  if (!cuemu__rw_ident(rw, last))
    return (size_t)-1;
  if (last == from)
    return end; /* one word, a type: `T`, `size_t` */
  /* A name after `::` or an elaborated type's keyword is the type's: a
   * parameter's name is never qualified (`ns::Tag`, `typename T::type`,
   * `struct S`). */
  const char *before[] = {"::", "struct", "class", "enum", "typename", NULL};
  for (int b = 0; before[b]; b++)
    if (cuemu__rw_is(rw, last - 1, before[b]))
      return end;
  if (last - 1 == from && (cuemu__rw_is(rw, from, "const") ||
                           cuemu__rw_is(rw, from, "volatile")))
    return end; /* `const T` */
  if (cuemu__rw_is(rw, last - 1, ".")) {
    if (last < from + 4 || !cuemu__rw_is(rw, last - 2, ".") ||
        !cuemu__rw_is(rw, last - 3, "."))
      return (size_t)-1;
    *pack = 1;
  }
  return last;
}

char *cuemu__parameter_names(cuemu_rewriter *rw, size_t open) {
  size_t close = cuemu__rw_close(rw, open), k, from = open + 1;
  size_t bracket = (size_t)-1, paren = (size_t)-1;
  unsigned unnamed = 0;
  cuemu_strbuf sb = {0};
  cuemu__sb_add(&sb, "", 0);
  if (close >= rw->n) {
    free(sb.data);
    return NULL;
  }
  if (close == open + 1 || (close == open + 2 && cuemu__rw_is(rw, open + 1, "void")))
    return sb.data;
  for (k = from; k <= close; k++) {
    if (k < close && (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
                      cuemu__rw_is(rw, k, "{") || cuemu__rw_is(rw, k, "<"))) {
      size_t c = cuemu__rw_is(rw, k, "<") ? cuemu__rw_template_close(rw, k)
                                          : cuemu__rw_close(rw, k);
      if (c >= close)
        break;
      /* An array's `[` follows its name; an attribute's (`[[maybe_unused]]
       * T x`) starts the parameter. */
      if (cuemu__rw_is(rw, k, "[") && bracket == (size_t)-1 && k > from &&
          cuemu__rw_ident(rw, k - 1))
        bracket = k;
      if (cuemu__rw_is(rw, k, "(") && paren == (size_t)-1)
        paren = k;
      k = c;
      continue;
    }
    if (k < close && !cuemu__rw_is(rw, k, ",") && !cuemu__rw_is(rw, k, "="))
      continue;
    /* The parameter [from, k): its name, or one given to it here
     * (`cuemu_param_N`, inserted where its declarator names it), so that
     * the call can forward it; a pack is forwarded expanded (`args...`). */
    int pack;
    size_t at = from;
    size_t name = parameter_name(rw, from, k, bracket < k ? bracket : k,
                                 paren < k ? paren : k, &pack, &at);
    if (name == (size_t)-1)
      break;
    if (from > open + 1)
      cuemu__sb_str(&sb, ", ");
    if (name == k) {
      char given[32];
      int len = snprintf(given, sizeof given, " cuemu_param_%u", unnamed++);
      const cuemu_token *t = &rw->toks[at];
      if (cuemu__rw_edit(rw, t->offset + t->length, 0, given, (size_t)len) !=
          CUEMU_SUCCESS)
        break;
      cuemu__sb_str(&sb, given + 1);
    } else {
      cuemu__sb_tokens(&sb, rw, name, name + 1, 0);
    }
    if (pack)
      cuemu__sb_str(&sb, "...");
    if (cuemu__rw_is(rw, k, "="))
      for (; k < close && !cuemu__rw_is(rw, k, ","); k++)
        if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
            cuemu__rw_is(rw, k, "{"))
          k = cuemu__rw_close(rw, k);
    from = k + 1;
    bracket = paren = (size_t)-1;
    if (k >= close) {
      if (sb.oom)
        break;
      return sb.data;
    }
  }
  free(sb.data);
  return NULL;
}

cuemu_status cuemu__host_member_stub(cuemu_rewriter *rw, size_t device) {
  /* A member's declaration starts after the `{`, `;`, `}` or access
   * specifier's `:` before it; anything else before the `__device__` (an
   * expression: `[] __device__ (...)`) is not a declaration. */
  size_t start = device;
  while (start > 0) {
    size_t prev = start - 1;
    if (cuemu__rw_is(rw, prev, "{") || cuemu__rw_is(rw, prev, ";") ||
        cuemu__rw_is(rw, prev, "}") || cuemu__rw_is(rw, prev, ":"))
      break;
    if (cuemu__rw_is(rw, prev, ">")) {
      size_t lt = cuemu__rw_template_open(rw, prev);
      if (lt == (size_t)-1 || lt == 0 || !cuemu__rw_is(rw, lt - 1, "template"))
        return CUEMU_SUCCESS;
      start = lt - 1;
      continue;
    }
    if (cuemu__rw_is(rw, prev, ")") || cuemu__rw_is(rw, prev, "]"))
      start = cuemu__rw_attribute_start(rw, prev);
    if (start == prev + 1) {
      if (!cuemu__rw_ident(rw, prev))
        return CUEMU_SUCCESS;
      start = prev;
    }
  }
  /* Its body: the first `{` after the parameters, before any `;`. */
  size_t k = device + 1, open = rw->n;
  for (; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "}"))
      return CUEMU_SUCCESS;
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[")) {
      if (open == rw->n && cuemu__rw_is(rw, k, "("))
        open = k;
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n)
        return CUEMU_SUCCESS;
      continue;
    }
    if (cuemu__rw_is(rw, k, "{"))
      break;
  }
  if (k >= rw->n || open == rw->n)
    return CUEMU_SUCCESS;
  return cuemu__host_device_stub(rw, start, k);
}
