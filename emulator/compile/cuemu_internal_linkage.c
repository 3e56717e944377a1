/*
 * cuemu_internal_linkage.c: device entities with internal linkage in nvcc's
 * two passes.
 *
 * A `static __device__` variable, or one in an unnamed namespace, has
 * internal linkage, and with nvcc it is still one object: what host code
 * writes with cudaMemcpyToSymbol is what kernels read. cuemu's device and
 * host passes are two C++ translation units linked together, where internal
 * linkage would give each pass a copy of its own (and let the device pass's
 * compiler fold reads of a copy that nothing in it writes). So, in both
 * passes of a translation unit, in the user's code and in system headers
 * (-isystem; unnamed namespaces and static kernels, never the shims):
 *
 * - an unnamed namespace becomes a namespace named after the unit's cache
 *   key, exactly as the standard defines an unnamed namespace
 *   (`namespace unique {} using namespace unique; namespace unique {`):
 *   what it holds gets external linkage and a name that no other unit has,
 *   and hidden visibility, as cudafe++ gives its own such namespace;
 * - a namespace-scope `static` variable with `__device__`, `__constant__`
 *   or `__managed__` loses `static` and gets an assembler name made of the
 *   key, so that it stays private to the unit; so does any such variable
 *   without relocatable device code (nvcc compiles each file's device code
 *   alone then: two files may each have a `__device__ int x`, and neither
 *   can name the other's), and with it a const one that no declaration
 *   says `extern`, which C++ gives internal linkage (a header's
 *   `__device__ const float table[] = {...}` that several units include);
 *   each declarator of a declaration of several (`__constant__ double a2,
 *   tau;`) gets a name of its own, so that a host file's globals of the
 *   same names, which nvcc's host objects never clash with, link;
 * - a `static` variable template loses `static` and goes into that
 *   namespace, with a using-declaration after it (one assembler name
 *   would not do: each instance is an object of its own), and gets the
 *   visibility of other variable templates (cuemu_variable_template.c);
 * - a `static` kernel loses `static` and goes into that namespace, with a
 *   using-declaration after it (`namespace unique { __global__ void k(...)
 *   {...} } using unique::k;`): its C++ name, and so the names of the
 *   shims' templates instantiated for it, are the unit's own.
 *
 * The rules of other device variables and kernels (cuemu_rewrite.c) then
 * make the device pass's definition the program's. Names in messages and in
 * the kernel table are unchanged: the walk sees the original tokens.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"
#include "cuemu_rewriter.h"

/* The identifier that unnamed namespaces of this unit get. */
static void unique_namespace(const cuemu_rewriter *rw, char *buf,
                             size_t size) {
  snprintf(buf, size, CUEMU_UNNAMED_NAMESPACE "%s", rw->unit_key);
}

const char *cuemu__ptxas_entry_name(const char *symbol, char *buf,
                                    size_t size) {
  static const char unnamed[] = CUEMU_UNNAMED_NAMESPACE;
  char *end = NULL;
  if (strncmp(symbol, "_ZL", 3) == 0) {
    snprintf(buf, size, "_Z%s", symbol + 3);
    return buf;
  }
  if (strncmp(symbol, "_ZN", 3) != 0)
    return symbol;
  unsigned long length = strtoul(symbol + 3, &end, 10);
  if (!end || strncmp(end, unnamed, sizeof unnamed - 1) != 0 ||
      strlen(end) < length)
    return symbol;
  /* One name left in the namespace, with no substitution after it (its
   * numbers would change): `_Z<name><parameters>`. */
  const char *rest = end + length;
  unsigned long inner = strtoul(rest, &end, 10);
  if (!end || end == rest || strlen(end) <= inner || end[inner] != 'E' ||
      strchr(end + inner, 'S'))
    return symbol;
  snprintf(buf, size, "_Z%.*s%s", (int)(end + inner - rest), rest,
           end + inner + 1);
  return buf;
}

static int two_passes(const cuemu_rewriter *rw) {
  return rw->unit_key && rw->unit_key[0] &&
         (rw->pass == CUEMU_PASS_DEVICE || rw->pass == CUEMU_PASS_HOST);
}

