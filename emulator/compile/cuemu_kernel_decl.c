/*
 * cuemu_kernel_decl.c: recording the __global__ functions of a file.
 *
 * The walker (cuemu_rewrite.c) calls cuemu__kernel_decl_scan() for each
 * `__global__` token at namespace scope. The kernel's name is the
 * declarator-id before the first parenthesis after `__global__` that is not
 * an attribute (`__launch_bounds__(...)`, `__attribute__((...))`, `[[...]]`),
 * qualified by the enclosing namespaces and any qualifiers written in the
 * declaration itself. One entry is kept per name: a later definition
 * replaces the line of an earlier prototype.
 */
#include "cuemu_rewriter.h"

#include <stdlib.h>
#include <string.h>

/* The `>` closing the template argument list opened at k, or rw->n. */
static size_t template_close(const cuemu_rewriter *rw, size_t k) {
  size_t depth = 0;
  for (; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{")) {
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n) return rw->n;
    } else if (cuemu__rw_is(rw, k, "<")) {
      depth++;
    } else if (cuemu__rw_is(rw, k, ">")) {
      if (--depth == 0) return k;
    } else if (cuemu__rw_is(rw, k, ";")) {
      return rw->n;
    }
  }
  return rw->n;
}


/* Non-zero when the declaration has a body after the parameter list that
 * ends at token k. */
static int has_body(const cuemu_rewriter *rw, size_t k) {
  for (k++; k < rw->n;) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
    } else if (cuemu__rw_is(rw, k, "{")) {
      return 1;
    } else if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, ",") ||
               cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "}")) {
      return 0;
    } else if (cuemu__rw_is(rw, k, "(")) {
      k = cuemu__rw_close(rw, k); /* noexcept(...) */
      if (k >= rw->n) return 0;
      k++;
    } else {
      k++;
    }
  }
  return 0;
}

/* The unqualified part of a kernel name. */
static const char *last_part(const char *name) {
  const char *last = name, *p;
  for (p = name; (p = strstr(p, "::")) != NULL; p += 2) last = p + 2;
  return last;
}

static size_t hash(const char *s, size_t length) {
  size_t h = 2166136261u, k;
  for (k = 0; k < length; k++) h = (h ^ (unsigned char)s[k]) * 16777619u;
  return h;
}

/* The slot of `table` holding the kernel whose full (or, when `last` is
 * set, unqualified) name is s[0, length), or the free slot where it goes. */
static size_t slot(const cuemu_rewriter *rw, const int *table, int last,
                   const char *s, size_t length) {
  size_t mask = rw->hash_size - 1, h = hash(s, length) & mask;
  for (;; h = (h + 1) & mask) {
    const char *name;
    if (table[h] == 0) return h;
    name = rw->kernels[table[h] - 1].name;
    if (last) name = last_part(name);
    if (strlen(name) == length && memcmp(name, s, length) == 0) return h;
  }
}

static void insert(cuemu_rewriter *rw, int index) {
  const char *name = rw->kernels[index].name, *last = last_part(name);
  size_t h = slot(rw, rw->by_name, 0, name, strlen(name));
  rw->by_name[h] = index + 1;
  h = slot(rw, rw->by_last, 1, last, strlen(last));
  if (rw->by_last[h] == 0) rw->by_last[h] = index + 1;
}

/* Makes room for one more kernel in the array and the hash tables. */
static cuemu_status reserve(cuemu_rewriter *rw) {
  if (rw->kernel_count == rw->kernel_capacity) {
    int cap = rw->kernel_capacity ? rw->kernel_capacity * 2 : 16;
    cuemu_kernel_decl *grown =
        realloc(rw->kernels, (size_t)cap * sizeof *grown);
    if (!grown) return CUEMU_OUT_OF_MEMORY;
    rw->kernels = grown;
    rw->kernel_capacity = cap;
  }
  if ((size_t)(rw->kernel_count + 1) * 2 > rw->hash_size) {
    size_t size = rw->hash_size ? rw->hash_size * 2 : 64;
    int *by_name = calloc(size, sizeof *by_name);
    int *by_last = calloc(size, sizeof *by_last);
    int i;
    if (!by_name || !by_last) {
      free(by_name);
      free(by_last);
      return CUEMU_OUT_OF_MEMORY;
    }
    free(rw->by_name);
    free(rw->by_last);
    rw->by_name = by_name;
    rw->by_last = by_last;
    rw->hash_size = size;
    for (i = 0; i < rw->kernel_count; i++) insert(rw, i);
  }
  return CUEMU_SUCCESS;
}

