/*
 * cuemu_call_parameters.c: how a call's callee takes one of its arguments,
 * by value or by reference, from the declarations of the callee's name that
 * the unit holds (system headers' and the shims' included).
 *
 * nvcc warns at a device variable passed to a host function's parameter
 * that takes its value (#20091-D, cuemu_host_variable_access.c), and not at
 * one bound to a reference parameter. The translation sees no types: it
 * finds every declaration of the callee's name whose parameters can take
 * the call's number of arguments, a C variadic `...` and a pack included,
 * and reads the parameter that the argument goes to. A parameter with `&`
 * (a forwarding reference too) takes a reference; one of a scalar type
 * (the arithmetic types as written, the C library's integer typedefs) or a
 * pointer takes a value, read whatever the argument is; one whose type is
 * a template parameter of the function (`T x`, `Ts... xs`, `auto x`), or a
 * C variadic argument, takes a copy of the argument, which nvcc counts as a
 * read for a scalar argument. A parameter of one other word's type (a
 * class, a typedef of the user's) takes an object of that type: nvcc
 * counts its copy as a read where the argument is the variable of that
 * class and the copy is the implicit, bitwise one (a class without bases
 * whose data members are scalars or pointers and which declares no
 * constructor from its own objects); any other parameter is unknown. An
 * overload set is judged only where every candidate with that number of
 * arguments agrees, so that the warning given is never wrong and one may be
 * missing.
 */
#include <string.h>

#include "cuemu_rewriter.h"

int cuemu__scalar_type_word(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {
      "bool",     "char",     "wchar_t",  "char8_t",  "char16_t",
      "char32_t", "short",    "int",      "long",     "signed",
      "unsigned", "float",    "double",   "size_t",   "ptrdiff_t",
      "int8_t",   "int16_t",  "int32_t",  "int64_t",  "uint8_t",
      "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t"};
  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
    if (cuemu__rw_is(rw, k, words[w]))
      return 1;
  return 0;
}

/* Whether identifier token k qualifies a type without naming it. */
static int qualifier_word(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {"const",        "volatile",  "register",
                                      "struct",       "class",     "typename",
                                      "__restrict__", "__restrict"};
  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
    if (cuemu__rw_is(rw, k, words[w]))
      return 1;
  return 0;
}

/* Whether token k is one of the words after which a name starts an
 * expression, not a declaration. */
static int expression_word(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {
      "return",   "case",   "throw",    "else",   "do", "co_return",
      "co_yield", "delete", "new",      "sizeof", "if", "while",
      "for",      "switch", "operator", "goto"};
  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
    if (cuemu__rw_is(rw, k, words[w]))
      return 1;
  return 0;
}

/* Whether identifier token k names a type parameter of the template
 * header that the declaration around token `name` starts with (`template
 * <class T, typename... Ts>`), searched back to the `;`, `{` or `}` before
 * the declaration. */
static int template_parameter(const cuemu_rewriter *rw, size_t name, size_t k) {
  size_t start = name;
  while (start > 0 && !cuemu__rw_is(rw, start - 1, ";") &&
         !cuemu__rw_is(rw, start - 1, "{") && !cuemu__rw_is(rw, start - 1, "}"))
    start--;
  for (size_t h = start; h < name; h++) {
    if (!cuemu__rw_is(rw, h, "template") || !cuemu__rw_is(rw, h + 1, "<"))
      continue;
    size_t close = cuemu__rw_template_close(rw, h + 1);
    if (close >= name)
      return 0;
    for (size_t p = h + 2; p < close; p++) {
      if (!cuemu__rw_is(rw, p, "class") && !cuemu__rw_is(rw, p, "typename"))
        continue;
      size_t q = p + 1;
      if (cuemu__rw_spells(rw, q, "..."))
        q += 3;
      if (q < close && rw->toks[q].length == rw->toks[k].length &&
          memcmp(rw->text + rw->toks[q].offset, rw->text + rw->toks[k].offset,
                 rw->toks[k].length) == 0)
        return 1;
    }
    h = close;
  }
  return 0;
}

/* One parameter, tokens [a, b) of a declaration of the name at token
 * `name`, its default argument cut off: how it takes an argument; *pack is
 * set where it is a pack or C's `...`. */
