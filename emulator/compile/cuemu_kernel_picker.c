/*
 * cuemu_kernel_picker.c: which kernel a launch that its call completes
 * names (a kernel template with deduced template arguments, kernels of one
 * name in several namespaces found through using-directives or
 * argument-dependent lookup), so that the launch takes that kernel's
 * attributes (__launch_bounds__).
 *
 * Such a launch calls the kernel in a lambda (::cuemu::launch_deduced, see
 * cuemu_launch_rewrite.c): lookup, overload resolution and deduction are
 * the compiler's, and C++ cannot name the function that a call picks. So
 * the translation declares, right after each declaration of each of the
 * user's kernels and in its namespace, a picker with the kernel's
 * template head (without default template arguments) and parameters:
 *
 *   extern "C++" { template <typename T, int B>
 *   ::cuemu::kernel_constant<CUEMU_KERNEL_CAST_ARGS((void (*)(
 *       T *out, int n))(&fill<T, B >))> cuemu_pick_fill(T *out, int n = 4); }
 *
 * Lookup finds the pickers where it finds the kernels, so the call
 * `cuemu_pick_fill(args...)` picks the picker of the kernel that
 * `fill(args...)` calls, and its type names that kernel (its instance).
 * (The declaration is wrapped in pragmas that silence the deprecation of
 * its parameter types, which the user's declaration has warned about.)
 * The launch passes `[](auto &&...a) -> decltype(cuemu_pick_fill(a...))`
 * (::cuemu::launch_deduced_with); the launcher looks up the kernel it
 * names (cuemu_kernel_overloads.h's by_picker). Pickers are declarations
 * only: nothing calls them.
 */
#include <stdlib.h>
#include <string.h>

#include "cuemu_rewriter.h"

/* Appends the template head whose `<` is at token lt without its default
 * arguments (a later declaration may not repeat them). */
static void head_without_defaults(cuemu_strbuf *sb, const cuemu_rewriter *rw,
                                  size_t lt) {
  size_t close = cuemu__rw_template_close(rw, lt), k, from, end;
  int pack;
  cuemu__sb_str(sb, "template <");
  for (from = lt + 1; from <= close && close < rw->n; from = k + 1) {
    k = cuemu__template_param_end(rw, from, close, &end, &pack);
    if (from > lt + 1)
      cuemu__sb_str(sb, ", ");
    cuemu__sb_tokens(sb, rw, from, end, 0);
  }
  cuemu__sb_str(sb, "> ");
}

cuemu_status cuemu__kernel_picker(cuemu_rewriter *rw, size_t end) {
  if (rw->last_kernel < 0 || rw->last_kernel >= rw->kernel_count)
    return CUEMU_SUCCESS;
  cuemu_kernel_decl *d = &rw->kernels[rw->last_kernel];
  size_t open = rw->last_params, name = open - 1;
  size_t close = cuemu__rw_close(rw, open);
  /* After each declaration (a later one may give default arguments that
   * an earlier one does not; none may repeat them); not for a definition
   * of a kernel of another namespace (`ns::k`), an explicit
   * specialization (`k<int>`), or a declarator that is not a plain
   * name. */
  if (close >= rw->n || close > end || !cuemu__rw_ident(rw, name) ||
      (name > 0 && cuemu__rw_is(rw, name - 1, "::")))
    return CUEMU_SUCCESS;
  if (rw->last_is_template &&
      (rw->last_template == (size_t)-1 ||
       cuemu__rw_is(rw, rw->last_template + 1, ">")))
    return CUEMU_SUCCESS;
  cuemu_strbuf self = {0}, text = {0};
  cuemu_status st = cuemu__kernel_self_reference(rw, &self);
  if (st != CUEMU_SUCCESS || self.oom || !self.data ||
      strstr(self.data, "cuemu_tparam_")) {
    /* Unnamed template parameters: no picker (the launch takes no
     * attributes, as before). */
    free(self.data);
    return st == CUEMU_OUT_OF_MEMORY ? st : CUEMU_SUCCESS;
  }
  /* The picker repeats the kernel's parameter types: a deprecated one
   * (CUDA 13's double4) warned a second time, at the kernel's closing
   * brace, where the user wrote no double4 (tests/driver_warnings.sh). */
  cuemu__sb_str(&text, " _Pragma(\"GCC diagnostic push\") "
                       "_Pragma(\"GCC diagnostic ignored "
                       "\\\"-Wdeprecated-declarations\\\"\")");
  cuemu__sb_str(&text, " extern \"C++\" { ");
  if (rw->last_is_template)
    head_without_defaults(&text, rw, rw->last_template);
  cuemu__sb_str(&text, "::cuemu::kernel_constant<CUEMU_KERNEL_CAST_ARGS");
  cuemu__sb_add(&text, self.data, self.length);
  cuemu__sb_str(&text, "> cuemu_pick_");
  cuemu__sb_tokens(&text, rw, name, name + 1, 0);
  cuemu__sb_str(&text, "(");
  cuemu__sb_tokens(&text, rw, open + 1, close, 1);
  cuemu__sb_str(&text, "); } _Pragma(\"GCC diagnostic pop\")");
  free(self.data);
  if (text.oom) {
    free(text.data);
    return CUEMU_OUT_OF_MEMORY;
  }
  const cuemu_token *t = &rw->toks[end];
  st = cuemu__rw_edit(rw, t->offset + t->length, 0, text.data, text.length);
  free(text.data);
  if (st == CUEMU_SUCCESS)
    d->picker = 1;
  return st;
}

