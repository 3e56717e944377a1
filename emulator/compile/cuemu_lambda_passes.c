/*
 * cuemu_lambda_passes.c: lambdas that only one of nvcc's two passes sees.
 *
 * A kernel template instantiated with a lambda's closure type (a
 * `[=] __device__ (...) {...}` handed to a kernel template) has an
 * instance in each pass, and cuemu-cc matches the host pass's instance to
 * the device pass's by its symbol (cuemu_kernel_instances.h). g++ names a
 * closure type by its context (the enclosing function, or the enclosing
 * lambda's body), its parameter types and its ordinal among the lambdas of
 * that context with the same parameter types. A lambda that only one pass
 * compiles (under `#ifdef __CUDA_ARCH__` or a test of its value) would
 * shift the ordinals of the lambdas after it in that pass only, and the
 * instances of a later extended lambda would be matched with another
 * lambda's (a kernel that runs the wrong code) or with none. nvcc accepts
 * such code, and so does cuemu-cc: the other pass makes up a lambda of the
 * same parameter types in its place, `((void)[](float){}, LAMBDA)` around
 * the next lambda that both passes compile, so that both passes number
 * every shared lambda alike. (clang++ names closure types by their place
 * in the source, so units compiled with it are not concerned.)
 *
 * Each pass's walk notes the user's lambdas (cuemu__lambda_note());
 * cuemu__lambda_pads() compares the two lists and says what each pass
 * makes up; the pass is then translated again with that list, and
 * cuemu__lambda_note() writes the lambdas it makes up.
 *
 * Making lambdas up needs their types spelled in the pass that lacks them
 * (a type that only the other pass declares cannot be), and g++ 12 numbers
 * all the lambdas of a context in one sequence, whatever their parameter
 * types. So an extended lambda of host code is first given a context of
 * its own (own_context()), where it is the only lambda and whose own
 * number the match leaves out (instance_key() in
 * emulator/device/cuemu_instances.c);
 * lambdas are made up only for an extended lambda whose body was not
 * found.
 */
#define _GNU_SOURCE
#include "cuemu_rewriter.h"

#include <ctype.h>
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

/* The `{` of the body of the lambda whose parameters (or, without any,
 * whose specifiers) start at token k, or 0. */
static size_t body_open(const cuemu_rewriter *rw, size_t k) {
  for (; k < rw->n; ++k) {
    if (cuemu__rw_is(rw, k, "{"))
      return k;
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "["))
      k = cuemu__rw_close(rw, k);
    else if (cuemu__rw_is(rw, k, "<"))
      k = cuemu__rw_template_close(rw, k);
    else if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, ")") ||
             cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, ","))
      return 0;
  }
  return 0;
}

/* Writes the lambdas that this pass makes up before the lambda `n` whose
 * `[` is token i (rw->pads): `((void)[](T){}, ` before it, `)` after. */
static cuemu_status make_up(cuemu_rewriter *rw, size_t i,
                            const cuemu_lambda_note *n) {
  for (int p = 0; p < rw->pad_count; ++p) {
    const cuemu_lambda_pad *pad = &rw->pads[p];
    if (strcmp(pad->where, n->where) != 0)
      continue;
    if (!n->body_close) {
      snprintf(rw->message, rw->message_size,
               "%s: cannot find the body of this lambda, before which the "
               "other pass of nvcc's two has lambdas that this one lacks "
               "(code under __CUDA_ARCH__); cuemu-cc could not number the "
               "lambdas of the two passes alike",
               n->where);
      return CUEMU_COMPILE;
    }
    cuemu_strbuf sb = {0};
    cuemu__sb_add(&sb, "(", 1);
    for (int c = 0; c < pad->count; ++c) {
      cuemu__sb_str(&sb, "(void)[](");
      cuemu__sb_str(&sb, pad->signature);
      cuemu__sb_str(&sb, "){}, ");
    }
    cuemu_status st =
        sb.oom ? CUEMU_OUT_OF_MEMORY
               : cuemu__rw_edit(rw, rw->toks[i].offset, 0, sb.data, sb.length);
    free(sb.data);
    const cuemu_token *close = &rw->toks[n->body_close];
    if (st == CUEMU_SUCCESS)
      st = cuemu__rw_edit(rw, close->offset + close->length, 0, ")", 1);
    return st;
  }
  return CUEMU_SUCCESS;
}

