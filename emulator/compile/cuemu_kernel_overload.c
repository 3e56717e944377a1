/*
 * cuemu_kernel_overload.c: kernels that share a name (overloads).
 *
 * In a translation unit, two `__global__` functions with the same name and
 * different parameter types are two kernels, as in C++: each gets its own
 * entry, and, once the name is known to be overloaded, each entry gets a
 * declaration of its function type after its first declaration
 * (`using cuemu_kernel_type_k_N = void(float *);`), so that the kernel
 * table can name each one (`static_cast<T *>(&k)`) and a launch can hand
 * the whole overload set to ::cuemu::launch_overloaded, which picks the
 * kernel by the launch's arguments as a call would
 * (shims/cuda_builtins/cuemu_kernel_overloads.h). The parameter types are
 * compared as written, without parameter names: a prototype spelled
 * differently from its definition only makes a second entry for the same
 * kernel, which the table does not list (it is no definition) and the
 * launch's overload set drops (the same address).
 */
#include "cuemu_rewriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cuemu__type_word(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {
      "void", "char", "short", "int", "long", "float", "double", "signed",
      "unsigned", "bool", "const", "volatile", "__restrict__", "__restrict",
      "restrict", "auto", "wchar_t", "char8_t", "char16_t", "char32_t",
      "__half", NULL};
  for (int w = 0; words[w]; w++)
    if (cuemu__rw_is(rw, k, words[w])) return 1;
  return 0;
}

/* The parameter [from, to) without its name, appended to sb. */
static void put_parameter(cuemu_strbuf *sb, const cuemu_rewriter *rw,
                          size_t from, size_t to) {
  if (cuemu__parameter_named(rw, from, to)) to--;
  if (to - from == 1 && cuemu__rw_is(rw, from, "void")) return;
  for (size_t k = from; k < to; k++) { /* one space after each token */
    cuemu__sb_tokens(sb, rw, k, k + 1, 0);
    cuemu__sb_str(sb, " ");
  }
}

char *cuemu__kernel_signature(const cuemu_rewriter *rw, size_t open) {
  cuemu_strbuf sb = {0};
  size_t close = cuemu__rw_close(rw, open), k, from;
  cuemu__sb_add(&sb, "", 0);
  if (close >= rw->n) return sb.data;
  for (k = from = open + 1; k <= close; k++) {
    if (k < close && (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
                      cuemu__rw_is(rw, k, "{") || cuemu__rw_is(rw, k, "<"))) {
      size_t c = cuemu__rw_is(rw, k, "<") ? cuemu__rw_template_close(rw, k)
                                          : cuemu__rw_close(rw, k);
      if (c < close) k = c;
    } else if (k == close || cuemu__rw_is(rw, k, ",") ||
               cuemu__rw_is(rw, k, "=")) {
      if (from > open + 1) cuemu__sb_str(&sb, ",");
      if (k > from) put_parameter(&sb, rw, from, k);
      if (cuemu__rw_is(rw, k, "=")) /* the default argument */
        for (; k < close && !cuemu__rw_is(rw, k, ","); k++)
          if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
              cuemu__rw_is(rw, k, "{"))
            k = cuemu__rw_close(rw, k);
      from = k + 1;
    }
  }
  return sb.oom ? (free(sb.data), NULL) : sb.data;
}

int cuemu__kernel_same_signature(const cuemu_rewriter *rw,
                                 const cuemu_kernel_decl *d) {
  for (int i = 0; i < rw->kernel_count; i++) {
    const cuemu_kernel_decl *k = &rw->kernels[i];
    if (!k->is_template && strcmp(k->name, d->name) == 0 &&
        (!k->signature || !d->signature ||
         strcmp(k->signature, d->signature) == 0))
      return i;
  }
  return -1;
}

