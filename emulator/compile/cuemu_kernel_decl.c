/*
 * cuemu_kernel_decl.c: recording the __global__ functions of a file.
 *
 * The walker (cuemu_rewrite.c) calls cuemu__kernel_decl_scan() for each
 * `__global__` token at namespace scope. The kernel's name is the
 * declarator-id before the first parenthesis after `__global__` that is not
 * an attribute (`__launch_bounds__(...)`, `__attribute__((...))`, `[[...]]`),
 * qualified by the enclosing namespaces and any qualifiers written in the
 * declaration itself. One entry is kept per name (per name and parameter
 * types in a translation unit: cuemu_kernel_overload.c): a later
 * definition replaces the line of an earlier prototype.
 */
#include "cuemu_rewriter.h"

#include <stdlib.h>
#include <string.h>


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
    if (last) name = cuemu__last_part(name);
    if (strlen(name) == length && memcmp(name, s, length) == 0) return h;
  }
}

static void insert(cuemu_rewriter *rw, int index) {
  const char *name = rw->kernels[index].name, *last = cuemu__last_part(name);
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
    free(d->signature);
    free(d->launch_bounds);
    free(d->cluster_dims);
    free(d->file);
    return st;
  }
  h = slot(rw, rw->by_name, 0, d->name, strlen(d->name));
  int same = rw->by_name[h] - 1, overload = 0;
  if (same >= 0 && rw->preprocessed && !d->is_template &&
      !rw->kernels[same].is_template) {
    /* Another kernel of that name: the same one, or an overload. */
    same = cuemu__kernel_same_signature(rw, d);
    overload = same < 0;
  }
  if (same >= 0) {
    cuemu_kernel_decl *old = &rw->kernels[same];
    rw->last_kernel = same;
    free(d->signature);
    if (!old->is_definition && d->is_definition) {
      old->is_definition = 1;
      old->line = d->line;
      free(old->file);
      old->file = d->file;
    } else {
      free(d->file);
    }
    old->has_defaults |= d->has_defaults;
    if (old->default_count < d->default_count)
      old->default_count = d->default_count;
    old->is_template |= d->is_template;
    old->is_extern_c |= d->is_extern_c;
    if (!old->launch_bounds)
      old->launch_bounds = d->launch_bounds; /* the entry takes it */
    else
      free(d->launch_bounds);
    if (!old->cluster_dims)
      old->cluster_dims = d->cluster_dims;
    else
      free(d->cluster_dims);
    free(d->name);
    return CUEMU_SUCCESS;
  }
  rw->kernels[rw->kernel_count] = *d;
  rw->last_kernel = rw->kernel_count;
  insert(rw, rw->kernel_count++);
  return overload ? cuemu__kernel_overloads_mark(rw, d->name) : CUEMU_SUCCESS;
}

/* Counts the parameters of the template head whose `<` is at token lt:
 * those without a default argument, and whether one is a pack. */
static void template_params(const cuemu_rewriter *rw, size_t lt,
                            cuemu_kernel_decl *d) {
  size_t close = cuemu__rw_template_close(rw, lt), k;
  int has_default = 0, any = 0;
  if (close >= rw->n) return;
  for (k = lt + 1; k <= close; k++) {
    if (k == close || (cuemu__rw_is(rw, k, ",") )) {
      if (any && !has_default) d->template_required++;
      has_default = any = 0;
      continue;
    }
    any = 1;
    if (cuemu__rw_is(rw, k, "<")) {
      size_t c = cuemu__rw_template_close(rw, k);
      if (c >= close) return;
      k = c;
    } else if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
               cuemu__rw_is(rw, k, "{")) {
      k = cuemu__rw_close(rw, k);
      if (k >= close) return;
    } else if (cuemu__rw_is(rw, k, "=")) {
      has_default = 1;
    } else if (cuemu__rw_is(rw, k, ".") && cuemu__rw_is(rw, k + 1, ".") &&
               cuemu__rw_is(rw, k + 2, ".")) {
      d->template_variadic = 1;
      has_default = 1; /* a pack may be empty */
    }
  }
}