static cuemu_passing parameter_passing(const cuemu_rewriter *rw, size_t name,
                                       size_t a, size_t b, int *pack,
                                       size_t *object) {
  *pack = 0;
  if (b == a + 3 && cuemu__rw_spells(rw, a, "..."))
    return (*pack = 1, CUEMU_PASSED_COPY);
  size_t words[8], count = 0;
  int pointer = 0;
  for (size_t k = a; k < b; k++) {
    if (cuemu__rw_is(rw, k, "&"))
      return CUEMU_PASSED_REFERENCE;
    if (cuemu__rw_is(rw, k, "*"))
      pointer = 1;
    else if (cuemu__rw_spells(rw, k, "...")) {
      *pack = 1;
      k += 2;
    } else if (cuemu__rw_is(rw, k, "<")) {
      size_t close = cuemu__rw_template_close(rw, k);
      if (close >= b)
        return CUEMU_PASSED_UNKNOWN;
      k = close;
      count = sizeof words; /* a class template's type */
    } else if (cuemu__rw_ident(rw, k)) {
      if (qualifier_word(rw, k) || cuemu__rw_is(rw, k + 1, "::"))
        continue;
      if (count < sizeof words / sizeof words[0])
        words[count++] = k;
      else
        count = sizeof words;
    } else if (!cuemu__rw_is(rw, k, "::"))
      return CUEMU_PASSED_UNKNOWN; /* an array, a function, an operator */
  }
  if (pointer)
    return CUEMU_PASSED_VALUE;
  if (count == 0 || count > sizeof words / sizeof words[0])
    return CUEMU_PASSED_UNKNOWN;
  /* The type's words and the parameter's name, if it has one. */
  size_t type_words = count;
  int all_scalar = 1;
  for (size_t w = 0; w < count; w++)
    all_scalar &= cuemu__scalar_type_word(rw, words[w]);
  if (all_scalar)
    return CUEMU_PASSED_VALUE;
  if (count > 1)
    type_words = count - 1;
  all_scalar = 1;
  for (size_t w = 0; w < type_words; w++)
    all_scalar &= cuemu__scalar_type_word(rw, words[w]);
  if (all_scalar)
    return CUEMU_PASSED_VALUE;
  if (type_words == 1 && (cuemu__rw_is(rw, words[0], "auto") ||
                          template_parameter(rw, name, words[0])))
    return CUEMU_PASSED_COPY;
  if (type_words == 1 && !*pack) {
    *object = words[0]; /* a class's object, or a typedef's */
    return CUEMU_PASSED_OBJECT;
  }
  return CUEMU_PASSED_UNKNOWN;
}

/* Whether the parameter tokens [a, b) could be a declaration's: an empty
 * list's, or tokens of a type and a name (identifiers, `::`, `*`, `&`,
 * `...` and template arguments), of which a single one must be a type's
 * word unless `typed` (the name follows a type, as in `int f(`). */
static int declarative(const cuemu_rewriter *rw, size_t a, size_t b,
                       int typed) {
  if (a == b)
    return 1;
  if (!cuemu__rw_ident(rw, a) && !cuemu__rw_is(rw, a, "::") &&
      !cuemu__rw_spells(rw, a, "..."))
    return 0;
  for (size_t k = a; k < b; k++) {
    if (cuemu__rw_is(rw, k, "<")) {
      size_t close = cuemu__rw_template_close(rw, k);
      if (close >= b)
        return 0;
      k = close;
    } else if (cuemu__rw_spells(rw, k, "..."))
      k += 2;
    else if (!cuemu__rw_ident(rw, k) && !cuemu__rw_is(rw, k, "::") &&
             !cuemu__rw_is(rw, k, "*") && !cuemu__rw_is(rw, k, "&") &&
             !cuemu__rw_spells(rw, k, "...") && !cuemu__rw_is(rw, k, "[") &&
             !cuemu__rw_is(rw, k, "]") && !cuemu__rw_is(rw, k, "(") &&
             !cuemu__rw_is(rw, k, ")"))
      return 0;
    else if (cuemu__rw_ident(rw, k) && expression_word(rw, k))
      return 0;
  }
  return typed || b > a + 1 || cuemu__scalar_type_word(rw, a) ||
         cuemu__rw_is(rw, a, "void");
}

