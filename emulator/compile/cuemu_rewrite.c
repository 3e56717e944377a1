/*
 * cuemu_rewrite.c: the entry point of the source rewriter (see
 * cuemu_rewrite.h). It lexes the text, walks the significant tokens once
 * while tracking namespaces, extern "C" blocks and other braces, lets each
 * construct record its edits, then applies the edits in order.
 *
 * Each edit re-emits the newlines of the text it replaces, so the output has
 * exactly the input's line count.
 */
#include "cuemu_rewrite.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_launch_calls.h"
#include "cuemu_rewriter.h"

enum scope_kind { SCOPE_NAMESPACE, SCOPE_EXTERN_C, SCOPE_EXTERN_CXX };

typedef struct scope {
  enum scope_kind kind;
  char *name;          /* namespaces: "a" or "a::b", "" when anonymous */
} scope;

typedef struct walker {
  cuemu_rewriter *rw;
  scope *stack;        /* namespace and linkage blocks only */
  size_t depth;
  size_t capacity;
  size_t other_depth;  /* braces of anything else (functions, classes) */
  size_t decl_start;   /* first token of the current namespace-scope declaration */
  int kernel_decl;     /* the current namespace-scope declaration is a kernel's */
  size_t kernel_body;  /* other_depth inside the kernel body being walked, or 0 */
  int device_decl;     /* the current namespace-scope declaration is device code */
  size_t device_body;  /* other_depth inside a __global__ or __device__
                        * function's body, or 0 (cuemu_device_code.c) */
  size_t kernel_start; /* first token of the kernel declaration being walked */
  size_t host_body;    /* other_depth inside a host function's body that
                        * cuemu_host_calls.c searches, or 0 */
  size_t host_name;    /* that function's name token */
  size_t access_body;  /* other_depth inside a host function's body whose
                        * reads and writes of device variables are judged
                        * (cuemu_host_variable_access.c), or 0 */
  int class_body;      /* the namespace-scope brace open is a class's body
                        * (a class template's too), whose member functions'
                        * bodies are judged so too */
  unsigned long long nested_classes; /* bit d: the brace open at
                        * other_depth d (2 to 63) is a nested class's body
                        * in such a class, judged as its class is */
  size_t linked_decl;  /* decl_start + 1 of the declaration given its pass's
                        * linkage attribute, or 0 */
  size_t static_kernel;/* the name of the `static` kernel being walked, whose
                        * namespace is open, or (size_t)-1 */
  cuemu_shared_scope shared; /* the kernel body's static shared variables */
} walker;

/* Builds the name of a namespace from the tokens between `namespace` and
 * its `{`: "a", "a::b" (C++17 nested), "" (anonymous). */
static char *namespace_name(const cuemu_rewriter *rw, size_t from, size_t to) {
  cuemu_strbuf sb = {0};
  size_t k = from;
  cuemu__sb_add(&sb, "", 0);
  while (k < to) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
      continue;
    }
    if (cuemu__rw_ident(rw, k) && !cuemu__rw_is(rw, k, "inline")) {
      if (sb.length) cuemu__sb_add(&sb, "::", 2);
      cuemu__sb_tokens(&sb, rw, k, k + 1, 0);
    }
    k++;
  }
  if (sb.oom) {
    free(sb.data);
    return NULL;
  }
  return sb.data;
}

static cuemu_status push(walker *w, enum scope_kind kind, char *name) {
  if (w->depth == w->capacity) {
    size_t cap = w->capacity ? w->capacity * 2 : 16;
    scope *grown = realloc(w->stack, cap * sizeof *grown);
    if (!grown) {
      free(name);
      return CUEMU_OUT_OF_MEMORY;
    }
    w->stack = grown;
    w->capacity = cap;
  }
  w->stack[w->depth].kind = kind;
  w->stack[w->depth].name = name;
  w->depth++;
  return CUEMU_SUCCESS;
}

static char *scope_name(const walker *w);

/* In the host pass, the namespace-scope declaration or definition from
 * w->decl_start to token `end` (its `;` or `{`), of the user's code: nvcc's
 * warnings #20039-D and #20040-D (cuemu_device_code.c). */
static cuemu_status host_redeclared_note(walker *w, size_t end) {
  cuemu_rewriter *rw = w->rw;
  if (!rw->preprocessed || rw->pass != CUEMU_PASS_HOST || w->kernel_decl ||
      (rw->toks[end].flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)))
    return CUEMU_SUCCESS;
  char *ns = scope_name(w);
  if (!ns) return CUEMU_OUT_OF_MEMORY;
  cuemu_status st = cuemu__host_redeclared_note(rw, ns, w->decl_start, end);
  free(ns);
  return st;
}

/* The variables that the namespace-scope declaration from w->decl_start,
 * its __device__, __constant__ or __managed__ at token i, declares, for
 * nvcc's warnings at host code's reads and writes of them
 * (cuemu_host_variable_access.c). */
static cuemu_status host_variable_names(walker *w, size_t i) {
  cuemu_rewriter *rw = w->rw;
  /* Once a declaration, at its first qualifier; none for a __managed__
   * variable. */
  int constant = 0;
  for (size_t k = w->decl_start; k < rw->n && !cuemu__rw_is(rw, k, ";") &&
                                 !cuemu__rw_is(rw, k, "=") &&
                                 !cuemu__rw_is(rw, k, "{");
       k++) {
    if (k < i && (cuemu__rw_is(rw, k, "__device__") ||
                  cuemu__rw_is(rw, k, "__constant__")))
      return CUEMU_SUCCESS;
    if (cuemu__rw_is(rw, k, "__managed__"))
      return CUEMU_SUCCESS;
    constant |= cuemu__rw_is(rw, k, "__constant__");
  }
  /* "K", the namespace for lookups, NUL, the namespace as nvcc writes it
   * (cuemu__host_variable_record()). */
  char *ns = scope_name(w);
  if (!ns) return CUEMU_OUT_OF_MEMORY;
  cuemu_strbuf shown = {0};
  cuemu__sb_add(&shown, "", 0);
  for (size_t k = 0; k < w->depth; k++)
    if (w->stack[k].kind == SCOPE_NAMESPACE) {
      if (shown.length) cuemu__sb_add(&shown, "::", 2);
      cuemu__sb_str(&shown, w->stack[k].name[0] ? w->stack[k].name
                                                : "<unnamed>");
    }
  size_t length = strlen(ns);
  char *kind = shown.oom ? NULL : malloc(length + shown.length + 3);
  if (!kind) {
    free(ns);
    free(shown.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  kind[0] = constant ? 'c' : 'd';
  memcpy(kind + 1, ns, length + 1);
  memcpy(kind + length + 2, shown.data, shown.length + 1);
  free(ns);
  free(shown.data);
  cuemu_status st = cuemu__host_variable_names(rw, w->decl_start, i, kind);
  free(kind);
  return st;
}

/* Past the template heads that the declaration from token start begins
 * with (`template <class T> template <class U>`), or start. */
static size_t past_template_heads(const cuemu_rewriter *rw, size_t start,
                                  size_t end) {
  while (start < end && cuemu__rw_is(rw, start, "template") &&
         cuemu__rw_is(rw, start + 1, "<")) {
    size_t close = cuemu__rw_template_close(rw, start + 1);
    if (close >= end)
      return end;
    start = close + 1;
  }
  return start;
}

/* Whether the namespace-scope declaration from token start to the `{` at
 * token brace opens a class's body (a class template's too): `struct`,
 * `class` or `union` in it, and no enumeration, initializer or parameters
 * after its template heads. */
static int class_head(const cuemu_rewriter *rw, size_t start, size_t brace) {
  int cls = 0;
  for (size_t k = past_template_heads(rw, start, brace); k < brace; k++) {
    if (cuemu__rw_is(rw, k, "template") || cuemu__rw_is(rw, k, "enum") ||
        cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "("))
      return 0;
    cls |= cuemu__rw_is(rw, k, "struct") || cuemu__rw_is(rw, k, "class") ||
           cuemu__rw_is(rw, k, "union");
  }
  return cls;
}

/* The first token of the member declaration of a class body whose
 * function body opens at token brace: past the `;`, `{` or `}` before it
 * and an access specifier's `:`. */
static size_t member_start(const cuemu_rewriter *rw, size_t brace) {
  for (size_t k = brace; k > 0; k--) {
    size_t p = k - 1;
    if (cuemu__rw_is(rw, p, ";") || cuemu__rw_is(rw, p, "{") ||
        cuemu__rw_is(rw, p, "}"))
      return k;
    if (cuemu__rw_is(rw, p, ":") && p > 0 &&
        (cuemu__rw_is(rw, p - 1, "public") ||
         cuemu__rw_is(rw, p - 1, "private") ||
         cuemu__rw_is(rw, p - 1, "protected")))
      return k;
  }
  return 0;
}

/* In the host and single passes, the body at `brace` of a namespace-scope
 * host function of the user's code, or of a host member function defined in
 * its class at namespace scope or in a class nested in one: its reads and
 * writes of device variables are judged (cuemu_host_variable_access.c).
 * A local class's member functions are judged with their function's body. */
static cuemu_status host_variable_body(walker *w, size_t brace) {
  cuemu_rewriter *rw = w->rw;
  if (w->other_depth == 1)
    w->class_body = !w->device_decl && !w->kernel_decl &&
                    class_head(rw, w->decl_start, brace);
  if (w->device_decl || w->kernel_decl || w->access_body ||
      !rw->preprocessed || rw->pass == CUEMU_PASS_DEVICE ||
      !rw->host_var_count ||
      (rw->toks[brace].flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)))
    return CUEMU_SUCCESS;
  /* A namespace-scope function's body, or a member function's defined in
   * its class or in a class nested in it (not device code). */
  size_t start = w->decl_start;
  if (w->other_depth >= 2 && w->class_body) {
    size_t outer = w->other_depth - 1;
    if (outer > 1 && (outer >= 64 || !(w->nested_classes >> outer & 1)))
      return CUEMU_SUCCESS; /* not in a class's body */
    start = member_start(rw, brace);
    if (class_head(rw, start, brace)) {
      if (w->other_depth < 64)
        w->nested_classes |= 1ull << w->other_depth;
      return CUEMU_SUCCESS; /* a nested class's body */
    }
    for (size_t k = start; k < brace; k++)
      if (cuemu__rw_is(rw, k, "__device__") ||
          cuemu__rw_is(rw, k, "__global__"))
        return CUEMU_SUCCESS;
  } else if (w->other_depth != 1)
    return CUEMU_SUCCESS;
  /* A template's body (a function template's, a class template's
   * member's) is judged where it does not depend on the template's
   * parameters, from its first template head. */
  size_t body_start = past_template_heads(rw, start, brace);
  size_t templated = body_start != start ? start : rw->n;
  if (w->other_depth >= 2 && w->class_body &&
      past_template_heads(rw, w->decl_start, brace) != w->decl_start)
    templated = w->decl_start;
  if (cuemu__host_body_name(rw, body_start, brace) >= rw->n)
    return CUEMU_SUCCESS;
  char *ns = scope_name(w);
  if (!ns) return CUEMU_OUT_OF_MEMORY;
  cuemu_status st = cuemu__host_variable_body(rw, ns, start, brace, templated);
  free(ns);
  w->access_body = w->other_depth;
  return st;
}

/* The `return;` statements of the body at `brace` of the device function
 * declared from token `start`, when it is device-only
 * (cuemu_device_bare_return.c). */
static cuemu_status device_bare_returns(walker *w, size_t start,
                                        size_t brace) {
  cuemu_rewriter *rw = w->rw;
  for (size_t k = start; k < brace; ++k)
    if (cuemu__rw_is(rw, k, "__host__"))
      return CUEMU_SUCCESS;
  char *ns = scope_name(w);
  if (!ns) return CUEMU_OUT_OF_MEMORY;
  cuemu_status st = cuemu__device_bare_returns(rw, ns, start, brace);
  free(ns);
  return st;
}