cuemu_status cuemu__unnamed_namespace(cuemu_rewriter *rw, size_t ns,
                                      size_t brace) {
  if (!two_passes(rw) || (rw->toks[ns].flags & CUEMU_TOKEN_SHIM))
    return CUEMU_SUCCESS;
  char name[96], text[320];
  unique_namespace(rw, name, sizeof name);
  /* Hidden, as cudafe++ makes its own name of an unnamed namespace: what
   * it holds is not exported from a shared library. */
  int len = snprintf(text, sizeof text,
                     "namespace %s __attribute__((visibility(\"hidden\"))) "
                     "{} using namespace %s; namespace %s "
                     "__attribute__((visibility(\"hidden\"))) {",
                     name, name, name);
  const cuemu_token *from = &rw->toks[ns], *to = &rw->toks[brace];
  return cuemu__rw_edit(rw, from->offset, to->offset + to->length - from->offset,
                        text, (size_t)len);
}

/* Writes ` __asm__("label")` for the variable named by token `name` in
 * namespace `scope` ("a::b"). The label is the same in both passes. */
static int asm_label(const cuemu_rewriter *rw, size_t name, const char *scope,
                     char *buf, size_t size) {
  char spelled[256], qualified[512];
  size_t n = cuemu__token_spelling(rw->text, &rw->toks[name], spelled,
                                   sizeof spelled);
  if (n >= sizeof spelled)
    return -1;
  /* "a::b" becomes "a_b": a label is one identifier-like word. */
  size_t q = 0;
  for (const char *c = scope; *c && q + 2 < sizeof qualified; ++c)
    if (*c != ':')
      qualified[q++] = *c;
    else if (c[1] == ':')
      qualified[q++] = '_';
  qualified[q] = '\0';
  int len = snprintf(buf, size, " __asm__(\"cuemu_static_%s_%s_%s\")",
                     rw->unit_key, qualified, spelled);
  return len > 0 && (size_t)len < size ? len : -1;
}

size_t cuemu__type_arguments(const cuemu_rewriter *rw, size_t k) {
  if (!cuemu__rw_is(rw, k, "<"))
    return rw->n;
  size_t close = cuemu__rw_template_close(rw, k);
  if (close >= rw->n)
    return rw->n;
  /* A type's arguments are followed by more of the declaration (a name,
   * `*`, `&`, `::`, a qualifier); a template-id declarator by its end. */
  size_t next = close + 1;
  if (next >= rw->n || cuemu__rw_is(rw, next, "=") ||
      cuemu__rw_is(rw, next, ";") || cuemu__rw_is(rw, next, "{") ||
      cuemu__rw_is(rw, next, "[") || cuemu__rw_is(rw, next, "(") ||
      cuemu__rw_is(rw, next, ","))
    return rw->n;
  return close;
}

size_t cuemu__type_operator(const cuemu_rewriter *rw, size_t k) {
  if (!(cuemu__rw_is(rw, k, "decltype") || cuemu__rw_is(rw, k, "__typeof__") ||
        cuemu__rw_is(rw, k, "typeof")) ||
      !cuemu__rw_is(rw, k + 1, "("))
    return rw->n;
  return cuemu__rw_close(rw, k + 1);
}

/* Removes the `static` token at s. */
static cuemu_status drop_static(cuemu_rewriter *rw, size_t s) {
  return cuemu__rw_edit(rw, rw->toks[s].offset, rw->toks[s].length, "", 0);
}

/* Where the body of the class (struct, union, enum) whose key is token k
 * ends, its `}`; rw->n when token k starts no class body. */
static size_t class_body(const cuemu_rewriter *rw, size_t k) {
  if (!cuemu__rw_is(rw, k, "struct") && !cuemu__rw_is(rw, k, "class") &&
      !cuemu__rw_is(rw, k, "union") && !cuemu__rw_is(rw, k, "enum"))
    return rw->n;
  size_t b = k + 1;
  if (b < rw->n && cuemu__rw_ident(rw, b))
    ++b; /* its name */
  if (b < rw->n && cuemu__rw_is(rw, b, ":")) /* its bases */
    while (b < rw->n && !cuemu__rw_is(rw, b, "{") &&
           !cuemu__rw_is(rw, b, ";") && !cuemu__rw_is(rw, b, "="))
      ++b;
  if (b >= rw->n || !cuemu__rw_is(rw, b, "{"))
    return rw->n;
  return cuemu__rw_close(rw, b);
}