/* Puts the extended lambda `n` of host code (its `[` at token i) in a
 * context of its own: `[&](::cuemu::lambda_tag<LINE, COLUMN>) { return
 * ::cuemu::extended_lambda_of<KIND>(LAMBDA); }(::cuemu::lambda_tag<LINE,
 * COLUMN>{})`, where KIND (`kind`, cuemu_extended_lambda.h) is what nvcc's
 * traits of extended lambdas tell of it. The wrapper's parameter
 * type is its place in the source, which no other lambda of the function
 * has, so g++ numbers the wrapper 1 in both passes whatever lambdas one
 * pass alone compiles, and the extended lambda, the only lambda of the
 * wrapper's body, 1 as well: its closure type is named alike in both
 * passes, spelled with no type of the user's. The wrapper captures by
 * reference what the lambda captures (a copy, for `[=]`, is made from
 * the same object); it captures nothing when the lambda captures nothing,
 * so that a lambda outside a block stays valid. Returns SUCCESS and sets
 * *wrapped, or OUT_OF_MEMORY. */
static cuemu_status own_context(cuemu_rewriter *rw, size_t i,
                                const cuemu_lambda_note *n, int kind,
                                int *wrapped) {
  const char *file;
  int line;
  *wrapped = 0;
  if (!n->body_close)
    return CUEMU_SUCCESS;
  cuemu__rw_where(rw, rw->toks[i].line, &file, &line);
  size_t off = rw->toks[i].offset, start = off;
  while (start > 0 && rw->text[start - 1] != '\n')
    start--;
  char head[160], tail[96];
  int captures = !cuemu__rw_is(rw, i + 1, "]");
  snprintf(head, sizeof head,
           "[%s](::cuemu::lambda_tag<%d, %zu>) { return "
           "::cuemu::extended_lambda_of<%d>(",
           captures ? "&" : "", line, off - start + 1, kind);
  snprintf(tail, sizeof tail, "); }(::cuemu::lambda_tag<%d, %zu>{})", line,
           off - start + 1);
  cuemu_status st = cuemu__rw_edit(rw, off, 0, head, strlen(head));
  const cuemu_token *close = &rw->toks[n->body_close];
  if (st == CUEMU_SUCCESS)
    st = cuemu__rw_edit(rw, close->offset + close->length, 0, tail,
                        strlen(tail));
  *wrapped = st == CUEMU_SUCCESS;
  return st;
}

/* Whether a lambda's parameter types (cuemu_lambda_note's signature) hold
 * `auto`: a generic lambda. */
