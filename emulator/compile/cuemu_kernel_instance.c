/*
 * cuemu_kernel_instance.c: what the device pass adds to the definition of
 * a kernel, wherever it is (the user's file, or a header of CUB, Thrust or
 * any library): the translation's visibility instead of the one the
 * declaration says, and, in a kernel template, a record of each instance
 * for the program's table of kernels.
 *
 * The record is CUEMU_KERNEL_INSTANCE(file, line, kernel, max threads, min
 * blocks) (shims/cuda_builtins/cuemu_qualifiers.h), first in the body;
 * `kernel` names the body's own instance:
 *
 *   template <typename T, int B> __global__ void fill(T *out, int n) {
 *     CUEMU_KERNEL_INSTANCE("lib.cuh", 3,
 *         ((void (*)(T *out, int n))(&fill<T, B>)), 0u, 0u); ...
 *
 * Unnamed template parameters (`class = void`, `int...`) are given names
 * for it (cuemu_tparam_N). An explicit specialization names itself with
 * the template arguments of its declarator.
 */
#include "cuemu_rewriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cuemu__kernel_visibility(cuemu_rewriter *rw, size_t decl_start,
                             size_t end, const char *value) {
  int said = 0;
  for (size_t k = decl_start; k + 3 < end; k++) {
    if (!(cuemu__rw_is(rw, k, "visibility") ||
          cuemu__rw_is(rw, k, "__visibility__")) ||
        !cuemu__rw_is(rw, k + 1, "(") ||
        rw->toks[k + 2].kind != CUEMU_TOKEN_STRING ||
        !cuemu__rw_is(rw, k + 3, ")"))
      continue;
    said = 1;
    if (cuemu__rw_edit(rw, rw->toks[k + 2].offset, rw->toks[k + 2].length,
                       value, strlen(value)) != CUEMU_SUCCESS)
      return -1;
  }
  return said;
}

/* Identifiers that end a template parameter without naming it
 * (`typename`, `int`, `template <class> class`). */
static int is_kind_keyword(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {
      "typename", "class",    "struct",   "int",      "unsigned",
      "signed",   "long",     "short",    "char",     "bool",
      "auto",     "float",    "double",   "wchar_t",  "char8_t",
      "char16_t", "char32_t", "const",    "volatile", NULL};
  for (int i = 0; words[i]; i++)
    if (cuemu__rw_is(rw, k, words[i]))
      return 1;
  return 0;
}

size_t cuemu__template_param_end(const cuemu_rewriter *rw, size_t from,
                                 size_t close, size_t *decl_end, int *pack) {
  size_t k = from;
  while (k < close && !cuemu__rw_is(rw, k, ",")) {
    if (cuemu__rw_is(rw, k, "<"))
      k = cuemu__rw_template_close(rw, k);
    else if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
             cuemu__rw_is(rw, k, "{"))
      k = cuemu__rw_close(rw, k);
    k++;
  }
  if (k > close)
    k = close;
  size_t end = from;
  *pack = 0;
  while (end < k && !cuemu__rw_is(rw, end, "=")) {
    if (cuemu__rw_is(rw, end, "<"))
      end = cuemu__rw_template_close(rw, end);
    else if (cuemu__rw_is(rw, end, "(") || cuemu__rw_is(rw, end, "["))
      end = cuemu__rw_close(rw, end);
    else if (cuemu__rw_is(rw, end, "."))
      *pack = 1;
    end++;
  }
  *decl_end = end > k ? k : end;
  return k;
}

/* Appends the arguments that name the template's own parameters (the
 * template head whose `<` is at token lt) to `args`, giving unnamed
 * parameters a name (once per head: the record and the notes of static
 * shared variables of one body share the names). */
static cuemu_status head_arguments(cuemu_rewriter *rw, size_t lt,
                                   cuemu_strbuf *args) {
  size_t close = cuemu__rw_template_close(rw, lt);
  size_t from, k;
  int index = 0, give_names = rw->named_head != lt + 1;
  if (close >= rw->n)
    return cuemu__rw_error(rw, rw->toks[lt].line,
                           "kernel template: unterminated template head");
  rw->named_head = lt + 1;
  for (from = lt + 1; from <= close; from = k + 1) {
    /* The parameter [from, k): its declaration ends before a default. */
    size_t end, p;
    int pack;
    k = cuemu__template_param_end(rw, from, close, &end, &pack);
    if (end == from)
      continue; /* `template <>` */
    p = end - 1;
    int named = end - from > 1 && cuemu__rw_ident(rw, p) &&
                !is_kind_keyword(rw, p) && !cuemu__rw_is(rw, p - 1, "::");
    /* A pointer to a function, `int (*F)(int)`: its name is inside, and
     * an unnamed one, `int (*)(int)`, gets one after its `*`. */
    for (size_t q = from; !named && q + 2 < end; ++q) {
      int function = 0;
      if (cuemu__rw_nested_declarator(rw, q, &p, &function) != q) {
        named = 1;
      } else if (cuemu__rw_is(rw, q, "(") && cuemu__rw_is(rw, q + 1, "*") &&
                 cuemu__rw_is(rw, q + 2, ")")) {
        p = q + 1;
        break;
      }
    }
    if (index++)
      cuemu__sb_str(args, ", ");
    if (named) {
      cuemu__sb_tokens(args, rw, p, p + 1, 0);
    } else {
      char name[32];
      int n = snprintf(name, sizeof name, " cuemu_tparam_%d", index - 1);
      const cuemu_token *t = &rw->toks[p];
      cuemu_status st = give_names ? cuemu__rw_edit(rw, t->offset + t->length,
                                                    0, name, (size_t)n)
                                   : CUEMU_SUCCESS;
      if (st != CUEMU_SUCCESS)
        return st;
      cuemu__sb_str(args, name + 1);
    }
    if (pack)
      cuemu__sb_str(args, "...");
  }
  return CUEMU_SUCCESS;
}