/* A `{` at namespace scope: opens a namespace, a linkage block or
 * something else (function or class body, initialiser). */
static cuemu_status open_brace(walker *w, size_t i) {
  cuemu_rewriter *rw = w->rw;
  size_t k = w->decl_start;
  while (cuemu__rw_skip_attribute(rw, k) != k)
    k = cuemu__rw_skip_attribute(rw, k);
  if (cuemu__rw_is(rw, k, "inline")) k++;
  if (k < i && cuemu__rw_is(rw, k, "namespace")) {
    char *name = namespace_name(rw, k + 1, i);
    if (!name) return CUEMU_OUT_OF_MEMORY;
    w->decl_start = i + 1;
    cuemu_status st = name[0] ? CUEMU_SUCCESS
                              : cuemu__unnamed_namespace(rw, k, i);
    if (st != CUEMU_SUCCESS) {
      free(name);
      return st;
    }
    return push(w, SCOPE_NAMESPACE, name);
  }
  if (i == w->decl_start + 2 && cuemu__rw_is(rw, w->decl_start, "extern") &&
      rw->toks[w->decl_start + 1].kind == CUEMU_TOKEN_STRING) {
    w->decl_start = i + 1;
    return push(w,
                cuemu__rw_is(rw, w->decl_start - 2, "\"C\"") ? SCOPE_EXTERN_C
                                                             : SCOPE_EXTERN_CXX,
                NULL);
  }
  w->other_depth++;
  if (w->kernel_decl && w->other_depth == 1) {
    w->kernel_body = 1;
    if (rw->preprocessed && !(rw->toks[i].flags & CUEMU_TOKEN_SHIM)) {
      cuemu_status st = cuemu__grid_constant_notes(rw, w->kernel_start, i);
      if (st != CUEMU_SUCCESS) return st;
    }
  }
  if (w->device_decl && w->other_depth == 1) {
    w->device_body = 1;
    cuemu__device_caller_note(rw, w->decl_start, i, w->kernel_decl);
    /* Who launches grids, and whom it calls (cuemu_launch_calls.c). */
    if (rw->preprocessed && rw->pass != CUEMU_PASS_HOST &&
        !(rw->toks[i].flags & CUEMU_TOKEN_SHIM)) {
      cuemu_status st = cuemu__launch_calls_begin(
          rw, w->decl_start, i, w->kernel_decl ? rw->last_kernel : -1);
      if (st != CUEMU_SUCCESS) return st;
    }
    /* Variable-length arrays are refused in it (cuemu_device_code.c). */
    if (rw->preprocessed &&
        !(rw->toks[i].flags & (CUEMU_TOKEN_SHIM | CUEMU_TOKEN_FOREIGN))) {
      int host = 0;
      for (size_t k = w->decl_start; k < i && !host; ++k)
        host = cuemu__rw_is(rw, k, "__host__");
      cuemu_status st = cuemu__device_body_mark(
          rw, i, w->kernel_decl ? "global" : host ? "host" : "");
      if (st != CUEMU_SUCCESS) return st;
    }
    /* A `return;` of a device-only function that returns a value, which
     * nvcc takes (cuemu_device_bare_return.c). */
    if (rw->preprocessed && !w->kernel_decl &&
        !(rw->toks[i].flags & (CUEMU_TOKEN_SHIM | CUEMU_TOKEN_FOREIGN))) {
      cuemu_status st = device_bare_returns(w, w->decl_start, i);
      if (st != CUEMU_SUCCESS) return st;
    }
    /* The host pass keeps a stub of a __device__ function's body
     * (cuemu_host_stubs.c). */
    if (rw->preprocessed && rw->pass == CUEMU_PASS_HOST && !w->kernel_decl &&
        !(rw->toks[i].flags & CUEMU_TOKEN_FOREIGN)) {
      cuemu_status st = cuemu__host_device_stub(rw, w->decl_start, i);
      if (st != CUEMU_SUCCESS) return st;
    } else if (rw->preprocessed && rw->pass == CUEMU_PASS_HOST &&
               !w->kernel_decl && !(rw->toks[i].flags & CUEMU_TOKEN_SHIM)) {
      rw->host_device_code = 1; /* a system header's body stays */
    }
  }
  /* A definition without an execution space of a function declared
   * __device__ before: nvcc's __host__ __device__ function
   * (cuemu_device_code.c). */
  if (!w->device_decl && !w->kernel_decl && w->other_depth == 1 &&
      rw->preprocessed &&
      !(rw->toks[i].flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM))) {
    cuemu_status st = cuemu__device_redeclared_mark(rw, w->decl_start, i);
    if (st != CUEMU_SUCCESS) return st;
  }
  if (w->other_depth == 1) {
    cuemu_status st = host_redeclared_note(w, i);
    if (st != CUEMU_SUCCESS) return st;
  }
  {
    cuemu_status st = host_variable_body(w, i);
    if (st != CUEMU_SUCCESS) return st;
  }
  /* A host function's body, where the whole prelude lets a call of a
   * device-only function compile (cuemu_host_calls.c). */
  if (!w->device_decl && !w->kernel_decl && w->other_depth == 1 &&
      rw->preprocessed && rw->pass == CUEMU_PASS_HOST && rw->host_full &&
      !(rw->toks[i].flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM))) {
    w->host_name = cuemu__host_body_name(rw, w->decl_start, i);
    w->host_body = w->host_name < rw->n ? 1 : 0;
  }
  w->device_decl = 0;
  w->kernel_decl = 0;
  return CUEMU_SUCCESS;
}

static cuemu_status kernel_decl_end(walker *w, size_t end);

/* Token i of the declaration that starts at token `start` is inside
 * parentheses: a `{` there opens a braced initializer
 * (`__launch_bounds__(decltype(size(Layout{}))::value)`, as CuTe's
 * tutorials bound their kernels, or a default argument `T t = T{}`), not
 * the declaration's body. */
static int in_parentheses(const cuemu_rewriter *rw, size_t start, size_t i) {
  long depth = 0;
  for (size_t k = start; k < i && k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, "(")) depth++;
    else if (cuemu__rw_is(rw, k, ")")) depth--;
  }
  return depth > 0;
}

static cuemu_status close_brace(walker *w, size_t i) {
  cuemu_status st = CUEMU_SUCCESS;
  if (w->other_depth > 0) {
    if (w->other_depth == w->host_body) w->host_body = 0;
    if (w->other_depth == w->access_body) {
      w->access_body = 0;
      cuemu__host_variable_flush(w->rw);
    }
    if (w->other_depth == w->device_body) {
      w->device_body = 0;
      cuemu__launch_calls_end(w->rw);
    }
    if (w->other_depth == w->kernel_body) {
      w->kernel_body = 0;
      st = kernel_decl_end(w, i);
    }
    if (w->other_depth < 64)
      w->nested_classes &= ~(1ull << w->other_depth);
    /* The shared variables of the block that ends leave the scope. */
    while (w->shared.count && w->shared.depth[w->shared.count - 1] >= w->other_depth)
      w->shared.count--;
    w->other_depth--;
  } else if (w->depth > 0) {
    w->depth--;
    free(w->stack[w->depth].name);
  }
  if (w->other_depth == 0) w->decl_start = i + 1;
  return st;
}

/* The enclosing namespaces of the walk, "a::b" ("" at global scope); NULL
 * when out of memory. */
static char *scope_name(const walker *w) {
  cuemu_strbuf ns = {0};
  size_t k;
  cuemu__sb_add(&ns, "", 0);
  for (k = 0; k < w->depth; k++) {
    const scope *s = &w->stack[k];
    if (s->kind == SCOPE_NAMESPACE && s->name[0]) {
      if (ns.length) cuemu__sb_add(&ns, "::", 2);
      cuemu__sb_str(&ns, s->name);
    }
  }
  if (ns.oom) {
    free(ns.data);
    return NULL;
  }
  return ns.data;
}

/* The end of a kernel's declaration (its `;`, or its body's `}`) in a
 * translation unit: see cuemu__kernel_type_alias(). */
static cuemu_status kernel_decl_end(walker *w, size_t end) {
  cuemu_rewriter *rw = w->rw;
  /* The namespace of a static kernel is closed wherever it was opened:
   * in a system header (-isystem), GCC marks the expansion of the shims'
   * `__global__` as the user's, and the `}` that ends the kernel as the
   * header's. */
  if (w->static_kernel != (size_t)-1) {
    cuemu_status st = cuemu__static_kernel_close(rw, end, w->static_kernel);
    w->static_kernel = (size_t)-1;
    if (st != CUEMU_SUCCESS) return st;
  }
  if (!rw->preprocessed || (rw->toks[end].flags & CUEMU_TOKEN_FOREIGN))
    return CUEMU_SUCCESS;
  char *ns = scope_name(w);
  if (!ns) return CUEMU_OUT_OF_MEMORY;
  cuemu_status st = cuemu__kernel_picker(rw, end);
  if (st == CUEMU_SUCCESS)
    st = cuemu__kernel_type_alias(rw, w->kernel_start, end, ns);
  free(ns);
  return st;
}

