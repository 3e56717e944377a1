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
 * function.
 *
 * A function returning a reference (`float &`, `const T &&`, a decltype
 * written) gets `return cuemu_unset_result<T>::get();`: a reference that
 * no memory is behind (a non-canonical address), so that a read or write
 * through it fails the launch with a report that says so
 * (shims/cuda_builtins/cuemu_unset_result.h), where a GPU would read or
 * write whatever the result register points at. A function whose return
 * type is deduced (`auto`, `auto &`, `decltype(auto)`) gets the same for
 * the type of a call of the function itself with its parameters' types
 * (`decltype(at(__cuemu_declval<int>()))`), which names the overload of an
 * overload set, and, with the parameters of a function template as its
 * template arguments (`site<T>(...)`), the instance: only the bare returns
 * after a return with a value, as nvcc takes them (one before is nvcc's
 * error, "cannot deduce", or makes a void function). nvcc names the
 * later functions of an overload set with their parameters' types
 * (`weight(float, int)`), and so does the warning. A parameter list it
 * does not understand (a function's parameter, an array's of several
 * bounds, C's `...`) is left to g++, which refuses the statement.
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
static size_t parameters(const cuemu_rewriter *rw, size_t start, size_t brace,
                         int *templated) {
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
    if (cuemu__rw_is(rw, k, "decltype") && cuemu__rw_is(rw, k + 1, "(")) {
      size_t close = cuemu__rw_close(rw, k + 1);
      if (close >= brace)
        return rw->n;
      k = close; /* a return type's `decltype(...)` */
      continue;
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
static size_t type_begin(const cuemu_rewriter *rw, size_t start, size_t end) {
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

/* What a function returns, for the value its `return;` gives. */
enum result_kind {
  RESULT_NONE,      /* void, a constructor's or destructor's, or unknown */
  RESULT_VALUE,     /* a type written, not a reference: `T()` */
  RESULT_REFERENCE, /* a reference, or a decltype, written: the unset
                     * reference (cuemu_unset_result.h) */
  RESULT_DEDUCED    /* `auto`, `auto &`, `decltype(auto)`: the type that a
                     * return with a value deduced */
};

/* What the function whose parameters open at token `open`, declared from
 * token `start`, with its body at `brace`, returns. *name is set to the
 * first token of its (perhaps qualified) name, and [*type, *type_end) to
 * the tokens of its return type. */
static enum result_kind returns_value(const cuemu_rewriter *rw, size_t start,
                                      size_t open, size_t brace, size_t *name,
                                      size_t *type, size_t *type_end) {
  size_t close = cuemu__rw_close(rw, open);
  if (close >= brace)
    return RESULT_NONE;
  /* The name, with its qualification (`Sphere::hit`, `a::b::f`). */
  size_t first = open - 1;
  while (first >= start + 2 && cuemu__rw_is(rw, first - 1, "::") &&
         cuemu__rw_ident(rw, first - 2))
    first -= 2;
  *name = first;
  if (cuemu__rw_is(rw, first - 1, "~"))
    return RESULT_NONE; /* a destructor */
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
    return RESULT_NONE; /* a constructor */
  *type = begin;
  *type_end = end;
  if (end == begin + 1 && cuemu__rw_is(rw, begin, "auto")) {
    /* `auto f(...) -> T`: the trailing return type; else deduced */
    for (size_t k = close + 1; k < brace; k++)
      if (cuemu__rw_is(rw, k, "->")) {
        begin = k + 1;
        break;
      }
    if (begin == *type)
      return RESULT_DEDUCED;
    end = brace;
    *type = begin;
    *type_end = end;
  }
  for (size_t k = begin; k < end; k++)
    if (cuemu__rw_is(rw, k, "auto"))
      return RESULT_DEDUCED; /* `auto &`, `decltype(auto)` */
  if (end == begin + 1 && cuemu__rw_is(rw, begin, "void"))
    return RESULT_NONE;
  if (cuemu__rw_is(rw, end - 1, "&") || cuemu__rw_is(rw, end - 1, "&&") ||
      cuemu__rw_is(rw, begin, "decltype"))
    return RESULT_REFERENCE;
  return RESULT_VALUE;
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

/* Appends the type of each parameter in the list whose `(` is token open
 * and `)` token close, its name and default argument left out, to buf:
 * with `form` "d", as `__cuemu_declval<TYPE>()` (a pack's as
 * `__cuemu_declval<Ts>()...`), separated by `, `; with "n", as nvcc names
 * them (`const U &`, `Ts...`); an array's as the pointer it is (`float
 * *`). Returns 0 for a list it does not understand (a function's
 * parameter, an array's of several bounds, C's `...`). */
static int parameter_types(const cuemu_rewriter *rw, size_t open, size_t close,
                           const char *form, char *buf, size_t n,
                           size_t *used) {
  size_t a = open + 1;
  if (close == a + 1 && cuemu__rw_is(rw, a, "void"))
    return 1;
  int count = 0;
  while (a < close) {
    size_t b = a, end = rw->n, array = rw->n;
    while (b < close && !cuemu__rw_is(rw, b, ",")) {
      if (cuemu__rw_is(rw, b, "=") && end == rw->n)
        end = b;
      if (cuemu__rw_is(rw, b, "<") && end == rw->n) {
        b = cuemu__rw_template_close(rw, b);
        if (b >= close)
          return 0;
      } else if (end == rw->n && cuemu__rw_is(rw, b, "[")) {
        /* An array parameter, whose type is a pointer: `float a[]`. */
        if (array != rw->n)
          return 0;
        array = b;
        b = cuemu__rw_close(rw, b);
        if (b >= close)
          return 0;
      } else if (end == rw->n && cuemu__rw_is(rw, b, "("))
        return 0;
      else if (cuemu__rw_is(rw, b, "(") || cuemu__rw_is(rw, b, "{"))
        b = cuemu__rw_close(rw, b);
      b++;
    }
    if (end == rw->n)
      end = b;
    if (array != rw->n) {
      if (end != cuemu__rw_close(rw, array) + 1)
        return 0; /* something after the bounds */
      end = array;
    }
    /* A pack's `...`, three tokens, at its type's end. */
    int pack = 0;
    size_t type_end = end;
    for (size_t k = a; k + 2 < end; k++)
      if (cuemu__rw_spells(rw, k, "...")) {
        if (k == a)
          return 0; /* C's `...` */
        pack = 1;
        type_end = k;
        break;
      }
    /* The name: a last identifier after the type's words. */
    size_t name_at = pack ? end - 1 : type_end - 1;
    int named = name_at > a && cuemu__rw_ident(rw, name_at) &&
                !cuemu__scalar_type_word(rw, name_at) &&
                !cuemu__rw_is(rw, name_at - 1, "::") &&
                !cuemu__rw_is(rw, name_at, "const") &&
                !cuemu__rw_is(rw, name_at, "volatile");
    if (named && !pack)
      type_end = name_at;
    if (named) {
      int type_word = 0;
      for (size_t k = a; k < type_end; k++)
        type_word |= (cuemu__rw_ident(rw, k) && !cuemu__rw_is(rw, k, "const") &&
                      !cuemu__rw_is(rw, k, "volatile")) ||
                     cuemu__rw_is(rw, k, ">");
      if (!type_word)
        type_end = pack ? type_end : name_at + 1; /* `const T`: no name */
    }
    if (type_end <= a)
      return 0;
    if (count++)
      append(buf, n, used, ", ", 2);
    if (form[0] == 'd')
      append(buf, n, used, "__cuemu_declval<", 16);
    for (size_t k = a; k < type_end; k++) {
      int word =
          cuemu__rw_ident(rw, k) || rw->toks[k].kind == CUEMU_TOKEN_NUMBER;
      int space =
          k > a &&
          ((word &&
            (cuemu__rw_ident(rw, k - 1) || cuemu__rw_is(rw, k - 1, "*") ||
             cuemu__rw_is(rw, k - 1, "&") || cuemu__rw_is(rw, k - 1, ">"))) ||
           ((cuemu__rw_is(rw, k, "*") || cuemu__rw_is(rw, k, "&")) &&
            !cuemu__rw_is(rw, k - 1, "*") && !cuemu__rw_is(rw, k - 1, "&")));
      if (space && form[0] == 'd' && !word)
        space = 0;
      if (space)
        append(buf, n, used, " ", 1);
      append(buf, n, used, rw->text + rw->toks[k].offset, rw->toks[k].length);
    }
    if (array != rw->n)
      append(buf, n, used, " *", 2);
    if (form[0] == 'd')
      append(buf, n, used, ">()", 3);
    if (pack)
      append(buf, n, used, "...", 3);
    a = b + 1;
  }
  return 1;
}

/* Appends, for a declaration from token start with a template head, the
 * names of its parameters as template arguments (`<N, T, Ts...>`) to buf;
 * returns 0 for a head it does not understand. */
static int template_arguments(const cuemu_rewriter *rw, size_t start,
                              size_t open, char *buf, size_t n, size_t *used) {
  size_t head = start;
  while (head < open && !(cuemu__rw_is(rw, head, "template") &&
                          cuemu__rw_is(rw, head + 1, "<")))
    head++;
  if (head >= open)
    return 0;
  size_t close = cuemu__rw_template_close(rw, head + 1);
  if (close >= open)
    return 0;
  append(buf, n, used, "<", 1);
  size_t a = head + 2;
  int count = 0;
  while (a < close) {
    size_t b = a, name = rw->n;
    int pack = 0, defaulted = 0;
    while (b < close && !cuemu__rw_is(rw, b, ",")) {
      if (cuemu__rw_is(rw, b, "<") || cuemu__rw_is(rw, b, "(")) {
        b = cuemu__rw_is(rw, b, "<") ? cuemu__rw_template_close(rw, b)
                                     : cuemu__rw_close(rw, b);
        if (b >= close)
          return 0;
      } else if (cuemu__rw_is(rw, b, "="))
        defaulted = 1;
      else if (cuemu__rw_is(rw, b, ".") && !defaulted)
        pack = 1;
      else if (cuemu__rw_ident(rw, b) && !defaulted)
        name = b;
      b++;
    }
    if (name >= close || cuemu__rw_is(rw, name, "class") ||
        cuemu__rw_is(rw, name, "typename"))
      return 0; /* an unnamed parameter */
    if (count++)
      append(buf, n, used, ", ", 2);
    append(buf, n, used, rw->text + rw->toks[name].offset,
           rw->toks[name].length);
    if (pack)
      append(buf, n, used, "...", 3);
    a = b + 1;
  }
  append(buf, n, used, ">", 1);
  return 1;
}

/* Whether a declaration of the function named by tokens [name, open)
 * with other parameters' types comes before token start in the unit: the
 * later functions of an overload set are named with their parameters'
 * types by nvcc. */
static int declared_before(const cuemu_rewriter *rw, size_t name, size_t open,
                           size_t start) {
  char own[256], other[256];
  size_t own_used = 0;
  own[0] = '\0';
  if (!parameter_types(rw, open, cuemu__rw_close(rw, open), "n", own,
                       sizeof own, &own_used))
    return 0;
  size_t length = open - name;
  for (size_t k = 1; k + length < start; k++) {
    int same = cuemu__rw_is(rw, k + length, "(");
    for (size_t t = 0; same && t < length; t++)
      same = cuemu__rw_same(rw, k + t, name + t);
    if (!same || cuemu__rw_is(rw, k - 1, ".") ||
        cuemu__rw_is(rw, k - 1, "->") || cuemu__rw_is(rw, k - 1, "::") ||
        cuemu__rw_is(rw, k - 1, "return"))
      continue;
    /* A declaration: a type or a specifier before the name, and a body,
     * `;` or a trailing return type after its parameters. */
    size_t close = cuemu__rw_close(rw, k + length);
    if (close >= start ||
        !(cuemu__rw_ident(rw, k - 1) || cuemu__rw_is(rw, k - 1, "&") ||
          cuemu__rw_is(rw, k - 1, "*") || cuemu__rw_is(rw, k - 1, ">")) ||
        !(cuemu__rw_is(rw, close + 1, "{") ||
          cuemu__rw_is(rw, close + 1, ";") ||
          cuemu__rw_is(rw, close + 1, "->") ||
          cuemu__rw_is(rw, close + 1, "const")))
      continue;
    size_t other_used = 0;
    other[0] = '\0';
    if (parameter_types(rw, k + length, close, "n", other, sizeof other,
                        &other_used) &&
        strcmp(own, other) != 0)
      return 1;
  }
  return 0;
}

cuemu_status cuemu__device_bare_returns(cuemu_rewriter *rw, const char *ns,
                                        size_t start, size_t brace) {
  int templated = 0;
  size_t open = parameters(rw, start, brace, &templated);
  size_t name = rw->n, type = rw->n, type_end = rw->n;
  if (open >= rw->n)
    return CUEMU_SUCCESS;
  enum result_kind kind =
      returns_value(rw, start, open, brace, &name, &type, &type_end);
  if (kind == RESULT_NONE)
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
  /* nvcc names the first declaration of an overload set as written, and
   * each later one with its parameters' types: `weight(float, int)`. */
  if (!cls && declared_before(rw, name, open, start)) {
    append(function, sizeof function, &used, "(", 1);
    if (!parameter_types(rw, open, cuemu__rw_close(rw, open), "n", function,
                         sizeof function, &used))
      return CUEMU_SUCCESS;
    append(function, sizeof function, &used, ")", 1);
  }
  /* The value: ` __typeof__(T)()`, a value-initialized T, which is also
   * `void()` where a template's T is void in an instance; for a reference,
   * ` cuemu_unset_result<T>::get()`, a reference that no memory is behind;
   * for a deduced type, the same of the type of a call of the function
   * itself with its parameters' types (`decltype(at<T>(
   * __cuemu_declval<int>()))`), which a previous return has deduced: the
   * call names the overload and, with the template's parameters as its
   * arguments, the instance. */
  static const char unset[] = " cuemu_unset_result<";
  static const char get[] = ">::get()";
  static const char get_of[] = "))>::get()";
  char value[512];
  used = 0;
  value[0] = '\0';
  int own_template = 0;
  (void)parameters(rw, start, brace, &own_template);
  if (kind == RESULT_DEDUCED) {
    append(value, sizeof value, &used, unset, sizeof unset - 1);
    append(value, sizeof value, &used, "decltype(", 9);
    for (size_t k = name; k < open; k++)
      append(value, sizeof value, &used, rw->text + rw->toks[k].offset,
             rw->toks[k].length);
    if (own_template &&
        !template_arguments(rw, start, open, value, sizeof value, &used))
      return CUEMU_SUCCESS; /* left to g++, which refuses it */
    append(value, sizeof value, &used, "(", 1);
    if (!parameter_types(rw, open, cuemu__rw_close(rw, open), "d", value,
                         sizeof value, &used))
      return CUEMU_SUCCESS;
    type = type_end = name; /* the call is the type */
  } else if (kind == RESULT_REFERENCE)
    append(value, sizeof value, &used, unset, sizeof unset - 1);
  else
    append(value, sizeof value, &used, " __typeof__(", 12);
  for (size_t k = type; k < type_end; k++) {
    /* A space where the source had one: `float &&` stays one token. */
    if (k > type &&
        rw->toks[k].offset != rw->toks[k - 1].offset + rw->toks[k - 1].length)
      append(value, sizeof value, &used, " ", 1);
    append(value, sizeof value, &used, rw->text + rw->toks[k].offset,
           rw->toks[k].length);
  }
  const char *tail = kind == RESULT_DEDUCED     ? get_of
                     : kind == RESULT_REFERENCE ? get
                                                : ")()";
  size_t tail_length = strlen(tail);
  append(value, sizeof value, &used, tail, tail_length);
  if (used < tail_length || strcmp(value + used - tail_length, tail) != 0)
    return CUEMU_SUCCESS; /* a return type too long to spell here */
  /* nvcc warns at a template's instances whose return type is not void,
   * naming the instance; cuemu does not know them, and gives none. */
  /* The host pass's stub of a function whose type is deduced keeps its
   * body (a stub cannot spell the type): it is edited there too. */
  int edit = rw->pass != CUEMU_PASS_HOST || kind == RESULT_DEDUCED;
  int warn = rw->pass != CUEMU_PASS_DEVICE && !templated;
  return cuemu__rw_bare_returns(rw, brace, close, value, edit, warn, function,
                                kind == RESULT_DEDUCED);
}