cuemu_status cuemu__kernel_alias_emit(cuemu_rewriter *rw, int index) {
  cuemu_kernel_decl *d = &rw->kernels[index];
  cuemu_strbuf text = {0}, alias = {0}, id = {0};
  if (d->type_alias || d->is_template || !d->decl_end) return CUEMU_SUCCESS;
  size_t close = cuemu__rw_close(rw, d->params_open);
  if (close >= rw->n || close > d->decl_end) return CUEMU_SUCCESS;
  char number[16];
  snprintf(number, sizeof number, "_%d", index);
  cuemu__sb_str(&id, "cuemu_kernel_type_");
  cuemu__sb_str(&id, cuemu__last_part(d->name));
  cuemu__sb_str(&id, number);
  cuemu__sb_str(&text, " using ");
  if (id.data) cuemu__sb_str(&text, id.data);
  cuemu__sb_str(&text, " = void(");
  cuemu__sb_parameters(&text, rw, d->params_open, close);
  cuemu__sb_str(&text, ");");
  cuemu__sb_str(&alias, "::");
  if (d->alias_scope && *d->alias_scope) {
    cuemu__sb_str(&alias, d->alias_scope);
    cuemu__sb_str(&alias, "::");
  }
  if (id.data) cuemu__sb_str(&alias, id.data);
  cuemu_status st = CUEMU_OUT_OF_MEMORY;
  if (!text.oom && !alias.oom && !id.oom) {
    const cuemu_token *end = &rw->toks[d->decl_end];
    st = cuemu__rw_edit(rw, end->offset + end->length, 0, text.data,
                        text.length);
  }
  free(text.data);
  free(id.data);
  if (st == CUEMU_SUCCESS)
    d->type_alias = alias.data;
  else
    free(alias.data);
  return st;
}

cuemu_status cuemu__kernel_overloads_mark(cuemu_rewriter *rw,
                                          const char *name) {
  for (int i = 0; i < rw->kernel_count; i++) {
    cuemu_kernel_decl *k = &rw->kernels[i];
    if (k->is_template || strcmp(k->name, name) != 0) continue;
    k->overloaded = 1;
    cuemu_status st = cuemu__kernel_alias_emit(rw, i);
    if (st != CUEMU_SUCCESS) return st;
  }
  return CUEMU_SUCCESS;
}

int cuemu__kernel_overloads_ready(const cuemu_rewriter *rw,
                                  const cuemu_kernel_decl *decl) {
  const char *last = cuemu__last_part(decl->name);
  for (int i = 0; i < rw->kernel_count; i++) {
    const cuemu_kernel_decl *k = &rw->kernels[i];
    if (strcmp(cuemu__last_part(k->name), last) != 0)
      continue;
    /* Another namespace's kernel of that name: which one the launch
     * names is for the compiler to say. */
    if (k->is_template || strcmp(k->name, decl->name) != 0)
      return 0;
    if (!k->type_alias || k->has_defaults)
      return 0;
  }
  return 1;
}

cuemu_status cuemu__launch_overloaded(cuemu_rewriter *rw,
                                      const cuemu_kernel_decl *decl,
                                      size_t start, size_t launch) {
  cuemu_strbuf head = {0}, middle = {0};
  const cuemu_token *first = &rw->toks[start], *last = &rw->toks[launch - 1];
  const char *callee = rw->text + first->offset;
  size_t callee_length = last->offset + last->length - first->offset;
  int n = 0;
  cuemu__sb_str(&head, "::cuemu::launch_overloaded<");
  for (int i = 0; i < rw->kernel_count; i++) {
    const cuemu_kernel_decl *k = &rw->kernels[i];
    if (k->is_template || strcmp(k->name, decl->name) != 0) continue;
    cuemu_strbuf *sb = n++ ? &middle : &head;
    if (sb == &middle) cuemu__sb_str(sb, ", ");
    cuemu__sb_str(sb, "::cuemu::kernel_constant<CUEMU_KERNEL_CAST_ARGS((");
    cuemu__sb_str(sb, k->type_alias);
    cuemu__sb_str(sb, " *)(");
    if (sb == &middle) {
      cuemu__sb_add(sb, callee, callee_length);
      cuemu__sb_str(sb, "))>");
    }
  }
  /* The first kernel's cast closes around the callee as written. */
  cuemu_strbuf tail = {0};
  cuemu__sb_str(&tail, "))>");
  if (middle.data) cuemu__sb_add(&tail, middle.data, middle.length);
  cuemu__sb_str(&tail, ">(");
  cuemu_status st = CUEMU_OUT_OF_MEMORY;
  if (!head.oom && !middle.oom && !tail.oom) {
    st = cuemu__rw_edit(rw, first->offset, 0, head.data, head.length);
    if (st == CUEMU_SUCCESS) {
      const cuemu_token *lt = &rw->toks[launch], *third = &rw->toks[launch + 2];
      st = cuemu__rw_edit(rw, lt->offset,
                          third->offset + third->length - lt->offset,
                          tail.data, tail.length);
    }
  }
  free(head.data);
  free(middle.data);
  free(tail.data);
  return st;
}