/* The `{` of the body after the parameter list closed at token k, or
 * rw->n. */
static size_t body_open(const cuemu_rewriter *rw, size_t k) {
  for (k++; k < rw->n;) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k)
      k = after;
    else if (cuemu__rw_is(rw, k, "{"))
      return k;
    else if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "}"))
      return rw->n;
    else if (cuemu__rw_is(rw, k, "("))
      k = cuemu__rw_close(rw, k) + 1; /* noexcept(...) */
    else
      k++;
  }
  return rw->n;
}

/* Appends `"text"` to sb, escaped as a string literal. */
static void add_literal(cuemu_strbuf *sb, const char *text) {
  cuemu__sb_add(sb, "\"", 1);
  for (const char *c = text; *c; c++) {
    if (*c == '"' || *c == '\\')
      cuemu__sb_add(sb, "\\", 1);
    cuemu__sb_add(sb, c, 1);
  }
  cuemu__sb_add(sb, "\"", 1);
}

/* Appends the expression that names the kernel recorded last (`global` is
 * its `__global__`, or 0 when not known) from inside its body, for a
 * template its own instance:
 * `((void (*)(T *out, int n))(&fill<T, B >))`; for a kernel that is not a
 * template `((void (*)(float *x))(&fill))` (the cast picks one of
 * overloaded kernels; CUEMU_KERNEL_CAST_ARGS in cuemu_qualifiers.h makes
 * the two template arguments of it). Sets *name to the token of the
 * kernel's name. */
static cuemu_status self_reference(cuemu_rewriter *rw, size_t global,
                                   cuemu_strbuf *text, size_t *name) {
  size_t open = rw->last_params, close = cuemu__rw_close(rw, open);
  size_t given = (size_t)-1;
  cuemu_status st = CUEMU_SUCCESS;
  *name = open - 1;
  if (cuemu__rw_is(rw, *name, ">")) {
    given = cuemu__rw_template_open(rw, *name); /* an explicit specialization */
    if (given == (size_t)-1 || given <= global + 1)
      return CUEMU_INVALID_VALUE;
    *name = given - 1;
  }
  cuemu__sb_str(text, "((void (*)(");
  cuemu__sb_parameters(text, rw, open, close);
  cuemu__sb_str(text, "))(&");
  cuemu__sb_tokens(text, rw, *name, *name + 1, 0);
  if (given == (size_t)-1 && rw->last_template == (size_t)-1) {
    cuemu__sb_str(text, "))");
    return st;
  }
  cuemu__sb_str(text, "<");
  if (given != (size_t)-1)
    cuemu__sb_tokens(text, rw, given + 1, open - 1, 0);
  else
    st = head_arguments(rw, rw->last_template, text);
  cuemu__sb_str(text, " >))");
  return st;
}

cuemu_status cuemu__kernel_self_reference(cuemu_rewriter *rw,
                                          cuemu_strbuf *text) {
  size_t name;
  return self_reference(rw, 0, text, &name);
}