const char *cuemu__last_part(const char *name) {
  const char *last = name, *p;
  for (p = name; (p = strstr(p, "::")) != NULL; p += 2)
    last = p + 2;
  return last;
}

int cuemu__kernel_namespaces(const cuemu_rewriter *rw, const char *last) {
  int count = 0;
  for (int i = 0; i < rw->kernel_count; i++) {
    const char *name = rw->kernels[i].name;
    if (strcmp(cuemu__last_part(name), last) != 0)
      continue;
    int seen = 0;
    for (int j = 0; j < i && !seen; j++)
      seen = strcmp(rw->kernels[j].name, name) == 0;
    count += !seen;
  }
  return count;
}

/* Whether the kernel whose full name is `name` (one of its overloads)
 * has a picker. */
static int kernel_picked(const cuemu_rewriter *rw, const char *name) {
  for (int j = 0; j < rw->kernel_count; j++)
    if (rw->kernels[j].picker && strcmp(rw->kernels[j].name, name) == 0)
      return 1;
  return 0;
}

/* Whether every kernel named `last` (in each of its namespaces) has a
 * picker. */
static int every_kernel_picked(const cuemu_rewriter *rw, const char *last) {
  for (int i = 0; i < rw->kernel_count; i++) {
    const char *name = rw->kernels[i].name;
    if (strcmp(cuemu__last_part(name), last) == 0 && !kernel_picked(rw, name))
      return 0;
  }
  return 1;
}

/* The `;` of the using-declaration `using A::B::k;` at token k (a
 * `using`), and in *named its last name's token; rw->n when token k starts
 * none (a using-directive, an alias, `using enum`). */
static size_t using_declaration(const cuemu_rewriter *rw, size_t k,
                                size_t *named) {
  size_t e = k + 1;
  if (cuemu__rw_is(rw, e, "typename"))
    e++;
  size_t first = e;
  while (e < rw->n && (cuemu__rw_ident(rw, e) || cuemu__rw_is(rw, e, "::")))
    e++;
  if (e >= rw->n || !cuemu__rw_is(rw, e, ";") || e < first + 2 ||
      !cuemu__rw_ident(rw, e - 1) || !cuemu__rw_is(rw, e - 2, "::") ||
      cuemu__rw_is(rw, first, "namespace") || cuemu__rw_is(rw, first, "enum"))
    return rw->n;
  *named = e - 1;
  return e;
}

/* Whether the kernel whose full name is `full` may be the one that a
 * using-declaration naming `q` (`rooted`: written `::q`) names. Unless it
 * is rooted, q is relative to the namespaces around the declaration
 * (`using inner::k;` in namespace outer; a program that a combined test
 * build wraps in a namespace of its own): any kernel whose name ends in
 * `::q`. */
static int using_may_name(const char *full, const char *q, int rooted) {
  size_t fl = strlen(full), ql = strlen(q);
  if (fl == ql)
    return strcmp(full, q) == 0;
  return !rooted && fl > ql + 2 && strcmp(full + fl - ql, q) == 0 &&
         memcmp(full + fl - ql - 2, "::", 2) == 0;
}

/* A kernel with a picker that the using-declaration ending at `named`
 * (its last name) names, or NULL: NULL too where a kernel that it may
 * name (using_may_name()) has none, since which one it names is lookup's.
 * *candidates (where not NULL): how many kernels it may name. */