/* A `__global__` at namespace scope: records its kernel. */
static cuemu_status global_decl(walker *w, size_t i) {
  cuemu_strbuf ns = {0};
  int extern_c = 0;
  size_t k;
  cuemu_status st;
  cuemu__sb_add(&ns, "", 0);
  for (k = 0; k < w->depth; k++) {
    const scope *s = &w->stack[k];
    if (s->kind != SCOPE_NAMESPACE) {
      extern_c = s->kind == SCOPE_EXTERN_C;
    } else if (s->name[0]) {
      if (ns.length) cuemu__sb_add(&ns, "::", 2);
      cuemu__sb_str(&ns, s->name);
    }
  }
  if (ns.oom) {
    free(ns.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  st = cuemu__kernel_decl_scan(w->rw, w->decl_start, i, ns.data, extern_c);
  free(ns.data);
  return st;
}

static const char device_linkage[] = " __attribute__((visibility(\"default\")))";
/* A visible __device__ function of a further device pass of an rdc unit
 * (cuemu_translate_options' variant; a plain function or an explicit
 * specialization, not a template's instance or member): protected, which
 * marks its definitions and its references in the object, whose names
 * are then made the pass's own (cuemu__elf_variant_renames()), so that
 * each architecture's code calls that architecture's functions, as nvlink
 * links each architecture apart. A __device__ variable's too: renamed where
 * referenced, its definition the pass's own copy when its initializer
 * points at a device function, else an alias of the first pass's object. */
static const char variant_linkage[] =
    " __attribute__((visibility(\"protected\")))";

/* Adds the device pass's linkage after token i: a function's or a
 * variable's of a further pass of rdc code (variant_linkage), else the
 * default visibility. */
static cuemu_status add_device_linkage(cuemu_rewriter *rw, size_t i) {
  const cuemu_token *t = &rw->toks[i];
  if (rw->variant && rw->rdc)
    return cuemu__rw_edit(rw, t->offset + t->length, 0, variant_linkage,
                          sizeof variant_linkage - 1);
  return cuemu__rw_edit(rw, t->offset + t->length, 0, device_linkage,
                        sizeof device_linkage - 1);
}
static const char host_linkage[] = " __attribute__((weak))";
/* A kernel of the host pass is also never inlined (g++ inlines a weak
 * template instance). */
static const char host_kernel[] = " __attribute__((weak, noinline))";
/* A kernel template's, whose body records its instances (see
 * cuemu__kernel_host_record()): hidden, so that an instance's address is
 * a constant of the object, also in position-independent code. */
static const char host_kernel_template[] =
    " __attribute__((weak, noinline, visibility(\"hidden\")))";

/* The host pass's mark of the device or constant variable whose qualifier
 * is token i (CUEMU_HOST_SHADOW_MARK), and, for a `definition`, the
 * host pass's weak linkage: the host object's own, its shadow. */
static cuemu_status host_shadow(cuemu_rewriter *rw, size_t i,
                                int definition) {
  const cuemu_token *t = &rw->toks[i];
  cuemu_status st =
      cuemu__rw_edit(rw, t->offset + t->length, 0, CUEMU_HOST_SHADOW_MARK,
                     sizeof CUEMU_HOST_SHADOW_MARK - 1);
  if (st == CUEMU_SUCCESS && definition)
    st = cuemu__rw_edit(rw, t->offset + t->length, 0, host_linkage,
                        sizeof host_linkage - 1);
  return st;
}

int cuemu__rw_managed_decl(const cuemu_rewriter *rw, size_t start) {
  for (size_t k = start; k < rw->n && !cuemu__rw_is(rw, k, ";") &&
                         !cuemu__rw_is(rw, k, "=") && !cuemu__rw_is(rw, k, "{");
       k++)
    if (cuemu__rw_is(rw, k, "__managed__"))
      return 1;
  return 0;
}

/* Non-zero when the kernel declared with `__global__` at token i has
 * internal linkage (static, or in an anonymous namespace). */
static int internal_linkage(const walker *w, size_t i) {
  for (size_t k = 0; k < w->depth; k++)
    if (w->stack[k].kind == SCOPE_NAMESPACE && !w->stack[k].name[0])
      return 1;
  for (size_t k = w->decl_start; k < w->rw->last_params; k++)
    if (k != i && cuemu__rw_is(w->rw, k, "static"))
      return 1;
  return 0;
}

/* Two passes: a kernel's declaration (its `__global__` at token i) gets
 * default visibility in the device pass. In the host pass, the definition
 * of a kernel of a system header with external linkage loses its body:
 * host code names the device pass's kernel (its instances, for a
 * template: see cuemu__kernel_host_instance()), and the device code of
 * the host's view is never compiled (CCCL's calls functions that exist
 * only for a GPU). Other kernels keep a weak definition in the host pass,
 * so that it is never inlined there (a kernel template launched with
 * deduced template arguments is called by name, and one whose template
 * arguments have no linkage runs the host pass's instance). */
static cuemu_status kernel_linkage(walker *w, size_t i) {
  cuemu_rewriter *rw = w->rw;
  const cuemu_token *t = &rw->toks[i];
  /* A template's instances are emitted even when inlined everywhere in
   * the device pass, so that the host pass's launches link to them. They
   * are hidden in the compile (their records name their addresses, see
   * cuemu_kernel_instance.c), and given default visibility in the object
   * (cuemu__elf_export_instances()). */
  static const char device_template[] =
      " __attribute__((visibility(\"hidden\"), used))";
  static const char used[] = " __attribute__((used))";
  if (rw->last_params <= i)
    return CUEMU_SUCCESS; /* a declaration that names no kernel */
  if (rw->pass == CUEMU_PASS_DEVICE) {
    /* A kernel that says its visibility itself (CCCL's are hidden) has
     * the translation's instead. */
    int said = cuemu__kernel_visibility(
        rw, w->decl_start, rw->last_params,
        rw->last_is_template ? "\"hidden\"" : "\"default\"");
    cuemu_status st = CUEMU_SUCCESS;
    if (said < 0)
      return CUEMU_OUT_OF_MEMORY;
    if (rw->last_is_template && said)
      st = cuemu__rw_edit(rw, t->offset + t->length, 0, used,
                          sizeof used - 1);
    else if (rw->last_is_template)
      st = cuemu__rw_edit(rw, t->offset + t->length, 0, device_template,
                          sizeof device_template - 1);
    else if (!said)
      st = cuemu__rw_edit(rw, t->offset + t->length, 0, device_linkage,
                          sizeof device_linkage - 1);
    if (st == CUEMU_SUCCESS && rw->last_is_template && rw->last_is_definition)
      st = cuemu__kernel_instance_record(rw, i, "CUEMU_KERNEL_INSTANCE");
    return st;
  }
  /* A module's kernel template: a record that only the module of
   * -Xptxas -v keeps (CUEMU_MODULE_INSTANCE, cuemu_qualifiers.h), with
   * the visibility that makes an instance's address a constant of that
   * module (CUEMU_MODULE_TEMPLATE: hidden there, also with -rdc). */
  if (rw->pass == CUEMU_PASS_SINGLE && rw->last_is_template) {
    static const char module_template[] = " CUEMU_MODULE_TEMPLATE";
    cuemu_status st = cuemu__rw_edit(rw, t->offset + t->length, 0,
                                     module_template,
                                     sizeof module_template - 1);
    if (st == CUEMU_SUCCESS && rw->last_is_definition)
      st = cuemu__kernel_instance_record(rw, i, "CUEMU_MODULE_INSTANCE");
    return st;
  }
  if (rw->pass != CUEMU_PASS_HOST)
    return CUEMU_SUCCESS;
  if (!rw->last_is_definition) {
    /* A declaration of the user's kernel template before its definition
     * (a header's `template <typename T> __global__ void k(T *);`) has the
     * visibility its definition gets below: the first declaration's is the
     * instances', and the record of an instance needs its address as a
     * constant of the object. */
    static const char hidden[] = " __attribute__((visibility(\"hidden\")))";
    if ((t->flags & CUEMU_TOKEN_FOREIGN) || !rw->last_is_template ||
        rw->last_template == (size_t)-1)
      return CUEMU_SUCCESS;
    return cuemu__rw_edit(rw, t->offset + t->length, 0, hidden,
                          sizeof hidden - 1);
  }
  if (!(t->flags & CUEMU_TOKEN_FOREIGN)) {
    /* The user's kernels have external linkage in both passes (a static
     * one too: cuemu_internal_linkage.c), so the host pass never compiles
     * their bodies, as nvcc's host compile does not: a kernel is a
     * declaration of the device pass's, a template's body the record of
     * its instance, which makes the instance's address another name of
     * the device pass's (an instance whose template arguments have no
     * linkage, a lambda, is the host pass's own). */
    if (!rw->last_is_template)
      return cuemu__kernel_body_drop(rw);
    cuemu_status st = cuemu__rw_edit(rw, t->offset + t->length, 0,
                                     host_kernel_template,
                                     sizeof host_kernel_template - 1);
    char *names = cuemu__forward_arguments(rw, rw->last_params);
    if (!names) {
      /* A parameter the call cannot name: the body stays, recorded. */
      rw->host_device_code = 1;
      return st == CUEMU_SUCCESS ? cuemu__kernel_host_record(rw, i) : st;
    }
    size_t end = st == CUEMU_SUCCESS ? cuemu__kernel_body_end(rw) : rw->n;
    if (st == CUEMU_SUCCESS)
      st = cuemu__kernel_host_instance(rw, i, names);
    free(names);
    if (st == CUEMU_SUCCESS && end < rw->n)
      st = cuemu__host_quiet(rw, w->decl_start, end);
    return st;
  }
  if (internal_linkage(w, i)) {
    rw->host_device_code = 1; /* the body stays */
    return cuemu__rw_edit(rw, t->offset + t->length, 0, host_kernel,
                          sizeof host_kernel - 1);
  }
  if (!rw->last_is_template || cuemu__rw_is(rw, rw->last_template + 1, ">"))
    return cuemu__kernel_body_drop(rw); /* not a template's instance */
  cuemu_status st = cuemu__rw_edit(rw, t->offset + t->length, 0, host_kernel,
                                   sizeof host_kernel - 1);
  return st == CUEMU_SUCCESS ? cuemu__kernel_host_instance(rw, i, NULL) : st;
}

/* Two passes: a `static` kernel (its `__global__` at token i) is one
 * kernel of the program too (cuemu_internal_linkage.c). */
static cuemu_status static_kernel(walker *w, size_t i) {
  if (w->static_kernel != (size_t)-1) return CUEMU_SUCCESS;
  return cuemu__static_kernel_open(w->rw, w->decl_start, i, &w->static_kernel);
}

/* Whether the variable declared by tokens [start, end) is itself const
 * (a `const` after its last `*`, or with no `*` at all). */
static int top_level_const(const cuemu_rewriter *rw, size_t start,
                           size_t end) {
  int is_const = 0;
  for (size_t k = start; k < end && k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, "const")) is_const = 1;
    if (cuemu__rw_is(rw, k, "*")) is_const = 0;
  }
  return is_const;
}

/* Two passes: the namespace-scope declaration with `__device__`,
 * `__constant__` or `__managed__` at token i. A variable (and, with rdc, a
 * __device__ function that is neither inline, constexpr, a template nor
 * also __host__, or an explicit specialization of a function template) is
 * one object of the program: default visibility in the device pass, a weak
 * definition in the host pass. A static variable, a const one that no
 * declaration says `extern` (internal linkage in C++), and any variable
 * without rdc, gets a name private to the unit first
 * (cuemu_internal_linkage.c); static functions keep a copy per pass. */
/* With rdc, the explicit instantiation definition `template __device__
 * R f<T>(...);` whose `__device__` is token i, starting at token `start`:
 * the instance is one function of the program, which other units reach
 * through a declaration (`extern template`, or the template's declaration
 * alone). The device pass gives it default visibility; the host pass
 * declares it only (`extern template`), so that its stub, weak like the
 * device pass's instance, is not the one the link keeps. Sets *done when
 * the declaration is one. */
static cuemu_status explicit_device_instance(cuemu_rewriter *rw,
                                             size_t start, size_t i,
                                             int *done) {
  *done = 0;
  if (!rw->rdc || !cuemu__rw_is(rw, start, "template") ||
      cuemu__rw_is(rw, start + 1, "<") || !cuemu__rw_is(rw, i, "__device__"))
    return CUEMU_SUCCESS;
  for (size_t k = start + 1; k < rw->n && !cuemu__rw_is(rw, k, ";"); k++) {
    if (cuemu__rw_is(rw, k, "__host__") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "}"))
      return CUEMU_SUCCESS;
  }
  *done = 1;
  if (rw->pass == CUEMU_PASS_DEVICE)
    return add_device_linkage(rw, i);
  return cuemu__rw_edit(rw, rw->toks[start].offset, 0, "extern ", 7);
}

/* With rdc, the definition outside its class of a __device__ member
 * function of a class template (`template <class T> __device__ T
 * Ops<T>::apply(T v) { ... }`), whose `__device__` is token i: its
 * instances (an explicit `template struct Ops<float>;` in this unit) are
 * called from other units, which see only the class. The device pass gives
 * it default visibility, so that its instances stay global; the object's
 * own link keeps them before the host pass's stubs of the same instances.
 * Sets *done when the declaration is one. */
static cuemu_status device_member_template(cuemu_rewriter *rw, size_t start,
                                           size_t i, int *done) {
  *done = 0;
  if (!rw->rdc || !cuemu__rw_is(rw, start, "template") ||
      !cuemu__rw_is(rw, start + 1, "<") || cuemu__rw_is(rw, start + 2, ">") ||
      !cuemu__rw_is(rw, i, "__device__"))
    return CUEMU_SUCCESS;
  size_t head = cuemu__rw_template_close(rw, start + 1);
  if (head >= i)
    return CUEMU_SUCCESS;
  for (size_t k = head + 1; k < i; k++)
    if (!cuemu__rw_ident(rw, k) || cuemu__rw_is(rw, k, "inline") ||
        cuemu__rw_is(rw, k, "constexpr") || cuemu__rw_is(rw, k, "__host__") ||
        cuemu__rw_is(rw, k, "template") || cuemu__rw_is(rw, k, "friend") ||
        cuemu__rw_is(rw, k, "static"))
      return CUEMU_SUCCESS;
  /* A qualified name (`Cls<T>::name`) before the parameters, then a body. */
  int qualified = 0;
  size_t k = i + 1;
  for (; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, "inline") || cuemu__rw_is(rw, k, "constexpr") ||
        cuemu__rw_is(rw, k, "__host__") || cuemu__rw_is(rw, k, "operator") ||
        cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "="))
      return CUEMU_SUCCESS;
    if (cuemu__rw_is(rw, k, "<")) {
      k = cuemu__rw_template_close(rw, k);
      if (k >= rw->n)
        return CUEMU_SUCCESS;
      continue;
    }
    if (cuemu__rw_is(rw, k, "::"))
      qualified = 1;
    if (cuemu__rw_is(rw, k, "("))
      break;
  }
  if (!qualified || k >= rw->n || !cuemu__rw_ident(rw, k - 1))
    return CUEMU_SUCCESS;
  k = cuemu__rw_close(rw, k);
  while (k < rw->n && !cuemu__rw_is(rw, k, "{") && !cuemu__rw_is(rw, k, ";") &&
         !cuemu__rw_is(rw, k, "="))
    k++;
  if (!cuemu__rw_is(rw, k, "{"))
    return CUEMU_SUCCESS;
  *done = 1;
  if (rw->pass != CUEMU_PASS_DEVICE)
    return CUEMU_SUCCESS;
  return add_device_linkage(rw, i);
}

