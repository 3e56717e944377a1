/*
 * cuemu_launch_calls.c: which kernels launch grids, through the device
 * functions they call too.
 *
 * A kernel that launches grids (dynamic parallelism) may not be in a
 * device graph, and CUDA refuses it at cudaGraphInstantiate, knowing from
 * the compiled code that it launches. The translation sees launches as
 * text: a `<<<>>>` or a cudaLaunchDevice call in the body of a kernel or a
 * namespace-scope __device__ function of the device pass. It records, for
 * each such body, whether it launches and the names it calls (an
 * identifier followed by `(` or `<`), and once the unit is walked marks
 * every kernel that launches itself or calls, directly or through other
 * device functions of the unit, a function of a name that launches. Names
 * are compared without their namespaces or overloads, so a kernel that
 * calls an overload or a namesake of a launching function is taken to
 * launch too (a device graph then refuses it); calls through function
 * pointers, member functions and functions of other translation units
 * (relocatable device code) are not followed: such a launch is still
 * refused when it is made (cudaErrorNotSupported).
 */
#include <stdlib.h>
#include <string.h>

#include "cuemu_launch_calls.h"

typedef struct body {
  char *name;     /* the function's unqualified name ("" when unknown) */
  int kernel;     /* its index in rw->kernels, or -1 */
  int launches;   /* it launches, itself or through its calls */
  char **calls;   /* names called */
  size_t ncalls, cap;
} body;

struct cuemu_launch_calls {
  body *bodies;
  size_t n, cap;
  long current; /* the body being walked, or -1 */
};

/* Words that are followed by `(` but call nothing. */
static int not_a_call(const cuemu_rewriter *rw, size_t i) {
  static const char *const words[] = {
      "if", "for", "while", "switch", "return", "sizeof", "alignof",
      "decltype", "static_assert", "catch", "__attribute__", "alignas",
      "__launch_bounds__", "__cluster_dims__", "__maxnreg__", "__declspec",
      "noexcept", "typeid", "__builtin_expect", "defined", "static_cast",
      "reinterpret_cast", "const_cast", "dynamic_cast", "template",
      "operator"};
  for (size_t k = 0; k < sizeof words / sizeof *words; ++k)
    if (cuemu__rw_is(rw, i, words[k]))
      return 1;
  return 0;
}

static char *token_text(const cuemu_rewriter *rw, size_t i) {
  const cuemu_token *t = &rw->toks[i];
  char *s = malloc(t->length + 1);
  if (s) {
    memcpy(s, rw->text + t->offset, t->length);
    s[t->length] = '\0';
  }
  return s;
}

static cuemu_launch_calls *state(cuemu_rewriter *rw) {
  if (!rw->launch_calls) {
    rw->launch_calls = calloc(1, sizeof *rw->launch_calls);
    if (rw->launch_calls)
      rw->launch_calls->current = -1;
  }
  return rw->launch_calls;
}

/* The name a function declaration [from, brace) declares: the identifier
 * before the first `(` at parenthesis depth 0 that opens no attribute. */
static char *declared_name(const cuemu_rewriter *rw, size_t from,
                           size_t brace) {
  int depth = 0;
  for (size_t k = from; k < brace; ++k) {
    if (cuemu__rw_is(rw, k, "(")) {
      if (depth == 0 && k > from && cuemu__rw_ident(rw, k - 1) &&
          !not_a_call(rw, k - 1))
        return token_text(rw, k - 1);
      depth++;
    } else if (cuemu__rw_is(rw, k, ")") && depth > 0) {
      depth--;
    }
  }
  return NULL;
}

cuemu_status cuemu__launch_calls_begin(cuemu_rewriter *rw, size_t decl_start,
                                       size_t brace, int kernel) {
  cuemu_launch_calls *c = state(rw);
  if (!c)
    return CUEMU_OUT_OF_MEMORY;
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 64;
    body *v = realloc(c->bodies, cap * sizeof *v);
    if (!v)
      return CUEMU_OUT_OF_MEMORY;
    c->bodies = v;
    c->cap = cap;
  }
  body *b = &c->bodies[c->n];
  memset(b, 0, sizeof *b);
  b->kernel = kernel;
  b->name = declared_name(rw, decl_start, brace);
  if (!b->name && !(b->name = strdup("")))
    return CUEMU_OUT_OF_MEMORY;
  c->current = (long)c->n++;
  return CUEMU_SUCCESS;
}