cuemu_status cuemu__static_variable_template(cuemu_rewriter *rw, size_t start,
                                            size_t qualifier,
                                            const char *visible,
                                            size_t visible_length,
                                            int *done) {
  *done = 0;
  if (!two_passes(rw) || (rw->toks[qualifier].flags & CUEMU_TOKEN_FOREIGN))
    return CUEMU_SUCCESS;
  size_t t = (size_t)-1, s = (size_t)-1, name = (size_t)-1, k;
  for (k = start; k < qualifier; ++k) {
    if (cuemu__rw_is(rw, k, "template") && t == (size_t)-1)
      t = k;
    if (cuemu__rw_is(rw, k, "static"))
      s = k;
  }
  if (t == (size_t)-1 || s == (size_t)-1 || !cuemu__rw_is(rw, t + 1, "<") ||
      cuemu__rw_is(rw, t + 2, ">"))
    return CUEMU_SUCCESS; /* not a template, or a full specialization */
  /* Its name (the last identifier before the initializer or the end) and
   * its end. */
  for (k = qualifier + 1; k < rw->n; ++k) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after - 1;
    } else if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, ",") ||
               cuemu__rw_is(rw, k, "<") || cuemu__rw_is(rw, k, "operator")) {
      return CUEMU_SUCCESS; /* a function, or a partial specialization */
    } else if (cuemu__rw_is(rw, k, "[")) {
      k = cuemu__rw_close(rw, k);
    } else if (cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "{") ||
               cuemu__rw_is(rw, k, ";")) {
      break;
    } else if (cuemu__rw_ident(rw, k)) {
      name = k;
    }
  }
  size_t end = k;
  while (end < rw->n && !cuemu__rw_is(rw, end, ";")) {
    if (cuemu__rw_is(rw, end, "(") || cuemu__rw_is(rw, end, "[") ||
        cuemu__rw_is(rw, end, "{"))
      end = cuemu__rw_close(rw, end);
    if (end < rw->n)
      ++end;
  }
  if (name == (size_t)-1 || end >= rw->n)
    return CUEMU_SUCCESS;
  char ns[96], text[128], spelled[256], close[512];
  unique_namespace(rw, ns, sizeof ns);
  if (cuemu__token_spelling(rw->text, &rw->toks[name], spelled,
                            sizeof spelled) >= sizeof spelled)
    return CUEMU_SUCCESS;
  int open_len = snprintf(text, sizeof text, "namespace %s { ", ns);
  int close_len =
      snprintf(close, sizeof close, " } using %s::%s;", ns, spelled);
  /* Edits at one offset apply in the order they were made. */
  cuemu_status st =
      cuemu__rw_edit(rw, rw->toks[start].offset, 0, text, (size_t)open_len);
  if (st == CUEMU_SUCCESS)
    st = drop_static(rw, s);
  if (st == CUEMU_SUCCESS && rw->pass == CUEMU_PASS_DEVICE)
    st = cuemu__rw_edit(rw, rw->toks[qualifier].offset +
                                rw->toks[qualifier].length,
                        0, visible, visible_length);
  if (st == CUEMU_SUCCESS && rw->pass == CUEMU_PASS_HOST &&
      !cuemu__rw_managed_decl(rw, start))
    st = cuemu__rw_edit(rw, rw->toks[qualifier].offset +
                                rw->toks[qualifier].length,
                        0, CUEMU_HOST_SHADOW_MARK,
                        sizeof CUEMU_HOST_SHADOW_MARK - 1);
  if (st == CUEMU_SUCCESS)
    st = cuemu__rw_edit(rw, rw->toks[end].offset + rw->toks[end].length, 0,
                        close, (size_t)close_len);
  *done = st == CUEMU_SUCCESS;
  return st;
}

/* Where the initializer that starts at token k (its `=` or `{`) ends: the
 * `,` before the declaration's next declarator or its `;`; rw->n when that
 * is not known. A `<` outside brackets may open a template's arguments,
 * whose commas would look like declarators' ones: such an initializer ends
 * at the `;` only when no `,` outside brackets follows it. */