static int has_auto(const char *signature) {
  for (const char *p = signature ? strstr(signature, "auto") : NULL; p;
       p = strstr(p + 1, "auto"))
    if ((p == signature || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
        !(isalnum((unsigned char)p[4]) || p[4] == '_'))
      return 1;
  return 0;
}

/* nvcc's restrictions on extended lambdas (the CUDA programming
 * guide's "Extended Lambda Restrictions"), refused with nvcc's messages at
 * the lambda's line, as nvcc refuses them: a capture by reference (token
 * `i` opens the captures), `constexpr` after the parameters
 * (tokens `params` to `body`), an extended lambda inside a generic lambda
 * (`in_generic`), and a generic __host__ __device__ lambda (`generic`: its
 * own parameters hold `auto`); then those on the function around it, whose
 * namespace-scope declaration starts at token `decl`
 * (cuemu_lambda_parent.c). */
static cuemu_status extended_restrictions(cuemu_rewriter *rw, size_t i,
                                          size_t decl, size_t params,
                                          size_t body, int host,
                                          int in_generic, int generic) {
  const char *kind = host ? "__host__ __device__" : "__device__";
  char what[200];
  /* A capture by reference: `&` as the capture default, or at the start of
   * a capture (`&name`, `&name = init`), not inside an initializer. The
   * kernel may run after the host's frame is gone (on a GPU, in another
   * memory), so nvcc refuses it. */
  size_t close = cuemu__rw_close(rw, i);
  for (size_t c = i + 1; c < close && c < rw->n; ++c) {
    if (cuemu__rw_is(rw, c, "&") &&
        (c == i + 1 || cuemu__rw_is(rw, c - 1, ","))) {
      snprintf(what, sizeof what,
               "error: An extended %s lambda cannot capture variables by "
               "reference",
               kind);
      return cuemu__rw_error(rw, rw->toks[i].line, what);
    }
    if (cuemu__rw_is(rw, c, "(") || cuemu__rw_is(rw, c, "[") ||
        cuemu__rw_is(rw, c, "{"))
      c = cuemu__rw_close(rw, c);
  }
  size_t t = params < rw->n && cuemu__rw_is(rw, params, "(")
                 ? cuemu__rw_close(rw, params) + 1
                 : params;
  for (; body && t < body && t < rw->n; ++t)
    if (cuemu__rw_is(rw, t, "constexpr")) {
      snprintf(what, sizeof what,
               "error: The constexpr specifier is not allowed for an "
               "extended %s lambda",
               kind);
      return cuemu__rw_error(rw, rw->toks[t].line, what);
    } else if (cuemu__rw_is(rw, t, "(") || cuemu__rw_is(rw, t, "[")) {
      t = cuemu__rw_close(rw, t);
    }
  if (in_generic) {
    snprintf(what, sizeof what,
             "error: An extended %s lambda cannot be defined inside a "
             "generic lambda expression(\"operator()\").",
             kind);
    return cuemu__rw_error(rw, rw->toks[i].line, what);
  }
  if (host && generic)
    return cuemu__rw_error(rw, rw->toks[i].line,
                           "error: __host__ __device__ extended lambdas "
                           "cannot be generic lambdas");
  return cuemu__lambda_parent_check(rw, i, decl, host);
}

cuemu_status cuemu__lambda_note(cuemu_rewriter *rw, size_t i, size_t decl,
                                int device_code) {
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
  int host = 0;
  for (; k < rw->n && !cuemu__rw_is(rw, k, "(") && !cuemu__rw_is(rw, k, "{");
       ++k)
    if (cuemu__rw_is(rw, k, "__device__") || cuemu__rw_is(rw, k, "__host__")) {
      n.extended = 1;
      host |= cuemu__rw_is(rw, k, "__host__");
    } else if (cuemu__rw_is(rw, k, "<")) {
      k = cuemu__rw_template_close(rw, k);
    }
  /* nvcc refuses any annotation on a lambda, in host or device code,
   * without --extended-lambda (or --expt-extended-lambda), at the line of
   * what follows the annotations (tests/driver_extended_lambda.sh). A
   * module (NVRTC's) is not checked: cuemu's NVRTC takes no such option. */
  if (n.extended && !rw->extended_lambda && rw->pass != CUEMU_PASS_SINGLE)
    return cuemu__rw_error(rw, rw->toks[k < rw->n ? k : i].line,
                           "error: __host__ or __device__ annotation on "
                           "lambda requires --extended-lambda nvcc flag");
  n.signature = k < rw->n && cuemu__rw_is(rw, k, "(")
                    ? cuemu__kernel_signature(rw, k)
                    : strdup("");
  n.body_open = body_open(rw, k);
  n.body_close = n.body_open ? cuemu__rw_close(rw, n.body_open) : 0;
  if (n.body_close >= rw->n)
    n.body_open = n.body_close = 0;
  /* What nvcc's traits tell of it: a __host__ __device__ lambda, or a
   * __device__ one with or without a trailing return type (a `->` between
   * its parameters and its body). */
  int kind = host ? 1 : 0;
  if (!host && n.body_open) {
    size_t t = cuemu__rw_is(rw, k, "(") ? cuemu__rw_close(rw, k) + 1 : k;
    for (; t < n.body_open; ++t)
      if (cuemu__rw_is(rw, t, "->"))
        kind = 2;
      else if (cuemu__rw_is(rw, t, "(") || cuemu__rw_is(rw, t, "["))
        t = cuemu__rw_close(rw, t);
  }
  int scoped = 0, in_generic = 0, in_device_body = 0;
  for (int j = rw->lambda_count - 1; j >= 0 && !scoped; --j)
    if (rw->lambdas[j].body_open < i && i < rw->lambdas[j].body_close) {
      n.scope = strdup(rw->lambdas[j].where);
      scoped = 1;
      in_generic = has_auto(rw->lambdas[j].signature);
      /* The body of a __device__ lambda is device code: a lambda there,
       * annotated or not, is no extended lambda (nvcc accepts a constexpr
       * __device__ lambda in it, and one in a generic __device__ lambda). */
      in_device_body = rw->lambdas[j].device_body;
    }
  n.device_body = device_code || in_device_body || (n.extended && !host);
  n.host_device = host && n.extended && !device_code && !in_device_body;
  /* A lambda in device code is not one of nvcc's extended lambdas. */
  if (n.extended && !device_code && !in_device_body) {
    cuemu_status st = extended_restrictions(rw, i, decl, k, n.body_open, host,
                                            in_generic,
                                            has_auto(n.signature));
    if (st != CUEMU_SUCCESS) {
      free(n.signature);
      free(n.scope);
      return st;
    }
  }
  n.where = place(rw, i, 1);
  n.decl = place(rw, decl < rw->n ? decl : i, 0);
  if (!n.signature || !n.where || !n.decl || (scoped && !n.scope)) {
    cuemu__lambda_notes_free(&n, 1); /* its strings; n itself is local */
    return CUEMU_OUT_OF_MEMORY;
  }
  if (n.extended && !device_code && rw->pass != CUEMU_PASS_SINGLE) {
    int wrapped;
    cuemu_status st = own_context(rw, i, &n, kind, &wrapped);
    /* The body of a __device__ lambda is device code, which nvcc's host
     * compile never sees (a __host__ __device__ one's it does): no host
     * compiler warning about it. */
    if (st == CUEMU_SUCCESS && !host && n.body_close &&
        rw->pass == CUEMU_PASS_HOST)
      st = cuemu__host_unwarned(rw, n.body_open, n.body_close);
    if (st != CUEMU_SUCCESS) {
      cuemu__lambda_notes_free(&n, 1);
      return st;
    }
    /* Numbered in its own context: no pass needs to make up lambdas for
     * it (make_up() stays for a lambda whose body was not found). */
    n.extended = !wrapped;
  }
  rw->lambdas[rw->lambda_count++] = n;
  return make_up(rw, i, &n);
}

void cuemu__lambda_notes_free(cuemu_lambda_note *notes, int count) {
  for (int i = 0; notes && i < count; ++i) {
    free(notes[i].where);
    free(notes[i].decl);
    free(notes[i].signature);
    free(notes[i].scope);
  }
}

static int present(const cuemu_lambda_note *notes, int count,
                   const char *where) {
  for (int i = 0; i < count; ++i)
    if (strcmp(notes[i].where, where) == 0)
      return 1;
  return 0;
}

/* The lambdas `a` and `b` share their context and parameter types, so that
 * g++ numbers them in one sequence. */
static int same_sequence(const cuemu_lambda_note *a,
                         const cuemu_lambda_note *b) {
  return strcmp(a->decl, b->decl) == 0 &&
         strcmp(a->signature, b->signature) == 0 &&
         (a->scope ? b->scope && strcmp(a->scope, b->scope) == 0 : !b->scope);
}

/* Adds one lambda of `signature` to make up before the lambda at `where`. */
static cuemu_status add_pad(cuemu_lambda_pad **pads, int *count,
                            const char *where, const char *signature) {
  for (int p = 0; p < *count; ++p)
    if (strcmp((*pads)[p].where, where) == 0) {
      (*pads)[p].count++;
      return CUEMU_SUCCESS;
    }
  cuemu_lambda_pad *grown = realloc(*pads, (size_t)(*count + 1) * sizeof *grown);
  if (!grown)
    return CUEMU_OUT_OF_MEMORY;
  *pads = grown;
  cuemu_lambda_pad *pad = &grown[*count];
  pad->where = strdup(where);
  pad->signature = strdup(signature);
  pad->count = 1;
  ++*count;
  return pad->where && pad->signature ? CUEMU_SUCCESS : CUEMU_OUT_OF_MEMORY;
}

/* The lambdas that `other` makes up for those of `mine` it lacks: each
 * before the next lambda of the same sequence that both compile, when an
 * extended lambda of that sequence that both compile comes after it. */
static cuemu_status pads_for(const cuemu_rewrite *mine,
                             const cuemu_rewrite *other,
                             cuemu_lambda_pad **pads, int *count) {
  const cuemu_lambda_note *m = mine->lambdas;
  for (int i = 0; i < mine->lambda_count; ++i) {
    if (present(other->lambdas, other->lambda_count, m[i].where))
      continue;
    int next = -1, extended = 0;
    for (int j = i + 1; j < mine->lambda_count && !extended; ++j)
      if (same_sequence(&m[j], &m[i]) &&
          present(other->lambdas, other->lambda_count, m[j].where)) {
        if (next < 0)
          next = j;
        extended = m[j].extended;
      }
    if (extended) {
      cuemu_status st = add_pad(pads, count, m[next].where, m[i].signature);
      if (st != CUEMU_SUCCESS)
        return st;
    }
  }
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__lambda_pads(const cuemu_rewrite *device,
                                const cuemu_rewrite *host,
                                cuemu_lambda_pad **device_pads,
                                int *device_count,
                                cuemu_lambda_pad **host_pads,
                                int *host_count) {
  *device_pads = *host_pads = NULL;
  *device_count = *host_count = 0;
  cuemu_status st = pads_for(device, host, host_pads, host_count);
  if (st == CUEMU_SUCCESS)
    st = pads_for(host, device, device_pads, device_count);
  return st;
}

void cuemu__lambda_pads_free(cuemu_lambda_pad *pads, int count) {
  for (int p = 0; p < count; ++p) {
    free(pads[p].where);
    free(pads[p].signature);
  }
  free(pads);
}