/* How the declaration of the name at token k, if it is one with its
 * parameters' `(` at k + 1, takes argument `index` of `count`; UNKNOWN
 * where it is none or cannot take them, NONE where it is no declaration
 * or cannot take that many arguments. */
#define CUEMU_PASSED_NONE ((cuemu_passing)-1)
static cuemu_passing declaration_passing(const cuemu_rewriter *rw, size_t k,
                                         size_t index, size_t count,
                                         size_t *object) {
  size_t close = cuemu__rw_close(rw, k + 1);
  if (close >= rw->n)
    return CUEMU_PASSED_NONE;
  /* What comes before the name, past its qualification (`Meter::read`). */
  size_t q = k;
  while (q >= 2 && cuemu__rw_is(rw, q - 1, "::") && cuemu__rw_ident(rw, q - 2))
    q -= 2;
  if (q == 0)
    return CUEMU_PASSED_NONE;
  size_t p = q - 1;
  int typed;
  if (cuemu__rw_ident(rw, p))
    typed = !expression_word(rw, p);
  else if (cuemu__rw_is(rw, p, "*") || cuemu__rw_is(rw, p, "&") ||
           cuemu__rw_is(rw, p, ">"))
    typed = 1;
  else if (cuemu__rw_is(rw, p, "{") || cuemu__rw_is(rw, p, ";") ||
           cuemu__rw_is(rw, p, "}") || cuemu__rw_is(rw, p, ":"))
    typed = 0; /* a constructor */
  else
    return CUEMU_PASSED_NONE;
  if (cuemu__rw_ident(rw, p) && expression_word(rw, p))
    return CUEMU_PASSED_NONE;
  if (p > 0 && (cuemu__rw_is(rw, p - 1, ".") || cuemu__rw_is(rw, p - 1, "->")))
    return CUEMU_PASSED_NONE;
  /* After the list: what ends or continues a declaration. */
  size_t after = close + 1;
  if (after >= rw->n ||
      !(cuemu__rw_is(rw, after, "{") || cuemu__rw_is(rw, after, ";") ||
        cuemu__rw_is(rw, after, "const") ||
        cuemu__rw_is(rw, after, "noexcept") ||
        cuemu__rw_is(rw, after, "override") ||
        cuemu__rw_is(rw, after, "final") || cuemu__rw_is(rw, after, "throw") ||
        cuemu__rw_is(rw, after, "=") || cuemu__rw_is(rw, after, ":") ||
        cuemu__rw_is(rw, after, "->") ||
        cuemu__rw_is(rw, after, "__attribute__") ||
        cuemu__rw_is(rw, after, "&") || cuemu__rw_is(rw, after, "volatile")))
    return CUEMU_PASSED_NONE;
  /* The parameters, each cut at its default argument. */
  size_t params = 0, required = 0;
  int variadic = 0;
  cuemu_passing found = CUEMU_PASSED_NONE;
  size_t a = k + 2;
  if (close == a + 1 && cuemu__rw_is(rw, a, "void"))
    a = close;
  while (a < close) {
    size_t b = a, cut = (size_t)-1;
    while (b < close && !cuemu__rw_is(rw, b, ",")) {
      if (cuemu__rw_is(rw, b, "=") && cut == (size_t)-1)
        cut = b;
      if (cuemu__rw_is(rw, b, "(") || cuemu__rw_is(rw, b, "[") ||
          cuemu__rw_is(rw, b, "{"))
        b = cuemu__rw_close(rw, b);
      else if (cuemu__rw_is(rw, b, "<") && cut == (size_t)-1) {
        size_t end = cuemu__rw_template_close(rw, b);
        if (end >= close)
          return CUEMU_PASSED_NONE;
        b = end;
      }
      if (b >= close)
        break;
      b++;
    }
    size_t end = cut != (size_t)-1 ? cut : b;
    if (!declarative(rw, a, end, typed))
      return CUEMU_PASSED_NONE;
    int pack;
    size_t type = rw->n;
    cuemu_passing passing = parameter_passing(rw, k, a, end, &pack, &type);
    if (pack)
      variadic = 1;
    else if (cut == (size_t)-1)
      required = params + 1;
    if (params == index || (pack && index >= params)) {
      found = passing;
      *object = type;
    }
    params++;
    a = b + 1;
  }
  if (count < required || (count > params && !variadic))
    return CUEMU_PASSED_NONE;
  return found == CUEMU_PASSED_NONE ? CUEMU_PASSED_UNKNOWN : found;
}

