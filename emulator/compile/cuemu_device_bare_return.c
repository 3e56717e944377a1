/*
 * cuemu_device_bare_return.c: `return;` in a device function that returns
 * a value.
 *
 * nvcc's front end takes a `return;` without a value in a __device__
 * function whose return type is not void, with its warning #117-D
 * (`non-void function "rtw::march" should return a value`): the function
 * then returns an unspecified value from there (its PTX leaves the return
 * register as it is). nvcc's host compile never sees the body of a
 * device-only function, so the program builds, as ray marchers written
 * for nvcc show. g++ refuses the statement ("return-statement with no
 * value, in function returning 'int'"), so the device pass makes each such
 * `return;` of the function's own body `return __typeof__(T)();`, T its
 * return type as written (a value-initialized result, one unspecified value
 * among others; `void()` in a template's instance whose T is void), and the
 * host pass, whose stub of the body has none of its statements, gives
 * nvcc's warning at its line. nvcc gives a template's warning at each of
 * its instances whose return type is not void, naming the instance; cuemu
 * does not know them and gives none. Left to g++, which refuses them as
 * nvcc's host compile does: the `return;` of a __host__ __device__
 * function. Left alone: a function returning a reference or a decltype,
 * whose value `T()` cannot spell.
 */
#include <stdio.h>
#include <string.h>

#include "cuemu_rewriter.h"

/* Whether token k is a specifier that may stand before a function's name
 * where the function has no return type (a constructor). */
static int specifier(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {
      "__device__", "__host__", "__forceinline__", "__noinline__", "inline",
      "__inline__", "static",   "virtual",         "explicit",     "constexpr",
      "consteval",  "extern",   "friend",          "__global__"};
  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
    if (cuemu__rw_is(rw, k, words[w]))
      return 1;
  return 0;
}

/* The `(` of the parameters of the function declared from token `start`
 * to its body's `{` at `brace`, or rw->n for a declaration this file leaves
 * alone (an operator's, one it does not understand); *templated is set
 * when the declaration starts with a template head. */
static size_t parameters(const cuemu_rewriter *rw, size_t start,
                         size_t brace, int *templated) {
  for (size_t k = start; k < brace; k++) {
    size_t past = cuemu__rw_skip_attribute(rw, k);
    if (past != k) {
      k = past - 1;
      continue;
    }
    if (cuemu__rw_is(rw, k, "template") && cuemu__rw_is(rw, k + 1, "<")) {
      *templated = 1;
      continue; /* its `<...>` next */
    }
    if (cuemu__rw_is(rw, k, "template") || cuemu__rw_is(rw, k, "operator") ||
        cuemu__rw_is(rw, k, "=") || cuemu__rw_is(rw, k, ";"))
      return rw->n;
    if (cuemu__rw_is(rw, k, "<")) {
      size_t close = cuemu__rw_template_close(rw, k);
      if (close >= brace)
        return rw->n;
      k = close;
      continue;
    }
    if (cuemu__rw_is(rw, k, "("))
      return k > start && cuemu__rw_ident(rw, k - 1) ? k : rw->n;
  }
  return rw->n;
}

/* The first token of the return type of the declaration from token
 * `start`: past its template heads, attributes and specifiers. */
static size_t type_begin(const cuemu_rewriter *rw, size_t start,
                         size_t end) {
  size_t k = start;
  while (k < end) {
    size_t past = cuemu__rw_skip_attribute(rw, k);
    if (past != k)
      k = past;
    else if (cuemu__rw_is(rw, k, "template") && cuemu__rw_is(rw, k + 1, "<"))
      k = cuemu__rw_template_close(rw, k + 1) + 1;
    else if (specifier(rw, k))
      k++;
    else
      break;
  }
  return k;
}

/* Whether the function whose parameters open at token `open`, declared
 * from token `start`, with its body at `brace`, returns a value of a type
 * this file can give: not void, not a reference, not deduced. *name is set
 * to the first token of its (perhaps qualified) name, and [*type, *type_end)
 * to the tokens of its return type. */
static int returns_value(const cuemu_rewriter *rw, size_t start, size_t open,
                         size_t brace, size_t *name, size_t *type,
                         size_t *type_end) {
  size_t close = cuemu__rw_close(rw, open);
  if (close >= brace)
    return 0;
  /* The name, with its qualification (`Sphere::hit`, `a::b::f`). */
  size_t first = open - 1;
  while (first >= start + 2 && cuemu__rw_is(rw, first - 1, "::") &&
         cuemu__rw_ident(rw, first - 2))
    first -= 2;
  *name = first;
  if (cuemu__rw_is(rw, first - 1, "~"))
    return 0; /* a destructor */
  /* The type before the name, without the specifiers and attributes
   * written between them (`float __forceinline__ f()`). */
  size_t begin = type_begin(rw, start, first), end = first;
  while (end > begin) {
    size_t attribute = cuemu__rw_attribute_start(rw, end - 1);
    if (attribute != end - 1 && attribute >= begin)
      end = attribute;
    else if (specifier(rw, end - 1))
      end--;
    else
      break;
  }
  if (end <= begin)
    return 0; /* a constructor */
  if (end == begin + 1 && cuemu__rw_is(rw, begin, "auto")) {
    /* `auto f(...) -> T`: the trailing return type; a deduced one is
     * void where its body says `return;` */
    begin = rw->n;
    for (size_t k = close + 1; k < brace; k++)
      if (cuemu__rw_is(rw, k, "->")) {
        begin = k + 1;
        break;
      }
    if (begin >= brace)
      return 0;
    end = brace;
  }
  if ((end == begin + 1 && cuemu__rw_is(rw, begin, "void")) ||
      cuemu__rw_is(rw, end - 1, "&") || cuemu__rw_is(rw, end - 1, "&&") ||
      cuemu__rw_is(rw, begin, "decltype"))
    return 0;
  *type = begin;
  *type_end = end;
  return 1;
}