static cuemu_status record(cuemu_rewriter *rw, const cuemu_kernel_decl *d) {
  cuemu_status st = reserve(rw);
  size_t h;
  if (st != CUEMU_SUCCESS) {
    free(d->name);
    free(d->launch_bounds);
    return st;
  }
  h = slot(rw, rw->by_name, 0, d->name, strlen(d->name));
  if (rw->by_name[h] != 0) {
    cuemu_kernel_decl *old = &rw->kernels[rw->by_name[h] - 1];
    if (!old->is_definition && d->is_definition) {
      old->is_definition = 1;
      old->line = d->line;
    }
    old->is_template |= d->is_template;
    old->is_extern_c |= d->is_extern_c;
    if (!old->launch_bounds)
      old->launch_bounds = d->launch_bounds; /* the entry takes it */
    else
      free(d->launch_bounds);
    free(d->name);
    return CUEMU_SUCCESS;
  }
  rw->kernels[rw->kernel_count] = *d;
  insert(rw, rw->kernel_count++);
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__kernel_decl_scan(cuemu_rewriter *rw, size_t decl_start,
                                     size_t global, const char *scope,
                                     int in_extern_c) {
  cuemu_kernel_decl d;
  cuemu_strbuf name = {0};
  size_t k, end, first, bounds = (size_t)-1;
  memset(&d, 0, sizeof d);
  d.is_extern_c = in_extern_c;
  for (k = decl_start; k < global; k++) {
    if (cuemu__rw_is(rw, k, "template") && cuemu__rw_is(rw, k + 1, "<"))
      d.is_template = 1;
    if (cuemu__rw_is(rw, k, "__launch_bounds__"))
      bounds = k;
    if (cuemu__rw_is(rw, k, "extern") && k + 1 < rw->n &&
        rw->toks[k + 1].kind == CUEMU_TOKEN_STRING)
      d.is_extern_c = cuemu__rw_is(rw, k + 1, "\"C\"");
  }
  /* The parameter list: the first parenthesis that is not an attribute's. */
  for (k = global + 1; k < rw->n;) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (cuemu__rw_is(rw, k, "__launch_bounds__"))
      bounds = k;
    if (after != k) {
      k = after;
    } else if (cuemu__rw_is(rw, k, "(")) {
      break;
    } else if (cuemu__rw_is(rw, k, "<")) {
      k = template_close(rw, k); /* template<> ... name<float>(...) */
      if (k >= rw->n) return CUEMU_SUCCESS;
      k++;
    } else if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
               cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, "=")) {
      return CUEMU_SUCCESS;
    } else {
      k++;
    }
  }
  if (k >= rw->n || k <= global + 1) return CUEMU_SUCCESS;
  end = k - 1;
  if (cuemu__rw_is(rw, end, ">")) {
    end = cuemu__rw_template_open(rw, end);
    if (end == (size_t)-1 || end == 0) return CUEMU_SUCCESS;
    end--;
  }
  if (!cuemu__rw_ident(rw, end) || end <= global) return CUEMU_SUCCESS;
  first = end;
  while (first >= global + 3 && cuemu__rw_is(rw, first - 1, "::") &&
         cuemu__rw_ident(rw, first - 2))
    first -= 2;
  d.line = rw->toks[end].line;
  d.is_definition = has_body(rw, cuemu__rw_close(rw, k));
  cuemu__sb_str(&name, scope);
  if (*scope) cuemu__sb_str(&name, "::");
  for (k = first; k <= end; k++) cuemu__sb_tokens(&name, rw, k, k + 1, 0);
  if (name.oom) {
    free(name.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  d.name = name.data;
  if (bounds != (size_t)-1 && cuemu__rw_is(rw, bounds + 1, "(")) {
    /* The arguments of __launch_bounds__(...), for the kernel table. */
    cuemu_strbuf args = {0};
    size_t close = cuemu__rw_close(rw, bounds + 1);
    if (close < rw->n) cuemu__sb_tokens(&args, rw, bounds + 2, close, 0);
    if (args.oom) {
      free(args.data);
      free(d.name);
      return CUEMU_OUT_OF_MEMORY;
    }
    d.launch_bounds = args.data;
  }
  return record(rw, &d);
}

int cuemu__kernel_known(const cuemu_rewriter *rw, const char *name,
                        size_t length) {
  int index;
  if (rw->hash_size == 0) return 0;
  index = rw->by_last[slot(rw, rw->by_last, 1, name, length)];
  if (index == 0) return 0;
  return rw->kernels[index - 1].is_template ? 2 : 1;
}