/* Non-zero when the kernel named `full` is the one that a launch naming
 * `written` ("blas::axpy", or "axpy" unqualified) can mean: the same name,
 * or one that ends with it after a `::`. */
static int may_name(const char *full, const char *written) {
  size_t fl = strlen(full), wl = strlen(written);
  if (fl < wl || strcmp(full + fl - wl, written) != 0)
    return 0;
  return fl == wl || (fl - wl >= 2 && full[fl - wl - 1] == ':' &&
                      full[fl - wl - 2] == ':');
}

char *cuemu__kernel_pick_set(cuemu_rewriter *rw, size_t start, size_t name) {
  cuemu_strbuf written = {0}, set = {0};
  size_t k = start;
  if (cuemu__rw_is(rw, k, "::"))
    k++;
  for (; k <= name; k++) {
    if (!cuemu__rw_ident(rw, k) && !cuemu__rw_is(rw, k, "::"))
      goto none; /* a template-id, a member, an expression */
    cuemu__sb_tokens(&written, rw, k, k + 1, 0);
  }
  if (written.oom || !written.data)
    goto none;
  /* The kernels the launch can name: no template, one qualified name. */
  const char *chosen = NULL;
  const char *last = cuemu__last_part(written.data);
  for (int i = 0; i < rw->kernel_count; i++) {
    cuemu_kernel_decl *d = &rw->kernels[i];
    if (strcmp(cuemu__last_part(d->name), last) != 0)
      continue;
    if (d->is_template)
      goto none;
    if (!may_name(d->name, written.data))
      continue;
    if (chosen && strcmp(chosen, d->name) != 0)
      goto none; /* kernels of several namespaces: the compiler's choice */
    chosen = d->name;
    if (cuemu__kernel_alias_emit(rw, i) != CUEMU_SUCCESS || !d->type_alias)
      goto none;
  }
  if (!chosen)
    goto none;
  cuemu__sb_str(&set, "::cuemu::overloads::candidates<");
  int n = 0;
  for (int i = 0; i < rw->kernel_count; i++) {
    const cuemu_kernel_decl *d = &rw->kernels[i];
    if (strcmp(d->name, chosen) != 0)
      continue;
    char defaults[48];
    cuemu__sb_str(&set, n++ ? ", " : "");
    if (d->constant_alias) {
      /* Its constant, declared where no later host function of the name
       * (one whose return type is not deduced yet) is in the set. */
      cuemu__sb_str(&set, "::cuemu::overloads::defaulted<");
      cuemu__sb_str(&set, d->constant_alias);
      snprintf(defaults, sizeof defaults, ", %d>", d->default_count);
    } else {
      cuemu__sb_str(&set, "::cuemu::overloads::defaulted<::cuemu::"
                          "kernel_constant<CUEMU_KERNEL_CAST_ARGS((");
      cuemu__sb_str(&set, d->type_alias);
      cuemu__sb_str(&set, " *)(&::");
      cuemu__sb_str(&set, d->name);
      snprintf(defaults, sizeof defaults, "))>, %d>", d->default_count);
    }
    cuemu__sb_str(&set, defaults);
  }
  cuemu__sb_str(&set, ">");
  free(written.data);
  if (set.oom)
    return free(set.data), NULL;
  return set.data;
none:
  free(written.data);
  free(set.data);
  return NULL;
}
