/*
 * cuemu_implicit_typename.c: the `typename` that nvcc does not ask for.
 *
 * nvcc 13 accepts, in C++17 and C++14, an out-of-line definition of a class
 * template's member whose return type names a member type of the dependent
 * class without `typename`:
 *
 *   template <typename T> Pool<T>::FreeMap &Pool<T>::lists() { ... }
 *
 * (its front end looks the name up in the class being defined, the current
 * instantiation, as C++20's P0634 allows; LULESH's CUDA allocator is
 * written so). It refuses the same name before another function's name
 * (`template <class T> std::vector<T>::size_type count(...)`: "use the
 * typename keyword"). g++ -std=c++17 refuses both ("need 'typename' before
 * 'Pool<T>::FreeMap' because 'Pool<T>' is a dependent scope"), and so does
 * clang++ 14 in every dialect. So where a namespace-scope template
 * declaration's type starts with such a name, `typename` is inserted
 * before it: after `template <...>` and any specifiers, a template-id
 * (namespace-qualified or not) whose arguments name one of the template's
 * parameters, then `::` and a member name, then a declarator (after `*`,
 * `&`, `&&`, cv-qualifiers) that names a member of a class template of the
 * same name. A member template's own header may follow the class
 * template's (`template <class K> template <class Tile> __device__
 * Map<K>::value_type Map<K>::find(...)`, as BGHT's tables are written).
 * A constructor (`Pool<T>::Pool(`), a conversion function, a member
 * template (`::template`, `::M<`) or a longer qualified name is left
 * alone; so are declarations inside a class or a function (nvcc also takes
 * `Pool<T>::Size n = 0;` in a member's body).
 *
 * nvcc also takes a default template argument written as an elaborated
 * type of a dependent member, `template <class T, class = class
 * std::enable_if<std::is_integral<T>::value>::type>` (a public matrix
 * inverse, trial pub26), as `typename`; g++ and clang++ refuse it (the
 * member is void, no class). There the `class` or `struct` becomes
 * `typename`.
 * Tests: tests/programs/dialect/implicit_typename.cu,
 * dependent_template_name.cu, elaborated_default_argument.cu.
 */
#include <string.h>

#include "cuemu_rewriter.h"

/* Whether tokens a and b are spelled alike. */
static int same_spelling(const cuemu_rewriter *rw, size_t a, size_t b) {
  const cuemu_token *x = &rw->toks[a], *y = &rw->toks[b];
  return x->length == y->length &&
         memcmp(rw->text + x->offset, rw->text + y->offset, x->length) == 0;
}

/* Whether an identifier of tokens (from, to) is one of the names that the
 * template parameter list (popen, pclose) declares: an identifier followed
 * by `,`, `>` or `=` there. */
static int names_parameter(const cuemu_rewriter *rw, size_t popen,
                           size_t pclose, size_t from, size_t to) {
  for (size_t k = from + 1; k < to; ++k) {
    if (!cuemu__rw_ident(rw, k))
      continue;
    for (size_t p = popen + 1; p < pclose; ++p)
      if (cuemu__rw_ident(rw, p) &&
          (cuemu__rw_is(rw, p + 1, ",") || cuemu__rw_is(rw, p + 1, ">") ||
           cuemu__rw_is(rw, p + 1, "=")) &&
          same_spelling(rw, p, k))
        return 1;
  }
  return 0;
}

/* The first token after the namespace qualifiers (`a::b::`) that start at
 * token k: the token of a name that `<` or anything but `::` follows. */
static size_t qualifier_end(const cuemu_rewriter *rw, size_t k) {
  while (k + 2 < rw->n && cuemu__rw_ident(rw, k) &&
         cuemu__rw_is(rw, k + 1, "::") && cuemu__rw_ident(rw, k + 2))
    k += 2;
  return k;
}

/* Whether token k is a specifier that may come before the type. */
static int leading_specifier(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {
      "inline", "static",     "constexpr", "const",           "volatile",
      "extern", "__host__",   "__device__", "__forceinline__", "__inline__",
      "virtual", "explicit", NULL};
  for (const char *const *w = words; *w; ++w)
    if (cuemu__rw_is(rw, k, *w))
      return 1;
  return 0;
}

/* The default template arguments of the list (popen, pclose) written as
 * `= class|struct [::]ns::Name<args>::member` with args naming one of the
 * list's parameters: the keyword becomes `typename`. */