/* The `{` of the class body that declares the function named at token k,
 * or rw->n for a function of a namespace (or a local declaration). */
static size_t class_body_of(const cuemu_rewriter *rw, size_t k) {
  long depth = 0;
  while (k-- > 0) {
    if (cuemu__rw_is(rw, k, "}"))
      depth++;
    else if (cuemu__rw_is(rw, k, "{") && depth-- == 0)
      break;
  }
  if (k == (size_t)-1)
    return rw->n;
  /* The head before it: `struct`, `class` or `union` outside its
   * parentheses and template arguments. */
  long parens = 0, angles = 0;
  for (size_t p = k; p > 0; p--) {
    if (cuemu__rw_is(rw, p - 1, ";") || cuemu__rw_is(rw, p - 1, "{") ||
        cuemu__rw_is(rw, p - 1, "}"))
      return rw->n;
    if (cuemu__rw_is(rw, p - 1, ")"))
      parens++;
    else if (cuemu__rw_is(rw, p - 1, "("))
      parens--;
    else if (cuemu__rw_is(rw, p - 1, ">"))
      angles++;
    else if (cuemu__rw_is(rw, p - 1, "<"))
      angles--;
    else if (parens == 0 && angles == 0 &&
             (cuemu__rw_is(rw, p - 1, "struct") ||
              cuemu__rw_is(rw, p - 1, "class") ||
              cuemu__rw_is(rw, p - 1, "union")))
      return p > 1 && cuemu__rw_is(rw, p - 2, "enum") ? rw->n : k;
  }
  return rw->n;
}