static const cuemu_kernel_decl *using_kernel(const cuemu_rewriter *rw,
                                             size_t from, size_t named,
                                             int *candidates) {
  cuemu_strbuf q = {0};
  if (cuemu__rw_is(rw, from, "typename"))
    from++;
  int rooted = cuemu__rw_is(rw, from, "::"), count = 0, unpicked = 0;
  if (rooted)
    from++;
  cuemu__sb_tokens(&q, rw, from, named + 1, 0);
  const cuemu_kernel_decl *found = NULL;
  for (int i = 0; q.data && !q.oom && i < rw->kernel_count; i++) {
    const char *name = rw->kernels[i].name;
    if (!using_may_name(name, q.data, rooted))
      continue;
    count++;
    if (!kernel_picked(rw, name))
      unpicked = 1;
    else if (rw->kernels[i].picker)
      found = &rw->kernels[i];
  }
  free(q.data);
  if (candidates)
    *candidates = count;
  return unpicked ? NULL : found;
}

cuemu_status cuemu__picker_using(cuemu_rewriter *rw, size_t k) {
  size_t named, end = using_declaration(rw, k, &named);
  if (end >= rw->n || !using_kernel(rw, k + 1, named, NULL))
    return CUEMU_SUCCESS;
  /* `using A::k;` brings the kernel; ` using A::cuemu_pick_k;` after it
   * brings its picker, so that a launch of k there learns which kernel it
   * names. */
  cuemu_strbuf sb = {0};
  cuemu__sb_str(&sb, " using ");
  cuemu__sb_tokens(&sb, rw, k + 1, named, 0);
  cuemu__sb_str(&sb, "cuemu_pick_");
  cuemu__sb_tokens(&sb, rw, named, named + 1, 0);
  cuemu__sb_str(&sb, ";");
  cuemu_status st = sb.oom ? CUEMU_OUT_OF_MEMORY
                           : cuemu__rw_edit(rw,
                                            rw->toks[end].offset +
                                                rw->toks[end].length,
                                            0, sb.data, sb.length);
  free(sb.data);
  return st;
}

/* Whether a using-declaration (`using ns::last;`) names `last` and brings
 * the kernel into a scope without its picker (one of a kernel without a
 * picker; cuemu__picker_using() brings the others' along). One of a system
 * header that may name none of the kernels does not count (Thrust's
 * `using ...::fill;`, where the user's kernel template is called fill). */
static int using_declared(const cuemu_rewriter *rw, const char *last) {
  for (size_t k = 0; k + 3 < rw->n; k++) {
    if (!cuemu__rw_is(rw, k, "using"))
      continue;
    size_t named, e = using_declaration(rw, k, &named);
    int candidates;
    if (e < rw->n && cuemu__rw_is(rw, named, last) &&
        !using_kernel(rw, k + 1, named, &candidates) &&
        (candidates || !(rw->toks[k].flags & CUEMU_TOKEN_FOREIGN)))
      return 1;
  }
  return 0;
}

char *cuemu__launch_pick(const cuemu_rewriter *rw, size_t start, size_t name,
                         size_t launch) {
  cuemu_strbuf last = {0}, pick = {0};
  cuemu__sb_tokens(&last, rw, name, name + 1, 0);
  if (last.oom || !last.data)
    return free(last.data), NULL;
  const cuemu_kernel_decl *one = NULL;
  int pickers = 0;
  for (int i = 0; i < rw->kernel_count; i++) {
    const cuemu_kernel_decl *d = &rw->kernels[i];
    if (strcmp(cuemu__last_part(d->name), last.data) == 0) {
      pickers += d->picker;
      one = d;
    }
  }
  int namespaces = cuemu__kernel_namespaces(rw, last.data);
  int template_id = name + 1 < launch;
  if (!pickers ||
      (namespaces > 1 && template_id &&
       (!every_kernel_picked(rw, last.data) ||
        using_declared(rw, last.data)))) {
    /* No picker to call, or one that may not be a template where the
     * launch is (`cuemu_pick_k<...>` would not parse). A template-id
     * parses where the launch's does: lookup finds each kernel's picker
     * where it finds the kernel, unless a kernel has none, or a
     * using-declaration brings the kernel alone. */
    free(last.data);
    return NULL;
  }
  if (namespaces == 1) {
    /* The kernel's own namespace, qualified. */
    const char *tail = cuemu__last_part(one->name);
    cuemu__sb_str(&pick, "::");
    cuemu__sb_add(&pick, one->name, (size_t)(tail - one->name));
  } else {
    /* As the launch names it: lookup finds the pickers where it finds
     * the kernels (using-directives, argument-dependent lookup). */
    cuemu__sb_tokens(&pick, rw, start, name, 0);
  }
  cuemu__sb_str(&pick, "cuemu_pick_");
  cuemu__sb_str(&pick, last.data);
  if (template_id)
    cuemu__sb_tokens(&pick, rw, name + 1, launch, 0);
  free(last.data);
  if (pick.oom)
    return free(pick.data), NULL;
  return pick.data;
}