void cuemu__launch_calls_end(cuemu_rewriter *rw) {
  if (rw->launch_calls)
    rw->launch_calls->current = -1;
}

void cuemu__launch_calls_launch(cuemu_rewriter *rw) {
  cuemu_launch_calls *c = rw->launch_calls;
  if (c && c->current >= 0)
    c->bodies[c->current].launches = 1;
}

cuemu_status cuemu__launch_calls_token(cuemu_rewriter *rw, size_t i) {
  cuemu_launch_calls *c = rw->launch_calls;
  if (!c || c->current < 0 || i + 1 >= rw->n)
    return CUEMU_SUCCESS;
  if (!cuemu__rw_is(rw, i + 1, "(") && !cuemu__rw_is(rw, i + 1, "<"))
    return CUEMU_SUCCESS;
  /* A member access (x.f(), p->f()) names no namespace-scope function. */
  if (i > 0 && (cuemu__rw_is(rw, i - 1, ".") || cuemu__rw_is(rw, i - 1, "->")))
    return CUEMU_SUCCESS;
  body *b = &c->bodies[c->current];
  if (cuemu__rw_is(rw, i, "cudaLaunchDevice")) {
    b->launches = 1;
    return CUEMU_SUCCESS;
  }
  if (not_a_call(rw, i))
    return CUEMU_SUCCESS;
  for (size_t k = 0; k < b->ncalls; ++k)
    if (rw->toks[i].length == strlen(b->calls[k]) &&
        memcmp(rw->text + rw->toks[i].offset, b->calls[k],
               rw->toks[i].length) == 0)
      return CUEMU_SUCCESS;
  if (b->ncalls == b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 8;
    char **v = realloc(b->calls, cap * sizeof *v);
    if (!v)
      return CUEMU_OUT_OF_MEMORY;
    b->calls = v;
    b->cap = cap;
  }
  if (!(b->calls[b->ncalls] = token_text(rw, i)))
    return CUEMU_OUT_OF_MEMORY;
  b->ncalls++;
  return CUEMU_SUCCESS;
}

int cuemu__launch_calls_device_function(const cuemu_rewriter *rw, size_t i) {
  const cuemu_launch_calls *c = rw->launch_calls;
  size_t length = rw->toks[i].length;
  for (size_t k = 0; c && k < c->n; ++k)
    if (c->bodies[k].kernel < 0 && strlen(c->bodies[k].name) == length &&
        memcmp(c->bodies[k].name, rw->text + rw->toks[i].offset, length) == 0)
      return 1;
  return 0;
}

/* Whether a body named `name` launches. */
static int name_launches(const cuemu_launch_calls *c, const char *name) {
  for (size_t k = 0; k < c->n; ++k)
    if (c->bodies[k].launches && c->bodies[k].name[0] &&
        strcmp(c->bodies[k].name, name) == 0)
      return 1;
  return 0;
}

void cuemu__launch_calls_resolve(cuemu_rewriter *rw) {
  cuemu_launch_calls *c = rw->launch_calls;
  if (!c)
    return;
  /* Launching spreads to callers until nothing changes. */
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t k = 0; k < c->n; ++k) {
      body *b = &c->bodies[k];
      for (size_t j = 0; !b->launches && j < b->ncalls; ++j)
        if (name_launches(c, b->calls[j]))
          changed = b->launches = 1;
    }
  }
  for (size_t k = 0; k < c->n; ++k) {
    const body *b = &c->bodies[k];
    if (b->launches && b->kernel >= 0 && b->kernel < rw->kernel_count)
      rw->kernels[b->kernel].launches = 1;
  }
}

void cuemu__launch_calls_free(cuemu_rewriter *rw) {
  cuemu_launch_calls *c = rw->launch_calls;
  if (!c)
    return;
  for (size_t k = 0; k < c->n; ++k) {
    free(c->bodies[k].name);
    for (size_t j = 0; j < c->bodies[k].ncalls; ++j)
      free(c->bodies[k].calls[j]);
    free(c->bodies[k].calls);
  }
  free(c->bodies);
  free(c);
  rw->launch_calls = NULL;
}