cuemu_passing cuemu__call_passing(const cuemu_rewriter *rw, size_t open,
                                  size_t index, size_t *object) {
  *object = rw->n;
  if (open == 0)
    return CUEMU_PASSED_UNKNOWN;
  size_t callee = open - 1;
  if (cuemu__rw_is(rw, callee, ">")) {
    /* `f<T>(...)`: the name before its template arguments. */
    long depth = 0;
    size_t k = callee + 1;
    while (k-- > 0) {
      if (cuemu__rw_is(rw, k, ">"))
        depth++;
      else if (cuemu__rw_is(rw, k, "<") && --depth == 0)
        break;
      else if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{"))
        return CUEMU_PASSED_UNKNOWN;
    }
    if (k == (size_t)-1 || k == 0)
      return CUEMU_PASSED_UNKNOWN;
    callee = k - 1;
  }
  if (!cuemu__rw_ident(rw, callee))
    return CUEMU_PASSED_UNKNOWN;
  /* `int x(hits)`: a scalar variable's direct initialization. */
  if (callee > 0 && cuemu__scalar_type_word(rw, callee - 1))
    return CUEMU_PASSED_VALUE;
  size_t close = cuemu__rw_close(rw, open), count = 1;
  if (close >= rw->n)
    return CUEMU_PASSED_UNKNOWN;
  for (size_t k = open + 1; k < close; k++)
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{"))
      k = cuemu__rw_close(rw, k);
    else if (cuemu__rw_is(rw, k, ","))
      count++;
  /* Every declaration of the name that the call may reach: a class's
   * member for a call through `.` or `->`; else a namespace's function, or
   * a member of a class whose body holds the call. All must agree. */
  int through_object = callee > 0 && (cuemu__rw_is(rw, callee - 1, ".") ||
                                      cuemu__rw_is(rw, callee - 1, "->"));
  const cuemu_token *c = &rw->toks[callee];
  cuemu_passing agreed = CUEMU_PASSED_NONE;
  for (size_t k = 0; k + 1 < rw->n; k++) {
    const cuemu_token *t = &rw->toks[k];
    if (k == callee || t->kind != CUEMU_TOKEN_IDENT || t->length != c->length ||
        memcmp(rw->text + t->offset, rw->text + c->offset, c->length) != 0 ||
        !cuemu__rw_is(rw, k + 1, "("))
      continue;
    size_t type = rw->n;
    cuemu_passing passing = declaration_passing(rw, k, index, count, &type);
    if (passing == CUEMU_PASSED_NONE)
      continue;
    size_t body = class_body_of(rw, k);
    if (through_object ? body >= rw->n
                       : body < rw->n &&
                             !(body < open && cuemu__rw_close(rw, body) > open))
      continue;
    if (passing == CUEMU_PASSED_UNKNOWN || passing == CUEMU_PASSED_REFERENCE)
      return passing;
    if (passing == CUEMU_PASSED_OBJECT || agreed == CUEMU_PASSED_OBJECT) {
      /* Objects of one class alone: its name. */
      if ((agreed != CUEMU_PASSED_NONE && agreed != passing) ||
          (*object < rw->n && !cuemu__rw_same(rw, *object, type)))
        return CUEMU_PASSED_UNKNOWN;
      *object = type;
    }
    if (agreed == CUEMU_PASSED_NONE || agreed == CUEMU_PASSED_VALUE)
      agreed = passing; /* a copy's warning needs a scalar argument */
  }
  return agreed == CUEMU_PASSED_NONE ? CUEMU_PASSED_UNKNOWN : agreed;
}

int cuemu__trivially_copied(const cuemu_rewriter *rw, size_t name) {
  for (size_t c = 1; c + 1 < rw->n; c++) {
    if (!(cuemu__rw_is(rw, c - 1, "struct") ||
          cuemu__rw_is(rw, c - 1, "class")) ||
        c == name || !cuemu__rw_same(rw, c, name) ||
        !cuemu__rw_is(rw, c + 1, "{"))
      continue; /* not its definition, or one with bases */
    size_t close = cuemu__rw_close(rw, c + 1);
    if (close >= rw->n)
      return 0;
    /* Each member: a data member of scalar words or a pointer, or a
     * function that is not a constructor taking the class's object. */
    size_t member = c + 2;
    for (size_t k = c + 2; k < close; k++) {
      if (cuemu__rw_is(rw, k, "virtual") || cuemu__rw_is(rw, k, "union") ||
          cuemu__rw_is(rw, k, "struct") || cuemu__rw_is(rw, k, "class"))
        return 0;
      if (cuemu__rw_is(rw, k, "(")) {
        /* A function: a constructor that names the class in its
         * parameters is a copy or move constructor of the user's. */
        size_t end = cuemu__rw_close(rw, k);
        if (end >= close)
          return 0;
        if (k > 0 && cuemu__rw_ident(rw, k - 1) &&
            cuemu__rw_same(rw, k - 1, c) && !cuemu__rw_is(rw, k - 2, "~"))
          for (size_t p = k + 1; p < end; p++)
            if (cuemu__rw_ident(rw, p) && cuemu__rw_same(rw, p, c))
              return 0;
        /* Past its body or its `;`. */
        size_t j = end + 1;
        while (j < close && !cuemu__rw_is(rw, j, ";") &&
               !cuemu__rw_is(rw, j, "{"))
          j++;
        k = cuemu__rw_is(rw, j, "{") ? cuemu__rw_close(rw, j) : j;
        member = k + 1;
        continue;
      }
      if (cuemu__rw_is(rw, k, ":") && k > member) {
        member = k + 1; /* `public:` */
        continue;
      }
      if (cuemu__rw_is(rw, k, ";")) {
        /* A data member: its type's first word. */
        size_t w = member;
        while (w < k && (cuemu__rw_is(rw, w, "const") ||
                         cuemu__rw_is(rw, w, "volatile") ||
                         cuemu__rw_is(rw, w, "mutable")))
          w++;
        int pointer = 0;
        for (size_t p = w; p < k; p++)
          pointer |= cuemu__rw_is(rw, p, "*");
        if (w < k && !cuemu__rw_is(rw, w, "static") &&
            !cuemu__rw_is(rw, w, "using") && !cuemu__rw_is(rw, w, "typedef") &&
            !cuemu__rw_is(rw, w, "friend") && !pointer &&
            !cuemu__scalar_type_word(rw, w))
          return 0;
        member = k + 1;
      }
    }
    return 1;
  }
  return 0;
}