/* With rdc, in a further device pass, the declaration of a __device__
 * function template at namespace scope (`template <class T> __device__ T
 * f(T);`, with or without its body; not inline, constexpr, static or also
 * __host__), whose `__device__` is token i: its instances get the pass's
 * names, as a plain function's, so that another unit's explicit
 * specialization or instantiation (protected and renamed too) is called
 * by this architecture's code, and an instance that each unit makes is
 * one weak function of the architecture. Sets *done when the declaration
 * is one. */
static cuemu_status variant_function_template(cuemu_rewriter *rw,
                                              size_t start, size_t i,
                                              int *done) {
  *done = 0;
  if (!rw->rdc || !rw->variant || rw->pass != CUEMU_PASS_DEVICE ||
      !cuemu__rw_is(rw, start, "template") ||
      !cuemu__rw_is(rw, start + 1, "<") || cuemu__rw_is(rw, start + 2, ">") ||
      !cuemu__rw_is(rw, i, "__device__"))
    return CUEMU_SUCCESS;
  size_t head = cuemu__rw_template_close(rw, start + 1);
  if (head >= i)
    return CUEMU_SUCCESS;
  size_t k;
  for (k = head + 1; k < rw->n && !cuemu__rw_is(rw, k, "("); k++) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after - 1;
      continue;
    }
    if (cuemu__rw_is(rw, k, "<")) {
      k = cuemu__rw_template_close(rw, k);
      if (k >= rw->n)
        return CUEMU_SUCCESS;
      continue;
    }
    if (cuemu__rw_is(rw, k, "inline") || cuemu__rw_is(rw, k, "constexpr") ||
        cuemu__rw_is(rw, k, "static") || cuemu__rw_is(rw, k, "__host__") ||
        cuemu__rw_is(rw, k, "friend") || cuemu__rw_is(rw, k, "operator") ||
        cuemu__rw_is(rw, k, "template") || cuemu__rw_is(rw, k, "::") ||
        cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "decltype"))
      return CUEMU_SUCCESS;
  }
  if (k >= rw->n || !cuemu__rw_ident(rw, k - 1))
    return CUEMU_SUCCESS;
  *done = 1;
  const cuemu_token *t = &rw->toks[i];
  return cuemu__rw_edit(rw, t->offset + t->length, 0, variant_linkage,
                        sizeof variant_linkage - 1);
}

/* The `(` of the parameters of the operator function whose `operator` is
 * token k (`operator()(`, `operator+(`, `operator int(`); rw->n when there
 * is none, or when it is `operator new` or `operator delete`. */
static size_t operator_parameters(const cuemu_rewriter *rw, size_t k) {
  k++;
  if (cuemu__rw_is(rw, k, "new") || cuemu__rw_is(rw, k, "delete"))
    return rw->n;
  if (cuemu__rw_is(rw, k, "(") && cuemu__rw_is(rw, k + 1, ")"))
    k += 2;
  while (k < rw->n && !cuemu__rw_is(rw, k, "(") && !cuemu__rw_is(rw, k, ";") &&
         !cuemu__rw_is(rw, k, "{") && !cuemu__rw_is(rw, k, "="))
    k++;
  return cuemu__rw_is(rw, k, "(") ? k : rw->n;
}

/* With rdc, a device pass's declaration of a __host__ __device__ function
 * (`__device__` at token i) that is one function of the program: neither
 * inline, constexpr, static, a template, an explicit specialization nor in
 * an unnamed namespace (`eligible`). As nvcc's, its device code is not its
 * host code: the device pass's definition and references (a device pass
 * also compiles host code) are marked as a further pass's __device__
 * functions are, protected, and named apart from the host pass's
 * (NAME.cuemu_device, NAME.cuemu_arch_800; cuemu__elf_variant_renames()),
 * so that another unit's kernel calls its device code. A reference that no
 * unit's device pass defines (a function that a host-only file defines)
 * falls back to the host's (cuemu__elf_device_fallbacks()). */
static cuemu_status host_device_linkage(walker *w, size_t i, int eligible) {
  cuemu_rewriter *rw = w->rw;
  w->linked_decl = w->decl_start + 1;
  if (!eligible || !rw->rdc || rw->pass != CUEMU_PASS_DEVICE)
    return CUEMU_SUCCESS;
  for (size_t d = 0; d < w->depth; d++)
    if (w->stack[d].kind == SCOPE_NAMESPACE && !w->stack[d].name[0])
      return CUEMU_SUCCESS;
  const cuemu_token *t = &rw->toks[i];
  return cuemu__rw_edit(rw, t->offset + t->length, 0, variant_linkage,
                        sizeof variant_linkage - 1);
}

/* With rdc, in a device pass, the declaration in a class of a member
 * function whose `__device__` is token i: when it is a non-inline one
 * declared without its body (`__host__ __device__ float length() const;`;
 * static, virtual and operator functions too), neither friend nor
 * constexpr, and also __host__ (or in
 * a further pass, whose __device__ functions get the pass's names), it
 * gets host_device_linkage()'s mark, which its definition in another unit
 * and every unit's calls share. */
static cuemu_status host_device_member(cuemu_rewriter *rw, size_t i) {
  int has_host = 0, operator_function = 0;
  size_t k = i;
  while (k > 0 && !cuemu__rw_is(rw, k - 1, ";") &&
         !cuemu__rw_is(rw, k - 1, "{") && !cuemu__rw_is(rw, k - 1, "}") &&
         !cuemu__rw_is(rw, k - 1, ":")) {
    --k;
    if (!cuemu__rw_ident(rw, k) || cuemu__rw_is(rw, k, "inline") ||
        cuemu__rw_is(rw, k, "friend") || cuemu__rw_is(rw, k, "constexpr") ||
        cuemu__rw_is(rw, k, "template") || cuemu__rw_is(rw, k, "typedef") ||
        cuemu__rw_is(rw, k, "using"))
      return CUEMU_SUCCESS;
    if (cuemu__rw_is(rw, k, "__host__"))
      has_host = 1;
  }
  /* The declarator: a plain name, then its parameters. */
  for (k = i + 1; k < rw->n && !cuemu__rw_is(rw, k, "("); k++) {
    if (cuemu__rw_is(rw, k, "<")) {
      k = cuemu__rw_template_close(rw, k);
      if (k >= rw->n)
        return CUEMU_SUCCESS;
      continue;
    }
    if (cuemu__rw_is(rw, k, "__host__"))
      has_host = 1;
    if (cuemu__rw_is(rw, k, "operator")) {
      k = operator_parameters(rw, k);
      if (k >= rw->n)
        return CUEMU_SUCCESS;
      operator_function = 1;
      break;
    }
    if (cuemu__rw_is(rw, k, "inline") || cuemu__rw_is(rw, k, "friend") ||
        cuemu__rw_is(rw, k, "constexpr") || cuemu__rw_is(rw, k, ";") ||
        cuemu__rw_is(rw, k, "{") || cuemu__rw_is(rw, k, "=") ||
        cuemu__rw_is(rw, k, "~"))
      return CUEMU_SUCCESS;
  }
  if (k >= rw->n || !(operator_function || cuemu__rw_ident(rw, k - 1)))
    return CUEMU_SUCCESS;
  /* Its qualifiers, then `;`: not a body, `= 0`, `= default`. */
  for (k = cuemu__rw_close(rw, k) + 1; k < rw->n; k++) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after - 1;
    } else if (cuemu__rw_is(rw, k, "(")) {
      k = cuemu__rw_close(rw, k); /* noexcept(...) */
    } else if (cuemu__rw_is(rw, k, ";")) {
      break;
    } else if (!cuemu__rw_ident(rw, k) && !cuemu__rw_is(rw, k, "&") &&
               !cuemu__rw_is(rw, k, "&&")) {
      return CUEMU_SUCCESS; /* a body, `=`, a trailing return type */
    }
  }
  if (k >= rw->n)
    return CUEMU_SUCCESS;
  /* A first pass's member that is only __device__: default visibility, as
   * its definition's, which clang++ takes from this declaration alone for
   * a class template's instance (it ignores the mark of the definition
   * outside the class, device_member_template()): the instances that
   * another unit's explicit instantiation makes stay global. */
  const cuemu_token *t = &rw->toks[i];
  if (!(has_host || rw->variant))
    return cuemu__rw_edit(rw, t->offset + t->length, 0, device_linkage,
                          sizeof device_linkage - 1);
  return cuemu__rw_edit(rw, t->offset + t->length, 0, variant_linkage,
                        sizeof variant_linkage - 1);
}

/* Removes the `extern` tokens of the declaration that starts at token
 * start (not `extern "C"`, whose linkage stays). */
static cuemu_status drop_extern(cuemu_rewriter *rw, size_t start) {
  for (size_t k = start; k < rw->n && !cuemu__rw_is(rw, k, ";") &&
                         !cuemu__rw_is(rw, k, "=") && !cuemu__rw_is(rw, k, "{");
       k++) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[")) {
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n) break;
      continue;
    }
    if (!cuemu__rw_is(rw, k, "extern") ||
        (k + 1 < rw->n && rw->toks[k + 1].kind == CUEMU_TOKEN_STRING))
      continue;
    cuemu_status st =
        cuemu__rw_edit(rw, rw->toks[k].offset, rw->toks[k].length, "", 0);
    if (st != CUEMU_SUCCESS) return st;
  }
  return CUEMU_SUCCESS;
}