static size_t initializer_end(const cuemu_rewriter *rw, size_t k) {
  int angle = 0;
  size_t comma = rw->n;
  if (cuemu__rw_is(rw, k, "{") && (k = cuemu__rw_close(rw, k)) >= rw->n)
    return rw->n;
  for (++k; k < rw->n; ++k) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{")) {
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n)
        return rw->n;
    } else if (cuemu__rw_is(rw, k, "<")) {
      angle = 1;
    } else if (cuemu__rw_is(rw, k, ",")) {
      if (!angle)
        return k;
      if (comma == rw->n)
        comma = k;
    } else if (cuemu__rw_is(rw, k, ";")) {
      return comma == rw->n ? k : rw->n;
    }
  }
  return rw->n;
}

/* The most declarators of one declaration that are made private. */
#define CUEMU_PRIVATE_DECLARATORS 64

cuemu_status cuemu__private_device_variable(cuemu_rewriter *rw, size_t start,
                                           size_t qualifier, const char *scope,
                                           int *done) {
  *done = 0;
  if (!two_passes(rw) || (rw->toks[qualifier].flags & CUEMU_TOKEN_FOREIGN))
    return CUEMU_SUCCESS;
  /* Each declarator's name and the token its label goes before (its
   * initializer's `=` or `{`, the `,` after it, or the `;`): a declaration
   * of several variables (`__constant__ double a, b = 1;`) labels each. */
  size_t names[CUEMU_PRIVATE_DECLARATORS], ends[CUEMU_PRIVATE_DECLARATORS];
  size_t count = 0, s = (size_t)-1, name = (size_t)-1, nested;
  size_t unnamed_class = (size_t)-1;
  int function = 0;
  for (size_t k = start; k < rw->n; ++k) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after - 1;
      continue;
    }
    if (cuemu__rw_is(rw, k, "static")) {
      s = k;
    } else if (class_body(rw, k) < rw->n) {
      if (cuemu__rw_is(rw, k + 1, "{"))
        unnamed_class = k;
      k = class_body(rw, k); /* `struct { int a; } name`: the type's */
    } else if (cuemu__rw_is(rw, k, "[")) {
      k = cuemu__rw_close(rw, k); /* an array's bound */
      if (k >= rw->n)
        return CUEMU_SUCCESS;
    } else if (cuemu__type_arguments(rw, k) < rw->n) {
      k = cuemu__type_arguments(rw, k); /* `Foo<int> name`: the type's */
    } else if (cuemu__type_operator(rw, k) < rw->n) {
      k = cuemu__type_operator(rw, k); /* `decltype(x) name`: the type's */
    } else if ((nested = cuemu__rw_nested_declarator(rw, k, &name,
                                                     &function)) != k) {
      /* `(*p)(int)`: the variable's name is inside. */
      if (function)
        return CUEMU_SUCCESS;
      k = nested - 1;
    } else if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "<") ||
               cuemu__rw_is(rw, k, "operator")) {
      /* A function (an operator function too, whose symbol may end in the
       * `=` of an initializer: `operator^=`, `operator==`) or a
       * template-id: left alone. */
      return CUEMU_SUCCESS;
    } else if (cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "{") ||
               cuemu__rw_is(rw, k, ",") || cuemu__rw_is(rw, k, ";")) {
      if (name == (size_t)-1 || count == CUEMU_PRIVATE_DECLARATORS)
        return CUEMU_SUCCESS;
      names[count] = name;
      ends[count++] = k;
      name = (size_t)-1;
      if (cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, "{"))
        k = initializer_end(rw, k);
      if (k >= rw->n)
        return CUEMU_SUCCESS;
      if (cuemu__rw_is(rw, k, ";"))
        break;
    } else if (cuemu__rw_ident(rw, k)) {
      name = k; /* the last identifier before the end is the declarator's */
    }
  }
  if (count == 0)
    return CUEMU_SUCCESS;
  char labels[CUEMU_PRIVATE_DECLARATORS][768];
  int lengths[CUEMU_PRIVATE_DECLARATORS];
  for (size_t d = 0; d < count; ++d)
    if ((lengths[d] = asm_label(rw, names[d], scope, labels[d],
                                sizeof labels[d])) < 0)
      return CUEMU_SUCCESS;
  cuemu_status st = s == (size_t)-1 ? CUEMU_SUCCESS : drop_static(rw, s);
  if (st == CUEMU_SUCCESS && unnamed_class != (size_t)-1) {
    /* A class without a name has no linkage, nor has a variable of it:
     * the class gets the first label's name (the same in both passes). */
    const cuemu_token *key = &rw->toks[unnamed_class];
    static const char head[] = " __asm__(\"", tail[] = "\")";
    char type[800];
    int type_len = snprintf(
        type, sizeof type, " %.*s",
        lengths[0] - (int)(sizeof head - 1) - (int)(sizeof tail - 1),
        labels[0] + sizeof head - 1);
    st = cuemu__rw_edit(rw, key->offset + key->length, 0, type,
                        (size_t)type_len);
  }
  /* Each label goes after its declarator (and an array's bound). */
  for (size_t d = 0; d < count && st == CUEMU_SUCCESS; ++d)
    st = cuemu__rw_edit(rw, rw->toks[ends[d]].offset, 0, labels[d],
                        (size_t)lengths[d]);
  *done = st == CUEMU_SUCCESS;
  return st;
}

