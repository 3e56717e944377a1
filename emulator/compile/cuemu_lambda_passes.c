/*
 * cuemu_lambda_passes.c: lambdas that only one of nvcc's two passes sees.
 *
 * A kernel template instantiated with a lambda's closure type (a
 * `[=] __device__ (...) {...}` handed to a kernel template) has an
 * instance in each pass, and cuemu-cc matches the host pass's instance to
 * the device pass's by its symbol (cuemu_kernel_instances.h). g++ names a
 * closure type by its enclosing function, its parameter types and its
 * ordinal among the lambdas of that function with the same parameter
 * types. A lambda that only one pass compiles (under `#ifdef __CUDA_ARCH__`
 * or a test of its value) shifts the ordinals of the lambdas after it in
 * that pass only, so the instances of a later extended lambda would be
 * matched with another lambda's (a kernel that runs the wrong code) or
 * with none. nvcc numbers them its own way and accepts such code; cuemu-cc
 * refuses it with an error that names both lambdas (clang++ names closure
 * types by their place in the source, so units compiled with it are not
 * concerned).
 *
 * Each pass's walk notes the user's lambdas (cuemu__lambda_note()); the
 * compile compares the two lists (cuemu__lambda_passes_check()).
 */
#define _GNU_SOURCE
#include "cuemu_rewriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Non-zero when the `[` at token i opens a lambda's captures: not a
 * subscript, an array declarator, `delete[]` or an attribute. */
static int lambda_introducer(const cuemu_rewriter *rw, size_t i) {
  if (cuemu__rw_is(rw, i + 1, "[") || (i > 0 && cuemu__rw_is(rw, i - 1, "[")))
    return 0; /* [[attribute]] */
  if (i > 0) {
    const cuemu_token *p = &rw->toks[i - 1];
    if (p->kind == CUEMU_TOKEN_IDENT) {
      static const char *const before[] = {"return", "co_return", "throw",
                                           "else", "do", "co_yield", NULL};
      int ok = 0;
      for (int k = 0; before[k]; ++k)
        ok |= cuemu__rw_is(rw, i - 1, before[k]);
      if (!ok)
        return 0;
    } else if (p->kind != CUEMU_TOKEN_PUNCT || cuemu__rw_is(rw, i - 1, ")") ||
               cuemu__rw_is(rw, i - 1, "]") || cuemu__rw_is(rw, i - 1, ">")) {
      return 0;
    }
  }
  size_t close = cuemu__rw_close(rw, i);
  if (close >= rw->n)
    return 0;
  static const char *const after[] = {"(", "{", "<", "__device__", "__host__",
                                      "mutable", "constexpr", "->",
                                      "noexcept", NULL};
  for (int k = 0; after[k]; ++k)
    if (cuemu__rw_is(rw, close + 1, after[k]))
      return 1;
  return 0;
}

static char *place(const cuemu_rewriter *rw, size_t i, int column) {
  const char *file;
  int line;
  cuemu__rw_where(rw, rw->toks[i].line, &file, &line);
  char *s = NULL;
  if (column) {
    size_t off = rw->toks[i].offset, start = off;
    while (start > 0 && rw->text[start - 1] != '\n')
      start--;
    if (asprintf(&s, "%s:%d:%zu", file, line, off - start + 1) < 0)
      s = NULL;
  } else if (asprintf(&s, "%s:%d", file, line) < 0) {
    s = NULL;
  }
  return s;
}

cuemu_status cuemu__lambda_note(cuemu_rewriter *rw, size_t i, size_t decl) {
  if (!lambda_introducer(rw, i))
    return CUEMU_SUCCESS;
  if (rw->lambda_count == rw->lambda_capacity) {
    int cap = rw->lambda_capacity ? rw->lambda_capacity * 2 : 16;
    cuemu_lambda_note *grown =
        realloc(rw->lambdas, (size_t)cap * sizeof *grown);
    if (!grown)
      return CUEMU_OUT_OF_MEMORY;
    rw->lambdas = grown;
    rw->lambda_capacity = cap;
  }
  cuemu_lambda_note n = {0};
  size_t k = cuemu__rw_close(rw, i) + 1;
  for (; k < rw->n && !cuemu__rw_is(rw, k, "(") && !cuemu__rw_is(rw, k, "{");
       ++k)
    if (cuemu__rw_is(rw, k, "__device__") || cuemu__rw_is(rw, k, "__host__"))
      n.extended = 1;
    else if (cuemu__rw_is(rw, k, "<"))
      k = cuemu__rw_template_close(rw, k);
  n.signature = k < rw->n && cuemu__rw_is(rw, k, "(")
                    ? cuemu__kernel_signature(rw, k)
                    : strdup("");
  n.where = place(rw, i, 1);
  n.decl = place(rw, decl < rw->n ? decl : i, 0);
  if (!n.signature || !n.where || !n.decl) {
    cuemu__lambda_notes_free(&n, 1); /* its strings; n itself is local */
    return CUEMU_OUT_OF_MEMORY;
  }
  rw->lambdas[rw->lambda_count++] = n;
  return CUEMU_SUCCESS;
}

void cuemu__lambda_notes_free(cuemu_lambda_note *notes, int count) {
  for (int i = 0; notes && i < count; ++i) {
    free(notes[i].where);
    free(notes[i].decl);
    free(notes[i].signature);
  }
}

static int present(const cuemu_lambda_note *notes, int count,
                   const char *where) {
  for (int i = 0; i < count; ++i)
    if (strcmp(notes[i].where, where) == 0)
      return 1;
  return 0;
}

/* The first lambda of `mine` that `other` lacks and that comes before an
 * extended lambda of the same function and parameter types that both
 * have; *later is that lambda. Returns its index, or -1. */
static int shifting(const cuemu_lambda_note *mine, int nmine,
                    const cuemu_lambda_note *other, int nother, int *later) {
  for (int i = 0; i < nmine; ++i) {
    if (present(other, nother, mine[i].where))
      continue;
    for (int j = i + 1; j < nmine; ++j)
      if (mine[j].extended && strcmp(mine[j].decl, mine[i].decl) == 0 &&
          strcmp(mine[j].signature, mine[i].signature) == 0 &&
          present(other, nother, mine[j].where)) {
        *later = j;
        return i;
      }
  }
  return -1;
}

cuemu_status cuemu__lambda_passes_check(const cuemu_rewrite *device,
                                        const cuemu_rewrite *host,
                                        char *message, size_t size) {
  const cuemu_rewrite *pass[2] = {device, host};
  static const char *const name[2] = {"device", "host"};
  for (int p = 0; p < 2; ++p) {
    int later = -1;
    int i = shifting(pass[p]->lambdas, pass[p]->lambda_count,
                     pass[1 - p]->lambdas, pass[1 - p]->lambda_count, &later);
    if (i < 0)
      continue;
    snprintf(message, size,
             "%s: a lambda that only the %s pass compiles (code under "
             "__CUDA_ARCH__) comes before the extended lambda at %s in the "
             "same function: g++ then numbers that lambda differently in "
             "the two passes, and cuemu-cc could not match the kernel "
             "template instances it makes; move the lambda after it or out "
             "of the #if (nvcc accepts this; cuemu does not translate it)",
             pass[p]->lambdas[i].where, name[p],
             pass[p]->lambdas[later].where);
    return CUEMU_COMPILE;
  }
  return CUEMU_SUCCESS;
}