static cuemu_status device_linkage_decl(walker *w, size_t i) {
  cuemu_rewriter *rw = w->rw;
  size_t k, start = w->decl_start;
  int is_extern = 0, has_init = 0, is_function = 0, has_body = 0;
  if (rw->pass != CUEMU_PASS_DEVICE && rw->pass != CUEMU_PASS_HOST)
    return CUEMU_SUCCESS;
  if (w->linked_decl == start + 1) return CUEMU_SUCCESS;
  int instance = 0;
  cuemu_status is = explicit_device_instance(rw, start, i, &instance);
  if (is == CUEMU_SUCCESS && !instance)
    is = device_member_template(rw, start, i, &instance);
  if (is == CUEMU_SUCCESS && !instance)
    is = variant_function_template(rw, start, i, &instance);
  if (is != CUEMU_SUCCESS || instance) {
    w->linked_decl = start + 1;
    return is;
  }
  int handled = 0;
  cuemu_status vt = cuemu__static_variable_template(
      rw, start, i, device_linkage, sizeof device_linkage - 1, &handled);
  if (vt != CUEMU_SUCCESS || handled) {
    w->linked_decl = start + 1;
    return vt;
  }
  vt = cuemu__device_variable_template(
      rw, start, i, device_linkage, sizeof device_linkage - 1, &handled);
  if (vt != CUEMU_SUCCESS || handled) {
    w->linked_decl = start + 1;
    return vt;
  }
  int has_static = 0;
  for (k = start; k < rw->n && !cuemu__rw_is(rw, k, ";") &&
                  !cuemu__rw_is(rw, k, "(") && !cuemu__rw_is(rw, k, "=");
       k++)
    if (cuemu__rw_is(rw, k, "static")) has_static = 1;
  if (has_static) {
    /* One object of the program too (cuemu_internal_linkage.c). */
    char *ns = scope_name(w);
    if (!ns) return CUEMU_OUT_OF_MEMORY;
    int done = 0;
    cuemu_status st = cuemu__private_device_variable(rw, start, i, ns, &done);
    free(ns);
    if (st != CUEMU_SUCCESS || !done) return st;
  }
  /* An explicit specialization of a function template (`template <>
   * __device__ float f<float>(float)`) is one function, as a plain one. */
  int specialization = cuemu__rw_is(rw, start, "template") &&
                       cuemu__rw_is(rw, start + 1, "<") &&
                       cuemu__rw_is(rw, start + 2, ">");
  int is_inline = 0, has_host = 0;
  size_t inline_token = 0;
  for (k = specialization ? start + 3 : start; k < i; k++) {
    if (cuemu__rw_is(rw, k, "inline")) {
      is_inline = 1;
      inline_token = k;
    }
    if (cuemu__rw_is(rw, k, "__host__")) has_host = 1;
    if ((cuemu__rw_is(rw, k, "static") && !has_static) ||
        cuemu__rw_is(rw, k, "constexpr") || cuemu__rw_is(rw, k, "template") ||
        cuemu__rw_is(rw, k, "typedef") ||
        cuemu__rw_is(rw, k, "using") || cuemu__rw_is(rw, k, "friend"))
      return CUEMU_SUCCESS;
    if (cuemu__rw_is(rw, k, "extern")) is_extern = 1;
  }
  for (k = i + 1; k < rw->n; k++) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after - 1;
      continue;
    }
    if (cuemu__rw_is(rw, k, "inline")) {
      is_inline = 1;
      inline_token = k;
    }
    if (cuemu__rw_is(rw, k, "__host__")) has_host = 1;
    if ((cuemu__rw_is(rw, k, "static") && !has_static) ||
        cuemu__rw_is(rw, k, "constexpr") || cuemu__rw_is(rw, k, "thread_local"))
      return CUEMU_SUCCESS;
    if (cuemu__rw_is(rw, k, "extern")) is_extern = 1;
    if (cuemu__rw_is(rw, k, "operator")) {
      /* An operator function (`Vec::operator+`, `operator()`), one
       * function of the program as a named one; not the allocation
       * functions, whose host pass's copy would replace the host's. */
      k = operator_parameters(rw, k);
      if (k >= rw->n) return CUEMU_SUCCESS;
    }
    size_t name, nested = cuemu__rw_nested_declarator(rw, k, &name,
                                                      &is_function);
    if (nested != k && !is_function) {
      k = nested - 1; /* a pointer to a function, or an array of them */
      continue;
    }
    if (cuemu__rw_is(rw, k, "(")) {
      is_function = 1;
      k = nested != k ? nested - 1 : cuemu__rw_close(rw, k);
      if (k >= rw->n) return CUEMU_SUCCESS;
      /* A body, or the end of a prototype. */
      for (k++; k < rw->n; k++) {
        if (cuemu__rw_is(rw, k, "{")) {
          has_body = 1;
          break;
        }
        if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "=")) break;
      }
      break;
    }
    if (cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "{")) {
      has_init = 1;
      break;
    }
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "[")) break;
    if (cuemu__type_arguments(rw, k) < rw->n) {
      k = cuemu__type_arguments(rw, k); /* `Foo<int> name`: the type's */
      continue;
    }
    if (cuemu__type_operator(rw, k) < rw->n) {
      k = cuemu__type_operator(rw, k); /* `decltype(x) name`: the type's */
      if (k >= rw->n) return CUEMU_SUCCESS;
      continue;
    }
    if (cuemu__rw_is(rw, k, "<")) {
      /* A template-id: a specialization's name, else not a declaration
       * this handles. */
      size_t close = cuemu__rw_template_close(rw, k);
      if (!specialization || close >= rw->n) return CUEMU_SUCCESS;
      k = close;
      continue;
    }
  }
  if (has_static && is_inline && !is_function) {
    /* A static inline variable (`inline __constant__ static T *p[5];`,
     * which nvcc accepts without rdc) is the unit's own, as a static one:
     * made private above, it loses `inline` too and is linked as any other
     * private variable, so that what cudaMemcpyToSymbol writes is what
     * kernels read. */
    cuemu_status st = cuemu__rw_edit(rw, rw->toks[inline_token].offset,
                                     rw->toks[inline_token].length, "", 0);
    if (st != CUEMU_SUCCESS) return st;
    is_inline = 0;
  }
  if (has_host)
    return host_device_linkage(w, i, is_function && !is_inline &&
                                         !has_static && !specialization);
  if (is_function && !(rw->rdc && cuemu__rw_is(rw, i, "__device__")))
    return CUEMU_SUCCESS;
  if (specialization && !is_function)
    return CUEMU_SUCCESS;
  if (is_inline) {
    /* An inline function keeps a copy per pass. An inline variable (C++17)
     * is one object of the program with rdc, as a variable template's
     * instance is (cuemu_variable_template.c): default visibility in the
     * device pass; the host pass's unique definition is made weak after
     * its compile (cuemu__elf_weaken_unique()). Without rdc nvcc refuses
     * one with external linkage; a static one, or one in an unnamed
     * namespace, is each unit's own. */
    if (!is_function && !rw->rdc && !has_static &&
        rw->pass == CUEMU_PASS_DEVICE &&
        !(rw->toks[i].flags & CUEMU_TOKEN_FOREIGN)) {
      int unnamed = 0;
      for (size_t d = 0; d < w->depth; d++)
        if (w->stack[d].kind == SCOPE_NAMESPACE && !w->stack[d].name[0])
          unnamed = 1;
      if (!unnamed)
        return cuemu__rw_error(
            rw, rw->toks[i].line,
            "An inline __device__/__constant__/__managed__ variable must "
            "have internal linkage when the program is compiled in whole "
            "program mode (-rdc=false), as nvcc says");
    }
    if (!is_function && rw->pass == CUEMU_PASS_HOST &&
        !cuemu__rw_managed_decl(rw, start)) {
      w->linked_decl = start + 1;
      return host_shadow(rw, i, 0);
    }
    if (is_function || !rw->rdc || rw->pass != CUEMU_PASS_DEVICE)
      return CUEMU_SUCCESS;
    w->linked_decl = start + 1;
    const cuemu_token *t = &rw->toks[i];
    return cuemu__rw_edit(rw, t->offset + t->length, 0, device_linkage,
                          sizeof device_linkage - 1);
  }
  /* A const variable that no declaration says `extern` has internal
   * linkage in C++, and nvcc keeps each unit's own with rdc too (PTX
   * `__nv_static_..._name`): private to the unit, as a static one
   * (cuemu_internal_linkage.c), as is every variable without rdc. One that
   * is not made private (a system header's, `-isystem`) is left as C++ has
   * it, each pass's own, as a static one there. */
  int was_extern = is_extern;
  if (!rw->rdc && !is_function && is_extern && !has_init &&
      !(rw->toks[i].flags & CUEMU_TOKEN_FOREIGN)) {
    /* Without rdc an extern declaration is a definition of the unit's own
     * variable, as nvcc treats it (its warning #20044-D: "treated as a
     * static definition"): the `extern` goes, in both passes, so that a
     * lone `extern __device__ int x;` links. */
    cuemu_status st = drop_extern(rw, start);
    if (st != CUEMU_SUCCESS) return st;
    is_extern = 0;
  }
  int const_decl = !is_function && !has_static && !is_extern && k > i + 1 &&
                   k < rw->n && cuemu__rw_ident(rw, k - 1) &&
                   top_level_const(rw, start, k);
  int internal_const = const_decl && rw->rdc &&
                       cuemu__const_variable_internal(rw, start, k - 1);
  if (internal_const || (!is_function && !has_static && !rw->rdc)) {
    char *ns = scope_name(w);
    if (!ns) return CUEMU_OUT_OF_MEMORY;
    int done = 0;
    cuemu_status st = CUEMU_SUCCESS;
    if (!rw->rdc && rw->pass == CUEMU_PASS_DEVICE && k > i + 1 &&
        k < rw->n && cuemu__rw_ident(rw, k - 1) &&
        !(rw->toks[i].flags & CUEMU_TOKEN_FOREIGN))
      st = cuemu__device_variable_note(rw, ns, k - 1, was_extern);
    if (st == CUEMU_SUCCESS)
      st = cuemu__private_device_variable(rw, start, i, ns, &done);
    free(ns);
    if (st != CUEMU_SUCCESS) return st;
    if (!done && (internal_const ||
                  (const_decl && cuemu__const_variable_internal(rw, start, k - 1))))
      return CUEMU_SUCCESS;
  }
  w->linked_decl = start + 1;
  const cuemu_token *t = &rw->toks[i];
  if (!is_function && !is_extern && top_level_const(rw, start, k)) {
    /* A const variable has internal linkage in C++: `extern` gives it the
     * program-wide linkage of a __device__ or __constant__ variable (which
     * the host pass's weak definition needs). */
    cuemu_status st = cuemu__rw_edit(rw, t->offset, 0, "extern ", 7);
    if (st != CUEMU_SUCCESS) return st;
  }
  if (rw->pass == CUEMU_PASS_DEVICE)
    return add_device_linkage(rw, i);
  int definition = is_function ? has_body : (!is_extern || has_init);
  if (!is_function && rw->pass == CUEMU_PASS_HOST &&
      !cuemu__rw_managed_decl(rw, start))
    return host_shadow(rw, i, definition);
  if (definition)
    return cuemu__rw_edit(rw, t->offset + t->length, 0, host_linkage,
                          sizeof host_linkage - 1);
  return CUEMU_SUCCESS;
}

/* In a translation unit, a `__shared__` that is not `extern`: the
 * qualifier becomes `static thread_local`, or `thread_local` when the
 * declaration already says `static` (before or after it), placed after an
 * `alignas(...)` that follows it. The variable is aligned to at least 128
 * bytes: on a GPU a block's static shared variables start at the shared
 * window's start, which is 1024-byte aligned, and in the usual layouts
 * (sizes that are multiples of 128) each one starts at such a multiple, so
 * GEMM tutorials' WMMA kernels store float4s into a
 * `__shared__ half s_a[BM][BK + 8]` tile and give its rows to
 * wmma::load_matrix_sync, which wants 256-bit alignment, and TMA copies
 * want 128 bytes; a `static thread_local` of the element's own alignment
 * would misalign them. GCC's aligned attribute only ever raises the
 * alignment, so a stricter alignas of the user's stays. */
static cuemu_status static_shared(cuemu_rewriter *rw, size_t i) {
  int has_static = 0;
  size_t k, n;
  for (k = i, n = 0; k-- > 0 && n < 32; n++) {
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, ")") ||
        cuemu__rw_is(rw, k, ":"))
      break;
    if (cuemu__rw_is(rw, k, "static")) has_static = 1;
  }
  for (k = i + 1, n = 0; k < rw->n && n < 32; k++, n++) {
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "=") ||
        cuemu__rw_is(rw, k, "[") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "("))
      break;
    if (cuemu__rw_is(rw, k, "static")) has_static = 1;
  }
#define CUEMU_SHARED_ALIGNED " __attribute__((aligned(128)))"
  static const char both[] = "static thread_local" CUEMU_SHARED_ALIGNED,
                    one[] = "thread_local" CUEMU_SHARED_ALIGNED;
  static const char both_after[] = " static thread_local" CUEMU_SHARED_ALIGNED,
                    one_after[] = " thread_local" CUEMU_SHARED_ALIGNED;
#undef CUEMU_SHARED_ALIGNED
  if (cuemu__rw_is(rw, i + 1, "alignas") && cuemu__rw_is(rw, i + 2, "(") &&
      cuemu__rw_close(rw, i + 2) < rw->n) {
    /* `__shared__ alignas(16) float a[4]`, which nvcc accepts: C++ takes
     * alignas before the specifiers, not among them. */
    const cuemu_token *close = &rw->toks[cuemu__rw_close(rw, i + 2)];
    cuemu_status st = cuemu__rw_edit(rw, rw->toks[i].offset,
                                     rw->toks[i].length, "", 0);
    if (st != CUEMU_SUCCESS)
      return st;
    return cuemu__rw_edit(rw, close->offset + close->length, 0,
                          has_static ? one_after : both_after,
                          has_static ? sizeof one_after - 1
                                     : sizeof both_after - 1);
  }
  return cuemu__rw_edit(rw, rw->toks[i].offset, rw->toks[i].length,
                        has_static ? one : both,
                        has_static ? sizeof one - 1 : sizeof both - 1);
}