/* The text between the parentheses of the attribute whose name is token
 * `at` ((size_t)-1: none) in *out (NULL when there is none). */
static cuemu_status attribute_arguments(const cuemu_rewriter *rw, size_t at,
                                        char **out) {
  *out = NULL;
  if (at == (size_t)-1 || !cuemu__rw_is(rw, at + 1, "("))
    return CUEMU_SUCCESS;
  cuemu_strbuf args = {0};
  size_t close = cuemu__rw_close(rw, at + 1);
  if (close < rw->n) cuemu__sb_tokens(&args, rw, at + 2, close, 0);
  if (args.oom) {
    free(args.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  *out = args.data;
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__kernel_decl_scan(cuemu_rewriter *rw, size_t decl_start,
                                     size_t global, const char *scope,
                                     int in_extern_c) {
  cuemu_kernel_decl d;
  cuemu_strbuf name = {0};
  size_t k, end, first, bounds = (size_t)-1, cluster = (size_t)-1;
  size_t head = (size_t)-1;
  memset(&d, 0, sizeof d);
  d.is_extern_c = in_extern_c;
  for (k = decl_start; k < global; k++) {
    if (cuemu__rw_is(rw, k, "template") && cuemu__rw_is(rw, k + 1, "<")) {
      if (!d.is_template) {
        template_params(rw, k + 1, &d);
        head = k + 1;
      }
      d.is_template = 1;
    } else if (cuemu__rw_is(rw, k, "template")) {
      /* An explicit instantiation, `template __global__ void k<int>(int *);`
       * (or `extern template`): it names an instance of the template,
       * which keeps the template's linkage and visibility, not a kernel of
       * its own. */
      d.is_template = 1;
    }
    if (cuemu__rw_is(rw, k, "__launch_bounds__"))
      bounds = k;
    if (cuemu__rw_is(rw, k, "__cluster_dims__"))
      cluster = k;
    if (cuemu__rw_is(rw, k, "extern") && k + 1 < rw->n &&
        rw->toks[k + 1].kind == CUEMU_TOKEN_STRING)
      d.is_extern_c = cuemu__rw_is(rw, k + 1, "\"C\"");
  }
  /* The parameter list: the first parenthesis that is not an attribute's. */
  for (k = global + 1; k < rw->n;) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (cuemu__rw_is(rw, k, "__launch_bounds__"))
      bounds = k;
    if (cuemu__rw_is(rw, k, "__cluster_dims__"))
      cluster = k;
    if (after != k) {
      k = after;
    } else if (cuemu__rw_is(rw, k, "(")) {
      break;
    } else if (cuemu__rw_is(rw, k, "<")) {
      k = cuemu__rw_template_close(rw, k); /* template<> ... name<float>(...) */
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
  {
    const char *file;
    cuemu__rw_where(rw, rw->toks[end].line, &file, &d.line);
    d.file = strdup(file);
    if (!d.file) return CUEMU_OUT_OF_MEMORY;
  }
  {
    /* A default argument: an `=` outside nested brackets. */
    size_t close = cuemu__rw_close(rw, k), p;
    for (p = k + 1; p < close && p < rw->n; p++) {
      if (cuemu__rw_is(rw, p, "(") || cuemu__rw_is(rw, p, "[") ||
          cuemu__rw_is(rw, p, "{"))
        p = cuemu__rw_close(rw, p);
      else if (cuemu__rw_is(rw, p, "="))
        d.has_defaults = 1, d.default_count++;
    }
  }
  if (rw->preprocessed && !d.is_template) {
    d.signature = cuemu__kernel_signature(rw, k);
    if (!d.signature) {
      free(d.file);
      return CUEMU_OUT_OF_MEMORY;
    }
  }
  rw->last_params = k;
  rw->last_is_template = d.is_template;
  rw->last_template = head;
  rw->last_bounds = bounds;
  d.is_definition = has_body(rw, cuemu__rw_close(rw, k));
  rw->last_is_definition = d.is_definition;
  /* nvcc's -Wmissing-launch-bounds, from the pass that compiles kernels. */
  if (d.is_definition && bounds == (size_t)-1 && rw->pass != CUEMU_PASS_HOST)
    cuemu__rw_diagnose(rw, end, rw->warn_launch_bounds,
                       "missing-launch-bounds",
                       "no __launch_bounds__ specified for __global__ "
                       "function");
  cuemu__sb_str(&name, scope);
  if (*scope) cuemu__sb_str(&name, "::");
  for (k = first; k <= end; k++) cuemu__sb_tokens(&name, rw, k, k + 1, 0);
  if (name.oom) {
    free(name.data);
    free(d.file);
    free(d.signature);
    return CUEMU_OUT_OF_MEMORY;
  }
  d.name = name.data;
  /* The arguments of __launch_bounds__(...) and __cluster_dims__(...),
   * for the kernel table. */
  if (attribute_arguments(rw, bounds, &d.launch_bounds) != CUEMU_SUCCESS ||
      attribute_arguments(rw, cluster, &d.cluster_dims) != CUEMU_SUCCESS) {
    free(d.launch_bounds);
    free(d.name);
    free(d.file);
    free(d.signature);
    return CUEMU_OUT_OF_MEMORY;
  }
  if (d.cluster_dims && d.is_template) {
    /* Only the kernels of the table carry their __cluster_dims__. */
    free(d.launch_bounds);
    free(d.cluster_dims);
    free(d.name);
    free(d.file);
    free(d.signature);
    return cuemu__rw_error(rw, rw->toks[cluster].line,
                           "__cluster_dims__ on a kernel template is not "
                           "supported by cuemu (give the cluster shape at "
                           "launch, with cudaLaunchKernelEx's "
                           "cudaLaunchAttributeClusterDimension)");
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

cuemu_kernel_decl *cuemu__kernel_find(const cuemu_rewriter *rw,
                                      const char *name, size_t length) {
  int index;
  if (rw->hash_size == 0) return NULL;
  index = rw->by_last[slot(rw, rw->by_last, 1, name, length)];
  return index == 0 ? NULL : &rw->kernels[index - 1];
}

/* Non-zero when the token `name` at k, before a parenthesis, is the
 * declarator-id of a kernel's declaration: a `__global__` token comes
 * before it in the same declaration (after the last `;`, `{` or `}`). */
static int declares_kernel(const cuemu_rewriter *rw, size_t k) {
  while (k-- > 0) {
    if (cuemu__rw_is(rw, k, "__global__"))
      return 1;
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "}"))
      return 0;
  }
  return 0;
}

/* Non-zero when `name` is also called or declared as a function in a
 * system header or a shim (`rand (`, `max (`), or in the user's code
 * other than as a kernel's declaration: a host function of the kernel's
 * name (the CUDA book's `real reduce(const real *d_x)` beside its kernel
 * `reduce`, which it launches) or a call of one. A kernel is never called
 * with parentheses alone, so such a name is an overload set, and a launch
 * picks the kernel out of it by its type. */
static int also_a_function(const cuemu_rewriter *rw, const char *name) {
  size_t k;
  for (k = 0; k + 1 < rw->n; k++)
    if (rw->toks[k].kind == CUEMU_TOKEN_IDENT &&
        cuemu__rw_is(rw, k + 1, "(") && cuemu__rw_is(rw, k, name) &&
        ((rw->toks[k].flags & CUEMU_TOKEN_FOREIGN) ||
         (!(k > 0 && (cuemu__rw_is(rw, k - 1, ".") ||
                      cuemu__rw_is(rw, k - 1, "->"))) &&
          !declares_kernel(rw, k))))
      return 1;
  return 0;
}

void cuemu__sb_parameters(cuemu_strbuf *sb, const cuemu_rewriter *rw,
                          size_t open, size_t close) {
  size_t k, from;
  for (k = from = open + 1; k <= close; k++) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{")) {
      k = cuemu__rw_close(rw, k);
      if (k >= close) break;
    } else if (k == close || cuemu__rw_is(rw, k, ",") ||
               cuemu__rw_is(rw, k, "=")) {
      if (from > open + 1) cuemu__sb_str(sb, ", ");
      cuemu__sb_tokens(sb, rw, from, k, 0);
      if (cuemu__rw_is(rw, k, "=")) {
        /* Skip the default argument up to the next parameter. */
        for (; k < close && !cuemu__rw_is(rw, k, ","); k++)
          if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
              cuemu__rw_is(rw, k, "{"))
            k = cuemu__rw_close(rw, k);
      }
      from = k + 1;
    }
  }
}

cuemu_status cuemu__kernel_type_alias(cuemu_rewriter *rw, size_t decl_start,
                                      size_t end, const char *scope) {
  cuemu_kernel_decl *d;
  cuemu_strbuf text = {0}, alias = {0}, constant = {0};
  size_t open, close;
  (void)decl_start;
  if (rw->last_kernel < 0) return CUEMU_SUCCESS;
  if (rw->last_is_template) {
    /* A kernel template's parameters, which a launch's count of arguments
     * is checked against (cuemu_launch_rewrite.c). */
    d = &rw->kernels[rw->last_kernel];
    if (!d->decl_end) {
      d->params_open = rw->last_params;
      d->decl_end = end;
    }
    return CUEMU_SUCCESS;
  }
  int index = rw->last_kernel;
  d = &rw->kernels[index];
  rw->last_kernel = -1;
  if (!d->decl_end && !d->is_template) {
    /* Where its type goes should it turn out to be overloaded. */
    d->alias_scope = strdup(scope);
    if (!d->alias_scope) return CUEMU_OUT_OF_MEMORY;
    d->params_open = rw->last_params;
    d->decl_end = end;
  }
  if (d->type_alias || d->is_template) return CUEMU_SUCCESS;
  if (d->overloaded) return cuemu__kernel_alias_emit(rw, index);
  const char *last = cuemu__last_part(d->name);
  if (!also_a_function(rw, last)) return CUEMU_SUCCESS;
  open = rw->last_params;
  close = cuemu__rw_close(rw, open);
  if (close >= rw->n || close > end) return CUEMU_SUCCESS;
  cuemu__sb_str(&text, " using cuemu_kernel_type_");
  cuemu__sb_str(&text, last);
  cuemu__sb_str(&text, " = void(");
  cuemu__sb_parameters(&text, rw, open, close);
  cuemu__sb_str(&text, ");");
  /* The kernel itself as a type, taken here, where the name's overload set
   * holds no function declared later: a launch in the body of a host
   * function of the same name whose return type is deduced (`auto`) may
   * not take the set's address before that type is known (g++: "use of
   * 'auto f(int)' before deduction of 'auto'"), so it names the kernel
   * through this (cuemu_launch_rewrite.c). */
  cuemu__sb_str(&text, " using cuemu_kernel_constant_");
  cuemu__sb_str(&text, last);
  cuemu__sb_str(&text, " = ::cuemu::kernel_constant<CUEMU_KERNEL_CAST_ARGS("
                       "(cuemu_kernel_type_");
  cuemu__sb_str(&text, last);
  cuemu__sb_str(&text, " *)(&");
  cuemu__sb_str(&text, last);
  cuemu__sb_str(&text, "))>;");
  cuemu__sb_str(&alias, "::");
  if (*scope) {
    cuemu__sb_str(&alias, scope);
    cuemu__sb_str(&alias, "::");
  }
  cuemu__sb_str(&constant, alias.data ? alias.data : "");
  cuemu__sb_str(&alias, "cuemu_kernel_type_");
  cuemu__sb_str(&alias, last);
  cuemu__sb_str(&constant, "cuemu_kernel_constant_");
  cuemu__sb_str(&constant, last);
  if (text.oom || alias.oom || constant.oom) {
    free(text.data);
    free(alias.data);
    free(constant.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  cuemu_status st =
      cuemu__rw_edit(rw, rw->toks[end].offset + rw->toks[end].length, 0,
                     text.data, text.length);
  free(text.data);
  d->type_alias = alias.data;
  d->constant_alias = constant.data;
  return st;
}