cuemu_status cuemu__static_kernel_open(cuemu_rewriter *rw, size_t start,
                                       size_t global, size_t *name) {
  *name = (size_t)-1;
  if (!two_passes(rw) || (rw->toks[global].flags & CUEMU_TOKEN_SHIM))
    return CUEMU_SUCCESS;
  size_t s = (size_t)-1, open = rw->last_params;
  for (size_t k = start; k < open && k < rw->n; ++k)
    if (cuemu__rw_is(rw, k, "static"))
      s = k;
  if (s == (size_t)-1 || open == 0 || open >= rw->n ||
      !cuemu__rw_ident(rw, open - 1))
    return CUEMU_SUCCESS;
  /* The namespace opens before `static` is dropped: edits at one offset
   * apply in the order they were made. */
  char ns[96], text[128];
  unique_namespace(rw, ns, sizeof ns);
  int len = snprintf(text, sizeof text, "namespace %s { ", ns);
  cuemu_status st =
      cuemu__rw_edit(rw, rw->toks[start].offset, 0, text, (size_t)len);
  if (st == CUEMU_SUCCESS)
    st = drop_static(rw, s);
  if (st == CUEMU_SUCCESS)
    *name = open - 1;
  return st;
}

cuemu_status cuemu__static_kernel_close(cuemu_rewriter *rw, size_t end,
                                        size_t name) {
  char ns[96], spelled[256], text[512];
  unique_namespace(rw, ns, sizeof ns);
  size_t n = cuemu__token_spelling(rw->text, &rw->toks[name], spelled,
                                   sizeof spelled);
  if (n >= sizeof spelled)
    return CUEMU_SUCCESS;
  int len = snprintf(text, sizeof text, " } using %s::%s;", ns, spelled);
  const cuemu_token *t = &rw->toks[end];
  return cuemu__rw_edit(rw, t->offset + t->length, 0, text, (size_t)len);
}

/* The declaration around token t, from the token after the `;`, `{` or `}`
 * before it, says `extern`. */
static int declared_extern(const cuemu_rewriter *rw, size_t t) {
  for (size_t k = t; k-- > 0;) {
    if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
        cuemu__rw_is(rw, k, "}"))
      return 0;
    if (cuemu__rw_is(rw, k, "extern"))
      return 1;
  }
  return 0;
}

int cuemu__const_variable_internal(const cuemu_rewriter *rw, size_t start,
                                   size_t name) {
  const cuemu_token *n = &rw->toks[name];
  for (size_t t = 0; t < start && t < rw->n; t++) {
    const cuemu_token *k = &rw->toks[t];
    if (k->kind == CUEMU_TOKEN_IDENT && k->length == n->length &&
        memcmp(rw->text + k->offset, rw->text + n->offset, n->length) == 0 &&
        declared_extern(rw, t))
      return 0;
  }
  return 1;
}