/* The C library's functions that end the process, which nvcc refuses in
 * device code (core/cuemu_host_calls.c turns calls that are not seen here,
 * through __device__ functions, into launch errors). */
static const char *const process_enders[] = {"abort", "exit", "_Exit",
                                             "quick_exit", NULL};

/* A call of one of process_enders at token i of a kernel's body (`abort(`
 * or `std::abort(`, not a member or another namespace's function): refused
 * as nvcc refuses it. */
static cuemu_status host_call_in_kernel(cuemu_rewriter *rw, size_t i) {
  if (i + 1 >= rw->n || !cuemu__rw_is(rw, i + 1, "("))
    return CUEMU_SUCCESS;
  if (i > 0 && (cuemu__rw_is(rw, i - 1, ".") || cuemu__rw_is(rw, i - 1, "->")))
    return CUEMU_SUCCESS;
  if (i > 0 && cuemu__rw_is(rw, i - 1, "::") &&
      !(i > 1 && cuemu__rw_is(rw, i - 2, "std")))
    return CUEMU_SUCCESS;
  for (const char *const *name = process_enders; *name; ++name)
    if (cuemu__rw_is(rw, i, *name)) {
      char what[160];
      snprintf(what, sizeof what,
               "calling a __host__ function(\"%s\") from a __global__ "
               "function is not allowed",
               *name);
      return cuemu__rw_error(rw, rw->toks[i].line, what);
    }
  return CUEMU_SUCCESS;
}

static cuemu_status walk(walker *w) {
  cuemu_rewriter *rw = w->rw;
  size_t i = 0, resume;
  cuemu_status st = CUEMU_SUCCESS;
  static const char noinline[] = "__attribute__((noinline))";
  while (i < rw->n && st == CUEMU_SUCCESS) {
    const cuemu_token *t = &rw->toks[i];
    /* The shims are walked, never rewritten; the CUDA code of every other
     * header (CUB, Thrust, a library under -isystem) is translated. */
    int own = !(t->flags & CUEMU_TOKEN_SHIM);
    rw->scope_depth = w->other_depth;
    if (own && t->kind == CUEMU_TOKEN_NUMBER)
      st = cuemu__decimal_literal_rewrite(rw, i);
    if (t->kind == CUEMU_TOKEN_IDENT) {
      if (w->other_depth == 0 && (cuemu__rw_is(rw, i, "__device__") ||
                                  cuemu__rw_is(rw, i, "__global__")))
        w->device_decl = 1;
      /* A __device__ lambda's body may call device functions: the rest of
       * the host function is not searched. */
      if (w->host_body && cuemu__rw_is(rw, i, "__device__"))
        w->host_body = 0;
      else if (w->host_body)
        cuemu__host_call_check(rw, i, w->host_name);
      if (w->access_body && cuemu__rw_is(rw, i, "__device__")) {
        w->access_body = 0;
        cuemu__host_variable_flush(rw);
      }
      else if (w->access_body)
        cuemu__host_variable_access(rw, i);
      if (own && rw->preprocessed && w->other_depth > 0 &&
          cuemu__rw_is(rw, i, "default"))
        cuemu__defaulted_space_check(rw, i); /* cuemu_defaulted_space.c */
      if (own && w->device_body)
        st = cuemu__device_code_check(rw, i);
      if (st == CUEMU_SUCCESS && own && rw->preprocessed &&
          w->other_depth == 0 && i == w->decl_start &&
          !(t->flags & CUEMU_TOKEN_FOREIGN) && cuemu__rw_is(rw, i, "template"))
        st = cuemu__implicit_typename(rw, i);
      if (st == CUEMU_SUCCESS && own && rw->preprocessed &&
          !(t->flags & CUEMU_TOKEN_FOREIGN) && cuemu__rw_is(rw, i, "typename"))
        st = cuemu__implicit_template(rw, i);
      if (st == CUEMU_SUCCESS && own && w->device_body)
        st = cuemu__launch_calls_token(rw, i);
      if (st == CUEMU_SUCCESS && rw->preprocessed &&
          rw->pass == CUEMU_PASS_HOST && w->other_depth > 0 &&
          !w->device_body && !w->kernel_body &&
          !(t->flags & CUEMU_TOKEN_FOREIGN) &&
          cuemu__rw_is(rw, i, "__device__"))
        st = cuemu__host_member_stub(rw, i); /* cuemu_host_stubs.c */
      if (st == CUEMU_SUCCESS && rw->preprocessed &&
          rw->pass != CUEMU_PASS_HOST && w->other_depth > 0 &&
          !w->device_body && !w->kernel_body &&
          !(t->flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)) &&
          cuemu__rw_is(rw, i, "__device__")) {
        /* A member function's or an extended lambda's body, marked as a
         * namespace-scope device function's (cuemu_device_code.c). */
        st = cuemu__device_inner_mark(rw, i);
      }
      /* A `return;` of a device-only member function that returns a
       * value (cuemu_device_bare_return.c). */
      if (st == CUEMU_SUCCESS && rw->preprocessed && w->other_depth > 0 &&
          !w->device_body && !w->kernel_body &&
          !(t->flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)) &&
          cuemu__rw_is(rw, i, "__device__")) {
        size_t start, body = cuemu__rw_member_body(rw, i, &start);
        if (body < rw->n)
          st = device_bare_returns(w, start, body);
      }
      /* A member function declared __device__ without its body, recorded
       * for a definition after its class without a qualifier. */
      if (st == CUEMU_SUCCESS && rw->preprocessed && w->other_depth > 0 &&
          !w->device_body && !w->kernel_body &&
          !(t->flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)) &&
          cuemu__rw_is(rw, i, "__device__"))
        st = cuemu__device_prototype_note(rw, i, (size_t)-1, 0);
      if (st != CUEMU_SUCCESS) {
        /* refused in device code */
      } else if (own && cuemu__rw_is(rw, i, "__noinline__") &&
          !(i > 0 && (cuemu__rw_is(rw, i - 1, "(") ||
                      cuemu__rw_is(rw, i - 1, ",")))) {
        /* Not inside __attribute__((__noinline__)), which is GCC's own. */
        st = cuemu__rw_edit(rw, t->offset, t->length, noinline,
                            sizeof noinline - 1);
      } else if (own && cuemu__rw_is(rw, i, "__shared__")) {
        st = rw->preprocessed && !(t->flags & CUEMU_TOKEN_FOREIGN)
                 ? cuemu__shared_initializer_check(rw, i)
                 : CUEMU_SUCCESS;
        /* In a function's body: refused in a host function's. */
        if (st == CUEMU_SUCCESS && rw->preprocessed && w->other_depth > 0 &&
            !(t->flags & CUEMU_TOKEN_FOREIGN) &&
            !(i > 0 && cuemu__rw_is(rw, i - 1, "extern")))
          st = cuemu__shared_mark(rw, i);
        if (st == CUEMU_SUCCESS)
          st = cuemu__shared_decl_rewrite(rw, i, &resume);
        if (st == CUEMU_SUCCESS && resume != i) {
          i = resume; /* the `;` that ends the declaration */
          continue;
        }
        if (st == CUEMU_SUCCESS && rw->preprocessed)
          st = static_shared(rw, i);
        if (st == CUEMU_SUCCESS && w->kernel_body) {
          const size_t before = w->shared.count;
          st = cuemu__static_shared_note(rw, i, 1, &w->shared);
          if (w->shared.count > before) w->shared.depth[before] = w->other_depth;
        } else if (st == CUEMU_SUCCESS && rw->preprocessed &&
                 w->other_depth > 0 && (rw->pass == CUEMU_PASS_DEVICE ||
                                        rw->pass == CUEMU_PASS_SINGLE))
          st = cuemu__static_shared_note(rw, i, 0, NULL); /* a callee's */
      } else if (w->other_depth > 0 && (cuemu__rw_is(rw, i, "asm") ||
                                        cuemu__rw_is(rw, i, "__asm__") ||
                                        cuemu__rw_is(rw, i, "__asm"))) {
        st = cuemu__ptx_rewrite(rw, i, &resume); /* inline PTX */
        if (st == CUEMU_SUCCESS && resume != i) {
          i = resume + 1;
          continue;
        }
      } else if (own && w->other_depth > 0 &&
                 cuemu__rw_is(rw, i, "__global__")) {
        st = cuemu__member_kernel_check(rw, i); /* cuemu_member_kernel.c */
      } else if (own && w->other_depth > 0 && !w->device_body &&
                 rw->preprocessed && rw->rdc &&
                 rw->pass == CUEMU_PASS_DEVICE &&
                 cuemu__rw_is(rw, i, "__device__")) {
        /* Also a system header's class: its members may be defined in
         * the user's units. */
        st = host_device_member(rw, i);
      } else if (w->other_depth == 0 && cuemu__rw_is(rw, i, "__global__")) {
        st = global_decl(w, i);
        if (st == CUEMU_SUCCESS && own)
          st = cuemu__kernel_form_check(rw, w->decl_start, i);
        if (st == CUEMU_SUCCESS && own && rw->preprocessed)
          st = static_kernel(w, i);
        if (st == CUEMU_SUCCESS && own && rw->preprocessed)
          st = kernel_linkage(w, i);
        if (!w->kernel_decl) w->kernel_start = w->decl_start;
        w->kernel_decl = 1;
      } else if (own && rw->preprocessed && w->other_depth == 0 &&
                 (cuemu__rw_is(rw, i, "__device__") ||
                  cuemu__rw_is(rw, i, "__constant__") ||
                  cuemu__rw_is(rw, i, "__managed__"))) {
        st = device_linkage_decl(w, i);
        if (st == CUEMU_SUCCESS && !(t->flags & CUEMU_TOKEN_FOREIGN))
          st = cuemu__device_variable_mark(rw, w->decl_start, i);
        if (st == CUEMU_SUCCESS)
          st = host_variable_names(w, i);
        if (st == CUEMU_SUCCESS && cuemu__rw_is(rw, i, "__constant__"))
          st = cuemu__constant_note(rw, w->decl_start, i,
                                    "CUEMU_CONSTANT_NOTE");
        else if (st == CUEMU_SUCCESS && cuemu__rw_is(rw, i, "__managed__"))
          st = cuemu__constant_note(rw, w->decl_start, i,
                                    "CUEMU_MANAGED_NOTE");
        else if (st == CUEMU_SUCCESS)
          st = cuemu__device_note(rw, w->decl_start, i);
      } else if (own && rw->preprocessed &&
                 !(t->flags & CUEMU_TOKEN_FOREIGN) &&
                 cuemu__rw_is(rw, i, "using")) {
        st = cuemu__picker_using(rw, i);
      } else if (own && w->kernel_body) {
        st = host_call_in_kernel(rw, i);
      }
    } else if (t->kind == CUEMU_TOKEN_PUNCT) {
      if (own && cuemu__rw_chevrons(rw, i, "<")) {
        if (w->device_body)
          st = cuemu__device_code_check(rw, i);
        /* Only in a preprocessed unit: the raw text's #if/#else branches
         * can leave the walker inside a body that has ended (a launch
         * the translator does not mark is still checked at run time). */
        rw->launch_in_device_code = rw->preprocessed && w->device_body &&
                                    rw->pass != CUEMU_PASS_HOST;
        rw->launch_in_device_body = w->device_body != 0;
        /* A kernel that launches grids itself: a device graph may not hold
         * it (the kernel table tells libcuemu, cuemu_codegen.c). */
        if (rw->launch_in_device_code && w->kernel_body &&
            rw->last_kernel >= 0 && rw->last_kernel < rw->kernel_count)
          rw->kernels[rw->last_kernel].launches = 1;
        if (rw->launch_in_device_code)
          cuemu__launch_calls_launch(rw);
        if (st == CUEMU_SUCCESS)
          st = cuemu__launch_rewrite(rw, i, &resume);
        i = resume;
        continue;
      } else if (own && rw->preprocessed && w->other_depth > 0 &&
                 !(t->flags & CUEMU_TOKEN_FOREIGN) &&
                 cuemu__rw_is(rw, i, "[")) {
        st = cuemu__lambda_note(rw, i, w->decl_start, w->device_body != 0);
      } else if (t->flags & CUEMU_TOKEN_ALT_BRANCH) {
        /* Braces of #else branches are not counted. */
      } else if (cuemu__rw_is(rw, i, "{")) {
        if (w->other_depth == 0 && cuemu__rw_requires_body(rw, i) &&
            cuemu__rw_close(rw, i) < rw->n)
          i = cuemu__rw_close(rw, i); /* a requires-clause's, not a body */
        else if (w->other_depth == 0 && in_parentheses(rw, w->decl_start, i))
          w->other_depth++; /* a braced initializer, not a body */
        else if (w->other_depth == 0)
          st = open_brace(w, i);
        else if (++w->other_depth >= 2 && w->class_body && !w->access_body)
          st = host_variable_body(w, i); /* a member function's body */
      } else if (cuemu__rw_is(rw, i, "}")) {
        st = close_brace(w, i);
      } else if (cuemu__rw_is(rw, i, ";") && w->other_depth == 0) {
        if (!w->kernel_decl) st = host_redeclared_note(w, i);
        if (st != CUEMU_SUCCESS) {
          /* out of memory */
        } else if (w->kernel_decl) st = kernel_decl_end(w, i);
        else if (w->device_decl && rw->preprocessed &&
                 rw->pass == CUEMU_PASS_HOST &&
                 !(t->flags & CUEMU_TOKEN_FOREIGN))
          st = cuemu__host_device_decl(rw, w->decl_start, i);
        if (st == CUEMU_SUCCESS && !w->kernel_decl && w->device_decl &&
            rw->preprocessed &&
            !(t->flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)))
          st = cuemu__device_prototype_note(rw, w->decl_start, w->decl_start,
                                            i);
        w->device_decl = 0;
        w->decl_start = i + 1;
        w->kernel_decl = 0;
      }
    }
    i++;
  }
  return st;
}