cuemu_status cuemu__kernel_instance_record(cuemu_rewriter *rw, size_t global,
                                           const char *macro) {
  size_t close = cuemu__rw_close(rw, rw->last_params), name, body;
  cuemu_strbuf text = {0};
  const char *file;
  int line;
  if (close >= rw->n || (body = body_open(rw, close)) >= rw->n)
    return CUEMU_SUCCESS;
  cuemu_strbuf self = {0};
  cuemu_status st = self_reference(rw, global, &self, &name);
  if (st == CUEMU_INVALID_VALUE) {
    free(self.data);
    return CUEMU_SUCCESS;
  }
  cuemu__rw_where(rw, rw->toks[name].line, &file, &line);
  cuemu__sb_str(&text, " ");
  cuemu__sb_str(&text, macro);
  cuemu__sb_str(&text, "(");
  add_literal(&text, file);
  char num[32];
  snprintf(num, sizeof num, ", %d, ", line);
  cuemu__sb_str(&text, num);
  add_literal(&text, rw->filename ? rw->filename : "");
  cuemu__sb_str(&text, ", ");
  if (self.data)
    cuemu__sb_add(&text, self.data, self.length);
  cuemu__sb_str(&text, ", ");
  free(self.data);
  size_t b = rw->last_bounds;
  if (b != (size_t)-1 && cuemu__rw_is(rw, b + 1, "(") &&
      cuemu__rw_close(rw, b + 1) < rw->n) {
    /* __launch_bounds__'s values, where the template's parameters are in
     * scope. */
    size_t bc = cuemu__rw_close(rw, b + 1);
    for (int field = 0; field < 2; field++) {
      cuemu__sb_str(&text, "::cuemu::launch_bounds(");
      cuemu__sb_tokens(&text, rw, b + 2, bc, 0);
      cuemu__sb_str(&text, field ? ").min_blocks);" : ").max_threads, ");
    }
  } else {
    cuemu__sb_str(&text, "0u, 0u);");
  }
  if (st == CUEMU_SUCCESS && (text.oom || self.oom))
    st = CUEMU_OUT_OF_MEMORY;
  if (st == CUEMU_SUCCESS) {
    const cuemu_token *t = &rw->toks[body];
    st = cuemu__rw_edit(rw, t->offset + t->length, 0, text.data, text.length);
  }
  free(text.data);
  return st;
}

/* `head` "unit", the kernel's own instance (self_reference()) `tail`: the
 * text of a host pass's macro. CUEMU_INVALID_VALUE for an explicit
 * specialization, which names no instance of its own. */
static cuemu_status host_macro(cuemu_rewriter *rw, size_t global,
                               const char *head, const char *tail,
                               cuemu_strbuf *text) {
  size_t name;
  cuemu__sb_str(text, head);
  add_literal(text, rw->filename ? rw->filename : "");
  cuemu__sb_str(text, ", ");
  cuemu_status st = self_reference(rw, global, text, &name);
  cuemu__sb_str(text, tail);
  if (st == CUEMU_SUCCESS && text->oom)
    st = CUEMU_OUT_OF_MEMORY;
  return st;
}

cuemu_status cuemu__kernel_host_record(cuemu_rewriter *rw, size_t global) {
  size_t close = cuemu__rw_close(rw, rw->last_params), body;
  if (close >= rw->n || (body = body_open(rw, close)) >= rw->n)
    return CUEMU_SUCCESS;
  cuemu_strbuf text = {0};
  cuemu_status st =
      host_macro(rw, global, " CUEMU_KERNEL_HOST_RECORD(", ");", &text);
  const cuemu_token *t = &rw->toks[body];
  if (st == CUEMU_SUCCESS)
    st = cuemu__rw_edit(rw, t->offset + t->length, 0, text.data, text.length);
  free(text.data);
  return st == CUEMU_INVALID_VALUE ? CUEMU_SUCCESS : st;
}

cuemu_status cuemu__kernel_host_instance(cuemu_rewriter *rw, size_t global,
                                         const char *forward) {
  size_t close = cuemu__rw_close(rw, rw->last_params), open, end;
  if (close >= rw->n || (open = body_open(rw, close)) >= rw->n ||
      (end = cuemu__rw_close(rw, open)) >= rw->n)
    return CUEMU_SUCCESS;
  cuemu_strbuf text = {0}, tail = {0};
  if (forward) {
    cuemu__sb_str(&tail, ")(");
    cuemu__sb_str(&tail, forward);
    cuemu__sb_str(&tail, "); }");
  }
  cuemu_status st =
      tail.oom ? CUEMU_OUT_OF_MEMORY
      : forward
          ? host_macro(rw, global, "{ CUEMU_KERNEL_HOST_FORWARD(", tail.data,
                       &text)
          : host_macro(rw, global, "{ CUEMU_KERNEL_HOST_INSTANCE(", "); }",
                       &text);
  free(tail.data);
  if (st == CUEMU_INVALID_VALUE) {
    free(text.data);
    return cuemu__kernel_body_drop(rw);
  }
  const cuemu_token *a = &rw->toks[open], *b = &rw->toks[end];
  if (st == CUEMU_SUCCESS)
    st = cuemu__rw_edit(rw, a->offset, b->offset + b->length - a->offset,
                        text.data, text.length);
  free(text.data);
  return st;
}

size_t cuemu__kernel_body_end(const cuemu_rewriter *rw) {
  size_t close = cuemu__rw_close(rw, rw->last_params), open;
  if (close >= rw->n || (open = body_open(rw, close)) >= rw->n)
    return rw->n;
  return cuemu__rw_close(rw, open);
}

cuemu_status cuemu__kernel_body_drop(cuemu_rewriter *rw) {
  size_t close = cuemu__rw_close(rw, rw->last_params), open, end;
  if (close >= rw->n || (open = body_open(rw, close)) >= rw->n ||
      (end = cuemu__rw_close(rw, open)) >= rw->n)
    return CUEMU_SUCCESS;
  const cuemu_token *a = &rw->toks[open], *b = &rw->toks[end];
  return cuemu__rw_edit(rw, a->offset, b->offset + b->length - a->offset, ";",
                        1);
}