static cuemu_status elaborated_defaults(cuemu_rewriter *rw, size_t popen,
                                        size_t pclose) {
  for (size_t k = popen + 1; k + 1 < pclose; ++k) {
    if (!cuemu__rw_is(rw, k, "=") || !(cuemu__rw_is(rw, k + 1, "class") ||
                                       cuemu__rw_is(rw, k + 1, "struct")))
      continue;
    size_t name = k + 2;
    if (cuemu__rw_is(rw, name, "::"))
      ++name;
    name = qualifier_end(rw, name);
    if (name + 4 >= pclose || !cuemu__rw_ident(rw, name) ||
        !cuemu__rw_is(rw, name + 1, "<"))
      continue;
    size_t aclose = cuemu__rw_template_close(rw, name + 1);
    if (aclose + 2 >= pclose || !cuemu__rw_is(rw, aclose + 1, "::") ||
        !cuemu__rw_ident(rw, aclose + 2) ||
        !names_parameter(rw, popen, pclose, name + 1, aclose))
      continue;
    static const char word[] = "typename";
    const cuemu_token *key = &rw->toks[k + 1];
    cuemu_status st =
        cuemu__rw_edit(rw, key->offset, key->length, word, sizeof word - 1);
    if (st != CUEMU_SUCCESS)
      return st;
  }
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__implicit_typename(cuemu_rewriter *rw, size_t i) {
  if (!cuemu__rw_is(rw, i, "template") || !cuemu__rw_is(rw, i + 1, "<"))
    return CUEMU_SUCCESS;
  size_t pclose = cuemu__rw_template_close(rw, i + 1);
  if (pclose >= rw->n || pclose == i + 2)
    return CUEMU_SUCCESS; /* no list, or an explicit specialization */
  cuemu_status st = elaborated_defaults(rw, i + 1, pclose);
  if (st != CUEMU_SUCCESS)
    return st;
  size_t k = pclose + 1;
  while (k < rw->n) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k)
      k = after;
    else if (leading_specifier(rw, k))
      ++k;
    else if (cuemu__rw_is(rw, k, "template") && cuemu__rw_is(rw, k + 1, "<")) {
      /* A member template of the class template: its own header. */
      size_t close = cuemu__rw_template_close(rw, k + 1);
      if (close >= rw->n)
        return CUEMU_SUCCESS;
      k = close + 1;
    } else
      break;
  }
  /* [ns::]Class<args>::member */
  size_t type = k;
  if (cuemu__rw_is(rw, k, "typename"))
    return CUEMU_SUCCESS;
  if (cuemu__rw_is(rw, k, "::"))
    ++k;
  k = qualifier_end(rw, k);
  if (k + 5 >= rw->n || !cuemu__rw_ident(rw, k) ||
      !cuemu__rw_is(rw, k + 1, "<"))
    return CUEMU_SUCCESS;
  size_t aclose = cuemu__rw_template_close(rw, k + 1);
  if (aclose + 3 >= rw->n || !cuemu__rw_is(rw, aclose + 1, "::") ||
      !cuemu__rw_ident(rw, aclose + 2))
    return CUEMU_SUCCESS;
  size_t member = aclose + 2, d = member + 1;
  if (cuemu__rw_is(rw, member, "operator") ||
      cuemu__rw_is(rw, member, "template"))
    return CUEMU_SUCCESS;
  /* The declarator: [ns::]Class<...>::name, Class spelled as above. */
  while (d < rw->n &&
         (cuemu__rw_is(rw, d, "*") || cuemu__rw_is(rw, d, "&") ||
          cuemu__rw_is(rw, d, "&&") || cuemu__rw_is(rw, d, "const") ||
          cuemu__rw_is(rw, d, "volatile")))
    ++d;
  if (cuemu__rw_is(rw, d, "::"))
    ++d;
  d = qualifier_end(rw, d);
  if (d + 2 >= rw->n || !cuemu__rw_ident(rw, d) || !same_spelling(rw, d, k) ||
      !cuemu__rw_is(rw, d + 1, "<"))
    return CUEMU_SUCCESS;
  size_t dclose = cuemu__rw_template_close(rw, d + 1);
  if (dclose + 1 >= rw->n || !cuemu__rw_is(rw, dclose + 1, "::"))
    return CUEMU_SUCCESS;
  if (!names_parameter(rw, i + 1, pclose, k + 1, aclose))
    return CUEMU_SUCCESS; /* not dependent: no `typename` is needed */
  static const char word[] = "typename ";
  return cuemu__rw_edit(rw, rw->toks[type].offset, 0, word, sizeof word - 1);
}