static int edit_order(const void *a, const void *b) {
  const cuemu_edit *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The start of the last line marker (`# 12 "file"`) of a translation unit
 * in text[from, to), or `to` if there is none. */
static size_t last_marker(const char *text, size_t from, size_t to) {
  size_t found = to;
  for (size_t k = from; k + 2 < to; k++)
    if (text[k] == '#' && (k == 0 || text[k - 1] == '\n') &&
        text[k + 1] == ' ' && isdigit((unsigned char)text[k + 2]))
      found = k;
  return found;
}

/* Applies the edits; each replaced range's newlines follow its text. In a
 * translation unit, a replaced range that holds line markers (GCC writes
 * them around the expansion of the shims' qualifiers in a system header)
 * is followed by a newline, its last marker and the newlines after that
 * marker's line instead, so that the text after it keeps its file and
 * line. */
static cuemu_status assemble(cuemu_rewriter *rw, cuemu_rewrite *out) {
  cuemu_strbuf sb = {0};
  size_t pos = 0, e, k, ncolumns = 0;
  if (rw->edit_count)
    qsort(rw->edits, rw->edit_count, sizeof *rw->edits, edit_order);
  cuemu_column_edit *columns =
      rw->edit_count ? malloc(rw->edit_count * sizeof *columns) : NULL;
  if (rw->edit_count && !columns)
    return CUEMU_OUT_OF_MEMORY;
  cuemu__sb_add(&sb, "", 0);
  for (e = 0; e < rw->edit_count; e++) {
    const cuemu_edit *ed = &rw->edits[e];
    size_t end = ed->offset + ed->removed;
    size_t marker = rw->preprocessed
                        ? last_marker(rw->text, ed->offset, end)
                        : end;
    if (ed->offset < pos) continue; /* overlapping edits cannot happen */
    cuemu__sb_add(&sb, rw->text + pos, ed->offset - pos);
    size_t out = sb.length;
    cuemu__sb_add(&sb, ed->text, ed->length);
    if (marker < end) {
      const char *nl = memchr(rw->text + marker, '\n', end - marker);
      size_t stop = nl ? (size_t)(nl - rw->text) + 1 : end;
      cuemu__sb_add(&sb, "\n", 1);
      cuemu__sb_add(&sb, rw->text + marker, stop - marker);
      if (!nl)
        cuemu__sb_add(&sb, "\n", 1);
      /* The lines of the range after the marker's own (a kernel body that
       * the host pass drops, whose last marker follows NULL's expansion
       * on a line before its `}`), so that the text after the range keeps
       * its line, as for a range without markers. */
      for (k = stop; k < end; k++)
        if (rw->text[k] == '\n') cuemu__sb_add(&sb, "\n", 1);
    } else {
      for (k = ed->offset; k < end; k++)
        if (rw->text[k] == '\n') cuemu__sb_add(&sb, "\n", 1);
    }
    columns[ncolumns++] =
        (cuemu_column_edit){ed->offset, end, out, sb.length};
    pos = end;
  }
  cuemu__sb_add(&sb, rw->text + pos, rw->length - pos);
  if (sb.oom) {
    free(sb.data);
    free(columns);
    return CUEMU_OUT_OF_MEMORY;
  }
  out->text = sb.data;
  out->length = sb.length;
  out->columns = columns;
  out->column_count = ncolumns;
  return CUEMU_SUCCESS;
}

static void release(cuemu_rewriter *rw, walker *w) {
  size_t k;
  int i;
  for (k = 0; k < rw->edit_count; k++) free(rw->edits[k].text);
  free(rw->edits);
  free(rw->toks);
  for (i = 0; i < rw->kernel_count; i++) {
    free(rw->kernels[i].name);
    free(rw->kernels[i].launch_bounds);
    free(rw->kernels[i].cluster_dims);
    free(rw->kernels[i].file);
    free(rw->kernels[i].type_alias);
    free(rw->kernels[i].constant_alias);
    free(rw->kernels[i].signature);
    free(rw->kernels[i].alias_scope);
  }
  free(rw->kernels);
  cuemu__launch_calls_free(rw);
  cuemu__device_variable_note(rw, NULL, (size_t)-1, 0);
  cuemu__host_variables_free(rw);
  cuemu__device_prototype_note(rw, (size_t)-1, 0, 0);
  cuemu__ptx_rewrite_free(rw);
  cuemu__lambda_notes_free(rw->lambdas, rw->lambda_count);
  free(rw->lambdas);
  free(rw->by_name);
  free(rw->by_last);
  for (k = 0; k < w->depth; k++) free(w->stack[k].name);
  free(w->stack);
  for (k = 0; k < rw->marker_count; k++) free(rw->markers[k].file);
  free(rw->markers);
  free(rw->diagnostics.data);
}

/* The conditional a directive token opens, switches or closes: 'i' (#if,
 * #ifdef, #ifndef), 'e' (#elif..., #else), 'n' (#endif), else 0. */
static int conditional(const char *text, const cuemu_token *t) {
  char buf[16], word[8];
  size_t len = cuemu__token_spelling(text, t, buf, sizeof buf), k = 1, w = 0;
  if (len > sizeof buf - 1) len = sizeof buf - 1;
  while (k < len && (buf[k] == ' ' || buf[k] == '\t')) k++;
  while (k < len && w < sizeof word - 1 && buf[k] >= 'a' && buf[k] <= 'z')
    word[w++] = buf[k++];
  word[w] = '\0';
  if (!strcmp(word, "if") || !strcmp(word, "ifdef") || !strcmp(word, "ifndef"))
    return 'i';
  if (!strncmp(word, "elif", 4) || !strcmp(word, "else")) return 'e';
  if (!strcmp(word, "endif")) return 'n';
  return 0;
}

/* Whether a system header's path is CCCL's: the toolkit's include/cccl,
 * or a cub, thrust or libcudacxx folder (Debian's /usr/include/thrust, a
 * CCCL checkout under -isystem). */
static int cccl_header(const char *path) {
  static const char *const folders[] = {"/cccl/", "/cub/", "/thrust/",
                                        "/libcudacxx/", NULL};
  for (int k = 0; folders[k]; ++k)
    if (strstr(path, folders[k]))
      return 1;
  return 0;
}

/* A line marker (`# 12 "file" 1 3`, or `#line 12 "file"`) of a
 * preprocessed translation unit: records it and sets *flags to the token
 * flags of the file it enters (0 for the unit's own source;
 * CUEMU_TOKEN_INCLUDED for any other file, plus CUEMU_TOKEN_FOREIGN for a
 * system header, plus CUEMU_TOKEN_SHIM for a file under one of the skip
 * folders, plus CUEMU_TOKEN_CCCL for CCCL's headers), or to -1 when the
 * directive is not a marker. */
static cuemu_status line_marker(cuemu_rewriter *rw, const cuemu_token *t,
                                int *flags) {
  const char *p = rw->text + t->offset, *end = p + t->length;
  *flags = -1;
  p++;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (end - p > 4 && strncmp(p, "line", 4) == 0) p += 4;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (p >= end || !isdigit((unsigned char)*p)) return CUEMU_SUCCESS;
  long line = strtol(p, NULL, 10);
  while (p < end && isdigit((unsigned char)*p)) p++;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  cuemu_strbuf file = {0};
  cuemu__sb_add(&file, "", 0);
  if (p < end && *p == '"') {
    for (p++; p < end && *p != '"'; p++) {
      if (*p == '\\' && p + 1 < end) p++;
      cuemu__sb_add(&file, p, 1);
    }
    if (p < end) p++;
  } else if (rw->marker_count > 0) {
    cuemu__sb_str(&file, rw->markers[rw->marker_count - 1].file);
  }
  int system = 0;
  for (; p < end; p++)
    if (*p == '3' && (p[-1] == ' ' || p[-1] == '\t') &&
        (p + 1 == end || p[1] == ' ' || p[1] == '\t' || p[1] == '\r' ||
         p[1] == '\n'))
      system = 1;
  if (file.oom) return CUEMU_OUT_OF_MEMORY;
  if (rw->marker_count == rw->marker_capacity) {
    size_t cap = rw->marker_capacity ? rw->marker_capacity * 2 : 256;
    cuemu_line_marker *grown = realloc(rw->markers, cap * sizeof *grown);
    if (!grown) {
      free(file.data);
      return CUEMU_OUT_OF_MEMORY;
    }
    rw->markers = grown;
    rw->marker_capacity = cap;
  }
  /* The marker's own last physical line (a directive has no splices here). */
  int phys = t->line;
  for (const char *q = rw->text + t->offset; q < end; q++)
    if (*q == '\n') phys++;
  rw->markers[rw->marker_count].phys = phys;
  rw->markers[rw->marker_count].line = (int)line;
  rw->markers[rw->marker_count].file = file.data;
  rw->marker_count++;
  int skipped = file.data[0] == '<';
  for (int d = 0; rw->skip_dirs && rw->skip_dirs[d] && !skipped; d++) {
    size_t n = strlen(rw->skip_dirs[d]);
    skipped = n && strncmp(file.data, rw->skip_dirs[d], n) == 0 &&
              file.data[n] == '/';
  }
  *flags = skipped ? (int)(CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)
                   : system ? (int)CUEMU_TOKEN_FOREIGN : 0;
  if (system && !skipped && cccl_header(file.data))
    *flags |= (int)CUEMU_TOKEN_CCCL;
  /* The first marker names the unit's own source. */
  if (rw->marker_count > 1 && file.data[0] != '<' &&
      strcmp(file.data, rw->markers[0].file) != 0)
    *flags |= (int)CUEMU_TOKEN_INCLUDED;
  if (skipped && !system && file.data[0] != '<') {
    /* The shims are system headers for the compile of the translated
     * unit, as the toolkit's headers are for nvcc's (under -isystem): the
     * user's -Wall or -Wextra is not about them. The marker gets GCC's
     * flag 3, before a flag 4 (extern "C"). */
    size_t at = t->length;
    while (at > 0 && (rw->text[t->offset + at - 1] == ' ' ||
                      rw->text[t->offset + at - 1] == '\r' ||
                      rw->text[t->offset + at - 1] == '\t'))
      at--;
    if (at >= 2 && rw->text[t->offset + at - 1] == '4' &&
        rw->text[t->offset + at - 2] == ' ')
      at -= 2;
    return cuemu__rw_edit(rw, t->offset + at, 0, " 3", 2);
  }
  return CUEMU_SUCCESS;
}

/* Keeps the significant tokens (no comments, no directives), marking those
 * in #elif and #else branches. */
static cuemu_status significant(cuemu_rewriter *rw,
                                const cuemu_token_list *list) {
  size_t k, depth = 0, alt_levels = 0;
  unsigned foreign = 0;
  unsigned char *alt = malloc(list->count + 1); /* per open conditional */
  rw->toks = malloc((list->count ? list->count : 1) * sizeof *rw->toks);
  if (!rw->toks || !alt) {
    free(alt);
    return CUEMU_OUT_OF_MEMORY;
  }
  for (k = 0; k < list->count; k++) {
    const cuemu_token *t = &list->tokens[k];
    if (t->kind == CUEMU_TOKEN_DIRECTIVE && rw->preprocessed) {
      int flags;
      if (line_marker(rw, t, &flags) != CUEMU_SUCCESS) {
        free(alt);
        return CUEMU_OUT_OF_MEMORY;
      }
      if (flags >= 0) foreign = (unsigned)flags;
    } else if (t->kind == CUEMU_TOKEN_DIRECTIVE) {
      switch (conditional(rw->text, t)) {
      case 'i':
        alt[depth++] = 0;
        break;
      case 'e':
        if (depth > 0 && !alt[depth - 1]) {
          alt[depth - 1] = 1;
          alt_levels++;
        }
        break;
      case 'n':
        if (depth > 0 && alt[--depth]) alt_levels--;
        break;
      }
    } else if (t->kind != CUEMU_TOKEN_COMMENT) {
      rw->toks[rw->n] = *t;
      if (alt_levels) rw->toks[rw->n].flags |= CUEMU_TOKEN_ALT_BRANCH;
      rw->toks[rw->n].flags |= foreign;
      rw->n++;
    }
  }
  free(alt);
  return CUEMU_SUCCESS;
}

/* Rewrites the launches in the body of a `#define` directive, so that a
 * macro that expands to `k<<<grid, block>>>(args)` works. The body is
 * rewritten as a source of its own (it knows no kernels, so each launch
 * becomes ::cuemu::launch_dynamic, which takes any kernel name or pointer)
 * and put back on one line: the line splices it had come back as blank
 * lines after the directive, so the line count is unchanged. */
static cuemu_status rewrite_macro(cuemu_rewriter *rw, const cuemu_token *t) {
  const char *d = rw->text + t->offset, *end = d + t->length, *p = d;
  size_t n = t->length;
  int has_launch = 0;
  for (size_t i = 0; i + 2 < n; ++i)
    if (d[i] == '<' && d[i + 1] == '<') {
      size_t k = i + 2; /* `<< <` too (cuemu__rw_chevrons) */
      while (k < n && (d[k] == ' ' || d[k] == '\t'))
        k++;
      if (k < n && d[k] == '<')
        has_launch = 1;
    }
  if (!has_launch)
    return CUEMU_SUCCESS;
  /* "#", "define", the macro's name and its parameter list. */
  p++;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if ((size_t)(end - p) < 6 || strncmp(p, "define", 6) != 0)
    return CUEMU_SUCCESS;
  p += 6;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
    p++;
  if (p < end && *p == '(') {
    while (p < end && *p != ')')
      p++;
    if (p < end)
      p++;
  }
  cuemu_rewrite sub;
  cuemu_status st = cuemu__rewrite_source(p, (size_t)(end - p), rw->filename,
                                          &sub);
  if (st != CUEMU_SUCCESS) {
    snprintf(rw->message, rw->message_size, "%s", sub.message);
    return st;
  }
  /* One line: drop the splices (and a CR before them). */
  size_t len = 0;
  for (size_t i = 0; i < sub.length; ++i) {
    if (sub.text[i] == '\\') {
      size_t j = i + 1;
      if (j < sub.length && sub.text[j] == '\r')
        j++;
      if (j < sub.length && sub.text[j] == '\n') {
        i = j;
        continue;
      }
    }
    sub.text[len++] = sub.text[i];
  }
  st = cuemu__rw_edit(rw, (size_t)(p - rw->text), (size_t)(end - p), sub.text,
                      len);
  cuemu__rewrite_free(&sub);
  return st;
}

/* Rewrites the launches in every #define body (see rewrite_macro). */
static cuemu_status rewrite_macros(cuemu_rewriter *rw,
                                   const cuemu_token_list *list) {
  for (size_t i = 0; i < list->count; ++i) {
    if (list->tokens[i].kind != CUEMU_TOKEN_DIRECTIVE)
      continue;
    cuemu_status st = rewrite_macro(rw, &list->tokens[i]);
    if (st != CUEMU_SUCCESS)
      return st;
  }
  return CUEMU_SUCCESS;
}

static cuemu_status rewrite(const char *text, size_t length,
                            const char *filename, int preprocessed,
                            const cuemu_translate_options *opt,
                            cuemu_rewrite *out, int expanded) {
  cuemu_rewriter rw;
  walker w;
  cuemu_token_list list;
  cuemu_status st;
  if (!out) return CUEMU_INVALID_VALUE;
  memset(out, 0, sizeof *out);
  if (!text && length) {
    snprintf(out->message, sizeof out->message, "%s: no source text",
             filename ? filename : "<input>");
    return CUEMU_INVALID_VALUE;
  }
  if (!text) text = "";
  memset(&rw, 0, sizeof rw);
  memset(&w, 0, sizeof w);
  rw.text = text;
  rw.length = length;
  rw.filename = filename;
  rw.message = out->message;
  rw.message_size = sizeof out->message;
  rw.preprocessed = preprocessed;
  if (opt) {
    rw.skip_dirs = opt->skip_dirs;
    rw.pass = (int)opt->pass;
    rw.rdc = opt->rdc;
    rw.extended_lambda = opt->extended_lambda;
    rw.variant = opt->variant;
    rw.warn_default_stream = opt->warn_default_stream;
    rw.warn_launch_bounds = opt->warn_launch_bounds;
    rw.warn_redeclared = opt->warn_redeclared;
    rw.warn_redeclared_device = opt->warn_redeclared_device;
    rw.warn_redeclared_host_device = opt->warn_redeclared_host_device;
    rw.warn_device_redeclared_host_device =
        opt->warn_device_redeclared_host_device;
    rw.warn_main_bare_return = opt->warn_main_bare_return;
    rw.warn_host_read = opt->warn_host_read;
    rw.warn_host_write = opt->warn_host_write;
    rw.warn_defaulted_space = opt->warn_defaulted_space;
    rw.host_full = opt->host_full;
    rw.unit_key = opt->unit_key;
    rw.pads = opt->pads;
    rw.pad_count = opt->pad_count;
  }
  rw.last_kernel = -1;
  w.rw = &rw;
  w.static_kernel = (size_t)-1;
  st = cuemu__lex(text, length, &list);
  if (st == CUEMU_COMPILE) {
    cuemu__rw_error(&rw, list.error_line, list.error);
    return st;
  }
  if (st == CUEMU_SUCCESS) st = significant(&rw, &list);
  /* A translation unit has no #define left. */
  if (st == CUEMU_SUCCESS && !preprocessed) st = rewrite_macros(&rw, &list);
  cuemu__token_list_free(&list);
  if (st == CUEMU_SUCCESS && preprocessed && !expanded) {
    /* Abbreviated kernel templates get a template head first, and the
     * unit is translated from that text (cuemu_abbreviated_kernel.c). */
    int found = 0;
    st = cuemu__abbreviated_kernels(&rw, &found);
    if (st == CUEMU_SUCCESS && found) {
      cuemu_rewrite headed;
      memset(&headed, 0, sizeof headed);
      st = assemble(&rw, &headed);
      release(&rw, &w);
      if (st == CUEMU_SUCCESS)
        st = rewrite(headed.text, headed.length, filename, preprocessed, opt,
                     out, 1);
      else
        snprintf(out->message, sizeof out->message, "%s: out of memory",
                 filename ? filename : "<input>");
      free(headed.text);
      return st;
    }
  }
  if (st == CUEMU_SUCCESS && preprocessed)
    st = cuemu__main_bare_returns(&rw);
  if (st == CUEMU_SUCCESS && preprocessed)
    st = cuemu__cccl_inlining(&rw);
  if (st == CUEMU_SUCCESS) st = walk(&w);
  if (st == CUEMU_SUCCESS) cuemu__launch_calls_resolve(&rw);
  if (st == CUEMU_SUCCESS && rw.diagnostics.oom) st = CUEMU_OUT_OF_MEMORY;
  /* nvcc's optional diagnostics go to the caller, errors or not; errors
   * fail the translation as nvcc's fail the compile. */
  out->diagnostics = rw.diagnostics.data;
  rw.diagnostics.data = NULL;
  if (st == CUEMU_SUCCESS && rw.diagnostic_errors > 0) {
    snprintf(out->message, sizeof out->message,
             "%d error%s detected in the compilation of \"%s\"",
             rw.diagnostic_errors, rw.diagnostic_errors > 1 ? "s" : "",
             filename ? filename : "<input>");
    st = CUEMU_COMPILE;
  }
  if (st == CUEMU_SUCCESS) st = assemble(&rw, out);
  if (st == CUEMU_SUCCESS) {
    out->kernels = rw.kernels;
    out->kernel_count = rw.kernel_count;
    rw.kernels = NULL;
    rw.kernel_count = 0;
    out->lambdas = rw.lambdas;
    out->lambda_count = rw.lambda_count;
    out->host_device_code = rw.host_device_code;
    rw.lambdas = NULL;
    rw.lambda_count = 0;
    out->message[0] = '\0';
  } else if (st == CUEMU_OUT_OF_MEMORY) {
    snprintf(out->message, sizeof out->message, "%s: out of memory",
             filename ? filename : "<input>");
  }
  release(&rw, &w);
  return st;
}

cuemu_status cuemu__rewrite_source(const char *text, size_t length,
                                   const char *filename, cuemu_rewrite *out) {
  return rewrite(text, length, filename, 0, NULL, out, 0);
}

cuemu_status cuemu__rewrite_preprocessed(const char *text, size_t length,
                                         const char *filename,
                                         const cuemu_translate_options *opt,
                                         cuemu_rewrite *out) {
  return rewrite(text, length, filename, 1, opt, out, 0);
}

void cuemu__rewrite_free(cuemu_rewrite *r) {
  int i;
  if (!r) return;
  free(r->text);
  free(r->columns);
  r->columns = NULL;
  r->column_count = 0;
  for (i = 0; i < r->kernel_count; i++) {
    free(r->kernels[i].name);
    free(r->kernels[i].launch_bounds);
    free(r->kernels[i].file);
    free(r->kernels[i].type_alias);
    free(r->kernels[i].constant_alias);
    free(r->kernels[i].signature);
    free(r->kernels[i].alias_scope);
  }
  free(r->kernels);
  cuemu__lambda_notes_free(r->lambdas, r->lambda_count);
  free(r->lambdas);
  free(r->diagnostics);
  r->diagnostics = NULL;
  r->lambdas = NULL;
  r->lambda_count = 0;
  r->text = NULL;
  r->length = 0;
  r->kernels = NULL;
  r->kernel_count = 0;
}