/* The name of the class whose body encloses token k, or NULL: the
 * identifier after the `struct`, `class` or `union` before the `{` that
 * opens the innermost brace around k; *templated is set when a template
 * head declares that class. */
static const cuemu_token *enclosing_class(const cuemu_rewriter *rw, size_t k,
                                          int *templated) {
  size_t depth = 0;
  while (k > 0) {
    k--;
    if (cuemu__rw_is(rw, k, "}")) {
      depth++;
      continue;
    }
    if (!cuemu__rw_is(rw, k, "{"))
      continue;
    if (depth > 0) {
      depth--;
      continue;
    }
    for (size_t p = k; p > 0; p--) {
      if (cuemu__rw_is(rw, p - 1, ";") || cuemu__rw_is(rw, p - 1, "{") ||
          cuemu__rw_is(rw, p - 1, "}"))
        return NULL;
      if ((cuemu__rw_is(rw, p - 1, "struct") ||
           cuemu__rw_is(rw, p - 1, "class") ||
           cuemu__rw_is(rw, p - 1, "union")) &&
          cuemu__rw_ident(rw, p)) {
        size_t head = p >= 2 && cuemu__rw_is(rw, p - 2, ">")
                          ? cuemu__rw_template_open(rw, p - 2)
                          : (size_t)-1;
        if (head != (size_t)-1 && head > 0 &&
            cuemu__rw_is(rw, head - 1, "template"))
          *templated = 1;
        return &rw->toks[p];
      }
    }
    return NULL;
  }
  return NULL;
}

/* Appends `length` bytes of `text` to buf (of size n, *used so far), when
 * they fit. */
static void append(char *buf, size_t n, size_t *used, const char *text,
                   size_t length) {
  if (*used + length + 1 > n)
    return;
  memcpy(buf + *used, text, length);
  *used += length;
  buf[*used] = '\0';
}

cuemu_status cuemu__device_bare_returns(cuemu_rewriter *rw, const char *ns,
                                        size_t start, size_t brace) {
  int templated = 0;
  size_t open = parameters(rw, start, brace, &templated);
  size_t name = rw->n, type = rw->n, type_end = rw->n;
  if (open >= rw->n ||
      !returns_value(rw, start, open, brace, &name, &type, &type_end))
    return CUEMU_SUCCESS;
  /* The body: a constructor's member initializers are not before it (a
   * constructor returns no value), so `brace` opens it. */
  size_t close = cuemu__rw_close(rw, brace);
  if (close >= rw->n)
    return CUEMU_SUCCESS;
  /* nvcc's name of the function: its namespace, its class (for a member
   * defined in its class body) and its name as written. */
  char function[256];
  size_t used = 0;
  function[0] = '\0';
  if (ns && ns[0]) {
    append(function, sizeof function, &used, ns, strlen(ns));
    append(function, sizeof function, &used, "::", 2);
  }
  const cuemu_token *cls = enclosing_class(rw, start, &templated);
  if (cls) {
    append(function, sizeof function, &used, rw->text + cls->offset,
           cls->length);
    append(function, sizeof function, &used, "::", 2);
  }
  for (size_t k = name; k < open; k++)
    append(function, sizeof function, &used, rw->text + rw->toks[k].offset,
           rw->toks[k].length);
  /* The value: ` __typeof__(T)()`, a value-initialized T, which is also
   * `void()` where a template's T is void in an instance. */
  char value[512];
  used = 0;
  value[0] = '\0';
  append(value, sizeof value, &used, " __typeof__(", 12);
  for (size_t k = type; k < type_end; k++) {
    if (k > type)
      append(value, sizeof value, &used, " ", 1);
    append(value, sizeof value, &used, rw->text + rw->toks[k].offset,
           rw->toks[k].length);
  }
  append(value, sizeof value, &used, ")()", 3);
  if (used < 3 || strcmp(value + used - 3, ")()") != 0)
    return CUEMU_SUCCESS; /* a return type too long to spell here */
  /* nvcc warns at a template's instances whose return type is not void,
   * naming the instance; cuemu does not know them, and gives none. */
  int edit = rw->pass != CUEMU_PASS_HOST;
  int warn = rw->pass != CUEMU_PASS_DEVICE && !templated;
  return cuemu__rw_bare_returns(rw, brace, close, value, edit, warn, function);
}
