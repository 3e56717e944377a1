/*
 * cuemu_host_variable_access.c: nvcc's warnings #20091-D and #20092-D,
 * where host code reads or writes a __device__ or __constant__ variable by
 * name.
 *
 * Host code that names a device variable reaches the host's shadow of it,
 * not the GPU's memory, and nvcc 13.0 says so at each direct read ("a
 * __device__ variable "hits" cannot be directly read in a host function",
 * #20091-D) and each direct write ("... cannot be directly written ...",
 * #20092-D; a compound assignment or an increment gives both, the read
 * first), "__constant__" for a constant variable, the name qualified by its
 * namespaces. It gives none where the host code takes the variable's
 * address (`&hits`, a reference bound to it, an argument of a reference
 * parameter: cudaMemcpyToSymbol(hits, ...)), names it in sizeof or
 * decltype, or names a __managed__ variable.
 *
 * The translation's host pass (and the single pass) records the
 * namespace-scope __device__ and __constant__ variables of the unit as
 * their declarations go by (cuemu_space_notes.c), and judges each name of
 * one in the body of a namespace-scope host function of the user's code,
 * or of a host member function defined in a class at namespace scope or
 * in a class nested in one (a lambda and a local class in it too, up to a
 * __device__ lambda): followed by `=`, a
 * write; by a compound assignment or `++`/`--` (or after `++`/`--`), a
 * read and a write; after a unary `&`, in sizeof, decltype, alignof or
 * typeid, bound to a reference (`int &r = hits;`), an array without an
 * element, nothing; an argument of a call, as the callee's parameter takes
 * it (cuemu_call_parameters.c): a read where it takes the value (a scalar
 * or a pointer; a template's parameter by value, printf's and a C
 * variadic function's arguments, for a scalar variable or element; a
 * parameter of the variable's class, copied bitwise), nothing where it
 * takes a reference or cannot be told; otherwise a read.
 * A variable template's instance (`scale<int>`) is judged as a variable,
 * named with its template arguments as written, but for `unsigned` alone,
 * which nvcc shows as `unsigned int`. Element and member accesses
 * (`weights[1] = x`, `params.n = 3`) count as the variable's. A parameter
 * or a local declaration of the same name hides the variable for the rest
 * of the body. A write's warning comes after those of the reads of its
 * expression, as nvcc gives them (`hits = hits + 1`: the read first). A
 * template's body (a function template's, a class template's member's) is
 * judged as nvcc judges it where it is defined: a use whose statement
 * names a template parameter, a name declared with one (or declared `auto`
 * from one) or `this`, and the
 * whole operand of a return, are left to the instances, where nvcc gives
 * no warning. Not judged: const and constexpr variables (whose reads nvcc
 * folds, without a warning).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_rewriter.h"

/* Whether the variable named by token `name` is a constant (`constexpr`,
 * or `const` after its declaration's last `*`), whose reads nvcc folds. */
static int constant_value(const cuemu_rewriter *rw, size_t name) {
  for (size_t k = name; k > 0; k--) {
    size_t p = k - 1;
    if (cuemu__rw_is(rw, p, ";") || cuemu__rw_is(rw, p, "{") ||
        cuemu__rw_is(rw, p, "}") || cuemu__rw_is(rw, p, "*"))
      return 0;
    if (cuemu__rw_is(rw, p, "const") || cuemu__rw_is(rw, p, "constexpr"))
      return 1;
  }
  return 0;
}

/* Whether the variable named by token `name` has a scalar type: only the
 * words of one (and of its specifiers) before its name, or a pointer. */
static int scalar_variable(const cuemu_rewriter *rw, size_t name) {
  static const char *const specifiers[] = {
      "const",      "volatile",     "static",      "extern",   "inline",
      "__device__", "__constant__", "__managed__", "constexpr"};
  int words = 0;
  for (size_t k = name; k > 0; k--) {
    size_t p = k - 1;
    if (cuemu__rw_is(rw, p, ";") || cuemu__rw_is(rw, p, "{") ||
        cuemu__rw_is(rw, p, "}") || cuemu__rw_is(rw, p, ">"))
      return words;
    if (cuemu__rw_is(rw, p, "*"))
      return 1;
    if (!cuemu__rw_ident(rw, p))
      return 0;
    int specifier = 0;
    for (size_t s = 0; s < sizeof specifiers / sizeof specifiers[0]; s++)
      specifier |= cuemu__rw_is(rw, p, specifiers[s]);
    if (!specifier && !cuemu__scalar_type_word(rw, p))
      return 0;
    words |= !specifier;
  }
  return words;
}

/* The token of the type of the variable named by token `name` where that
 * is a single name of a class (or a typedef), else (size_t)-1. */
static size_t class_type(const cuemu_rewriter *rw, size_t name) {
  size_t type = (size_t)-1;
  for (size_t k = name; k > 0; k--) {
    size_t p = k - 1;
    if (cuemu__rw_is(rw, p, ";") || cuemu__rw_is(rw, p, "{") ||
        cuemu__rw_is(rw, p, "}"))
      break;
    if (!cuemu__rw_ident(rw, p) || cuemu__scalar_type_word(rw, p))
      return (size_t)-1;
    if (cuemu__rw_is(rw, p, "static") || cuemu__rw_is(rw, p, "extern") ||
        cuemu__rw_is(rw, p, "inline") || cuemu__rw_is(rw, p, "__device__") ||
        cuemu__rw_is(rw, p, "__constant__") || cuemu__rw_is(rw, p, "volatile"))
      continue;
    if (type != (size_t)-1 || cuemu__rw_is(rw, p, "const") ||
        cuemu__rw_is(rw, p, "template"))
      return (size_t)-1;
    type = p;
  }
  return type;
}

/* Whether the declaration of the variable named by token `name` starts
 * with a template header (a variable template). */
static int template_variable(const cuemu_rewriter *rw, size_t name) {
  for (size_t k = name; k > 0; k--) {
    size_t p = k - 1;
    if (cuemu__rw_is(rw, p, ";") || cuemu__rw_is(rw, p, "{") ||
        cuemu__rw_is(rw, p, "}"))
      return 0;
    if (cuemu__rw_is(rw, p, "template"))
      return 1;
  }
  return 0;
}

cuemu_status cuemu__host_variable_record(cuemu_rewriter *rw, size_t name,
                                         const char *ns) {
  if (constant_value(rw, name))
    return CUEMU_SUCCESS;
  if (rw->host_var_count == rw->host_var_capacity) {
    size_t cap = rw->host_var_capacity ? 2 * rw->host_var_capacity : 16;
    cuemu_host_variable *grown = realloc(rw->host_vars, cap * sizeof *grown);
    if (!grown)
      return CUEMU_OUT_OF_MEMORY;
    rw->host_vars = grown;
    rw->host_var_capacity = cap;
  }
  /* ns is "c" (a __constant__ variable) or "d", the namespace as names
   * are looked up in it ("a::b", without unnamed namespaces), a NUL, and
   * the namespace as nvcc writes it ("a::<unnamed>::b"). */
  const char *lookup = ns + 1, *shown = lookup + strlen(lookup) + 1;
  size_t ns_length = strlen(lookup), shown_length = strlen(shown),
         length = rw->toks[name].length;
  char *full = malloc(ns_length + length + 3);
  char *display = malloc(shown_length + length + 3);
  if (!full || !display) {
    free(full);
    free(display);
    return CUEMU_OUT_OF_MEMORY;
  }
  size_t at = 0, shown_at = 0;
  if (ns_length) {
    memcpy(full, lookup, ns_length);
    memcpy(full + ns_length, "::", 2);
    at = ns_length + 2;
  }
  if (shown_length) {
    memcpy(display, shown, shown_length);
    memcpy(display + shown_length, "::", 2);
    shown_at = shown_length + 2;
  }
  memcpy(full + at, rw->text + rw->toks[name].offset, length);
  full[at + length] = '\0';
  memcpy(display + shown_at, rw->text + rw->toks[name].offset, length);
  display[shown_at + length] = '\0';
  cuemu_host_variable *v = &rw->host_vars[rw->host_var_count++];
  v->name = full;
  v->display = display;
  v->bare = at;
  v->constant = ns[0] == 'c';
  v->array = cuemu__rw_is(rw, name + 1, "[");
  v->hidden = 0;
  v->scalar = scalar_variable(rw, name);
  v->templated = template_variable(rw, name);
  v->type = class_type(rw, name);
  return CUEMU_SUCCESS;
}

void cuemu__host_variables_free(cuemu_rewriter *rw) {
  for (size_t v = 0; v < rw->host_var_count; v++) {
    free(rw->host_vars[v].name);
    free(rw->host_vars[v].display);
  }
  free(rw->host_vars);
  free(rw->host_scope);
  free(rw->host_dependent);
  rw->host_vars = NULL;
  rw->host_scope = NULL;
  rw->host_dependent = NULL;
  rw->host_dependent_count = rw->host_dependent_capacity = 0;
  rw->host_var_count = rw->host_var_capacity = 0;
}

/* The variable that identifier token i names, qualified by the tokens
 * before it (`grid::cells`) or found from the body's namespace, or NULL;
 * *first is set to the first token of the name. */
static cuemu_host_variable *named(const cuemu_rewriter *rw, size_t i,
                                  size_t *first) {
  const cuemu_token *t = &rw->toks[i];
  size_t q = i;
  while (q >= 2 && cuemu__rw_is(rw, q - 1, "::") && cuemu__rw_ident(rw, q - 2))
    q -= 2;
  int global = q >= 1 && cuemu__rw_is(rw, q - 1, "::");
  *first = global ? q - 1 : q;
  if (*first > 0 && (cuemu__rw_is(rw, *first - 1, ".") ||
                     cuemu__rw_is(rw, *first - 1, "->") ||
                     cuemu__rw_is(rw, *first - 1, "::")))
    return NULL; /* a member's name */
  /* The qualification as written, "a::b" ("" for none). */
  char written[256];
  size_t used = 0;
  for (size_t k = q; k < i; k++) {
    size_t n = rw->toks[k].length;
    if (used + n + 1 > sizeof written)
      return NULL;
    memcpy(written + used, rw->text + rw->toks[k].offset, n);
    used += n;
  }
  if (used >= 2)
    used -= 2; /* the last `::` */
  const char *scope = rw->host_scope ? rw->host_scope : "";
  size_t scope_length = strlen(scope);
  for (size_t v = 0; v < rw->host_var_count; v++) {
    cuemu_host_variable *var = &rw->host_vars[v];
    const char *bare = var->name + var->bare;
    if (strlen(bare) != t->length ||
        memcmp(bare, rw->text + t->offset, t->length) != 0)
      continue;
    size_t ns_length = var->bare ? var->bare - 2 : 0;
    if (q < i) {
      /* Qualified: the namespace as written, or its tail seen from the
       * body's namespace (`b::v` in namespace a for a::b::v). */
      if (used == ns_length && memcmp(var->name, written, used) == 0)
        return var;
      if (!global && used < ns_length &&
          var->name[ns_length - used - 1] == ':' &&
          memcmp(var->name + ns_length - used, written, used) == 0 &&
          scope_length >= ns_length - used - 2 &&
          memcmp(scope, var->name, ns_length - used - 2) == 0)
        return var;
      continue;
    }
    /* Unqualified: a variable of the body's namespace or one around it. */
    if (ns_length == 0 ||
        (scope_length >= ns_length &&
         memcmp(scope, var->name, ns_length) == 0 &&
         (scope[ns_length] == '\0' || scope[ns_length] == ':')))
      return var;
  }
  return NULL;
}

/* Hides the variables named as identifier token i. */
static void hide(cuemu_rewriter *rw, size_t i) {
  const cuemu_token *t = &rw->toks[i];
  for (size_t v = 0; v < rw->host_var_count; v++) {
    const char *bare = rw->host_vars[v].name + rw->host_vars[v].bare;
    if (strlen(bare) == t->length &&
        memcmp(bare, rw->text + t->offset, t->length) == 0)
      rw->host_vars[v].hidden = 1;
  }
}

static cuemu_status add_dependent(cuemu_rewriter *rw, size_t k) {
  if (rw->host_dependent_count == rw->host_dependent_capacity) {
    size_t cap =
        rw->host_dependent_capacity ? 2 * rw->host_dependent_capacity : 16;
    size_t *grown = realloc(rw->host_dependent, cap * sizeof *grown);
    if (!grown)
      return CUEMU_OUT_OF_MEMORY;
    rw->host_dependent = grown;
    rw->host_dependent_capacity = cap;
  }
  rw->host_dependent[rw->host_dependent_count++] = k;
  return CUEMU_SUCCESS;
}

/* Whether identifier token k names what the template's parameters decide
 * (one of them, or what is declared with one), in the body judged. */
static int dependent(const cuemu_rewriter *rw, size_t k) {
  for (size_t d = 0; d < rw->host_dependent_count; d++)
    if (cuemu__rw_same(rw, k, rw->host_dependent[d]))
      return 1;
  return 0;
}

/* The parameters of the template heads from token `from` to `brace` (the
 * body's `{`), and the names that the template's text to the body's end
 * declares with one of them (`T t`, `std::vector<T> v`, a class
 * template's member `T value;`). */
static cuemu_status template_dependents(cuemu_rewriter *rw, size_t from,
                                        size_t brace) {
  rw->host_dependent_count = 0;
  for (size_t k = from; k < brace; k++) {
    if (!cuemu__rw_is(rw, k, "template") || !cuemu__rw_is(rw, k + 1, "<"))
      continue;
    size_t close = cuemu__rw_template_close(rw, k + 1);
    if (close >= brace)
      break;
    /* Each parameter's name: its last identifier before its default. */
    size_t name = rw->n;
    int defaulted = 0;
    for (size_t p = k + 2; p <= close; p++) {
      if (cuemu__rw_is(rw, p, "<") || cuemu__rw_is(rw, p, "(")) {
        p = cuemu__rw_is(rw, p, "<") ? cuemu__rw_template_close(rw, p)
                                     : cuemu__rw_close(rw, p);
        if (p >= close)
          break;
      } else if (p == close || cuemu__rw_is(rw, p, ",")) {
        if (name < rw->n) {
          cuemu_status st = add_dependent(rw, name);
          if (st != CUEMU_SUCCESS)
            return st;
        }
        name = rw->n;
        defaulted = 0;
      } else if (cuemu__rw_is(rw, p, "="))
        defaulted = 1;
      else if (!defaulted && cuemu__rw_ident(rw, p) &&
               !cuemu__rw_is(rw, p, "class") &&
               !cuemu__rw_is(rw, p, "typename"))
        name = p;
    }
    k = close;
  }
  size_t parameters = rw->host_dependent_count;
  size_t end = cuemu__rw_close(rw, brace);
  for (size_t k = from; k < end && k < rw->n; k++) {
    int named = 0;
    for (size_t d = 0; d < parameters && !named; d++)
      named = cuemu__rw_ident(rw, k) &&
              cuemu__rw_same(rw, k, rw->host_dependent[d]);
    if (!named)
      continue;
    /* Out of the template arguments that hold it (`std::vector<T> v`). */
    size_t j = k + 1;
    long depth = 0;
    for (size_t b = k; b > from; b--) {
      size_t q = b - 1;
      if (cuemu__rw_is(rw, q, ";") || cuemu__rw_is(rw, q, "{") ||
          cuemu__rw_is(rw, q, "}") || cuemu__rw_is(rw, q, "("))
        break;
      if (cuemu__rw_is(rw, q, ">"))
        depth++;
      else if (cuemu__rw_is(rw, q, "<") && depth-- == 0) {
        size_t close = cuemu__rw_template_close(rw, q);
        if (close < end && close > k)
          j = close + 1;
        break;
      }
    }
    /* Past `::name`, `*`, `&`, cv-qualifiers and a pack's `...`, the name
     * declared, unless it is a function's. */
    while (j < end) {
      if (cuemu__rw_is(rw, j, "::") && cuemu__rw_ident(rw, j + 1))
        j += 2;
      else if (cuemu__rw_is(rw, j, "*") || cuemu__rw_is(rw, j, "&") ||
               cuemu__rw_is(rw, j, ".") || cuemu__rw_is(rw, j, "const") ||
               cuemu__rw_is(rw, j, "volatile") || cuemu__rw_is(rw, j, ">"))
        j++;
      else
        break;
    }
    if (j < end && cuemu__rw_ident(rw, j) && !cuemu__rw_is(rw, j + 1, "(") &&
        !cuemu__rw_is(rw, j, "operator")) {
      cuemu_status st = add_dependent(rw, j);
      if (st != CUEMU_SUCCESS)
        return st;
    }
  }
  /* A name declared `auto` (`auto v = t;`, `auto &r = t.x;`) from an
   * initializer that names what is dependent is dependent too; twice, for
   * one declared from another. */
  for (int round = 0; round < 2; round++)
    for (size_t k = from; k < end && k < rw->n; k++) {
      if (!cuemu__rw_is(rw, k, "auto"))
        continue;
      size_t j = k + 1;
      while (j < end && (cuemu__rw_is(rw, j, "&") || cuemu__rw_is(rw, j, "*") ||
                         cuemu__rw_is(rw, j, "const")))
        j++;
      if (j >= end || !cuemu__rw_ident(rw, j) || dependent(rw, j))
        continue;
      int named = 0;
      for (size_t q = j + 1; q < end && !cuemu__rw_is(rw, q, ";") && !named;
           q++)
        named = cuemu__rw_ident(rw, q) &&
                (cuemu__rw_is(rw, q, "this") || dependent(rw, q));
      if (named) {
        cuemu_status st = add_dependent(rw, j);
        if (st != CUEMU_SUCCESS)
          return st;
      }
    }
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__host_variable_body(cuemu_rewriter *rw, const char *ns,
                                       size_t start, size_t brace,
                                       size_t templated) {
  free(rw->host_scope);
  rw->host_scope = strdup(ns);
  if (!rw->host_scope)
    return CUEMU_OUT_OF_MEMORY;
  for (size_t v = 0; v < rw->host_var_count; v++)
    rw->host_vars[v].hidden = 0;
  rw->host_template = templated < rw->n;
  if (rw->host_template) {
    cuemu_status st = template_dependents(rw, templated, brace);
    if (st != CUEMU_SUCCESS)
      return st;
  }
  /* A parameter of the variable's name hides it in the body. */
  for (size_t k = start; k < brace; k++)
    if (cuemu__rw_ident(rw, k) && k > start && !cuemu__rw_is(rw, k - 1, "::") &&
        (cuemu__rw_is(rw, k + 1, ",") || cuemu__rw_is(rw, k + 1, ")") ||
         cuemu__rw_is(rw, k + 1, "=") || cuemu__rw_is(rw, k + 1, "[")))
      hide(rw, k);
  return CUEMU_SUCCESS;
}

/* In a template's body, whether nvcc leaves the use of a device variable
 * from token `first` to its postfix chain's end before token `end` for the
 * instances, where it gives no warning: the whole operand of a `return`
 * (`return hits;`, `return (hits);`), or in a statement that names what
 * the template's parameters decide (`T y = hits;`, `t.f(hits)`,
 * `use(t + hits)`, `this->...`), which the translation cannot tell from one
 * that does not depend on them. */
static int left_to_instances(const cuemu_rewriter *rw, size_t first,
                             size_t end) {
  size_t b = first, a = end;
  while (b > 0 && cuemu__rw_is(rw, b - 1, "("))
    b--;
  while (a < rw->n && cuemu__rw_is(rw, a, ")"))
    a++;
  if (b > 0 && cuemu__rw_is(rw, b - 1, "return") && cuemu__rw_is(rw, a, ";"))
    return 1;
  size_t from = first;
  while (from > 0 && !cuemu__rw_is(rw, from - 1, ";") &&
         !cuemu__rw_is(rw, from - 1, "{") && !cuemu__rw_is(rw, from - 1, "}"))
    from--;
  for (size_t k = from; k < rw->n && !cuemu__rw_is(rw, k, ";") &&
                        !cuemu__rw_is(rw, k, "{") && !cuemu__rw_is(rw, k, "}");
       k++)
    if (cuemu__rw_ident(rw, k) &&
        (cuemu__rw_is(rw, k, "this") || dependent(rw, k)))
      return 1;
  return 0;
}

/* Whether token k is one of the words after which a name starts an
 * expression, not a declaration. */
static int expression_word(const cuemu_rewriter *rw, size_t k) {
  static const char *const words[] = {"return",   "case",   "throw",
                                      "else",     "do",     "co_return",
                                      "co_yield", "delete", "new"};
  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
    if (cuemu__rw_is(rw, k, words[w]))
      return 1;
  return 0;
}

/* Whether the name whose first token is `first`, its last `i`, is
 * declared there: after a type (`int hits`, `float *hits`, `T<int> hits`). */
static int declared_here(const cuemu_rewriter *rw, size_t first, size_t i) {
  if (first != i || first == 0)
    return 0;
  size_t p = first - 1;
  if (cuemu__rw_ident(rw, p))
    return !expression_word(rw, p);
  int after_type =
      p > 0 && (cuemu__rw_ident(rw, p - 1) || cuemu__rw_is(rw, p - 1, ">"));
  int before_start =
      p >= 2 && (cuemu__rw_is(rw, p - 2, ";") || cuemu__rw_is(rw, p - 2, "{") ||
                 cuemu__rw_is(rw, p - 2, "}") || cuemu__rw_is(rw, p - 2, "(") ||
                 cuemu__rw_is(rw, p - 2, ","));
  if ((cuemu__rw_is(rw, p, "*") || cuemu__rw_is(rw, p, "&")) && after_type &&
      before_start)
    return 1;
  /* `std::vector<int> hits;`: a `>` then the name and what ends a
   * declarator. */
  return cuemu__rw_is(rw, p, ">") &&
         (cuemu__rw_is(rw, i + 1, ";") || cuemu__rw_is(rw, i + 1, "=") ||
          cuemu__rw_is(rw, i + 1, "{") || cuemu__rw_is(rw, i + 1, "("));
}

/* Whether token k is an operand's end (an identifier, a literal, `)` or
 * `]`): a `&` after it is a binary operator; not the `)` of a cast to a
 * pointer or reference type (`(void *)&v`). */
static int operand_end(const cuemu_rewriter *rw, size_t k) {
  const cuemu_token *t = &rw->toks[k];
  if (cuemu__rw_is(rw, k, ")"))
    return k == 0 ||
           !(cuemu__rw_is(rw, k - 1, "*") || cuemu__rw_is(rw, k - 1, "&"));
  return (t->kind == CUEMU_TOKEN_IDENT && !expression_word(rw, k)) ||
         t->kind == CUEMU_TOKEN_NUMBER || cuemu__rw_is(rw, k, "]");
}

/* Where the use whose first token is `first` and whose postfix chain
 * ends before token `end` is an argument of a call (inside the
 * parentheses of one, between `(` or `,` and `,` or `)`), the `(` of the
 * call and, in *index, the argument's number from 0; else rw->n. */
static size_t call_argument(const cuemu_rewriter *rw, size_t first, size_t end,
                            size_t *index) {
  if (first == 0 ||
      !(cuemu__rw_is(rw, first - 1, "(") || cuemu__rw_is(rw, first - 1, ",")) ||
      !(cuemu__rw_is(rw, end, ",") || cuemu__rw_is(rw, end, ")")))
    return rw->n;
  /* The `(` that opens the list around the use. */
  long depth = 0;
  *index = 0;
  for (size_t k = first; k-- > 0;) {
    if (cuemu__rw_is(rw, k, ")") || cuemu__rw_is(rw, k, "]") ||
        cuemu__rw_is(rw, k, "}"))
      depth++;
    else if (cuemu__rw_is(rw, k, "[") || cuemu__rw_is(rw, k, "{")) {
      if (depth-- == 0)
        return rw->n;
    } else if (cuemu__rw_is(rw, k, ",") && depth == 0)
      ++*index;
    else if (cuemu__rw_is(rw, k, "(")) {
      if (depth-- > 0)
        continue;
      if (k == 0)
        return rw->n;
      size_t callee = k - 1;
      if (cuemu__rw_is(rw, callee, ">"))
        return k; /* `f<T>(...)` */
      return cuemu__rw_ident(rw, callee) && !cuemu__rw_is(rw, callee, "if") &&
                     !cuemu__rw_is(rw, callee, "while") &&
                     !cuemu__rw_is(rw, callee, "for") &&
                     !cuemu__rw_is(rw, callee, "switch") &&
                     !cuemu__rw_is(rw, callee, "return") &&
                     !expression_word(rw, callee)
                 ? k
                 : rw->n;
    } else if (cuemu__rw_is(rw, k, ";") && depth == 0)
      return rw->n;
  }
  return rw->n;
}

/* Whether the operator at token k is an assignment that reads its left
 * operand first (`+=`, `<<=`, ...). */
static int compound_assignment(const cuemu_rewriter *rw, size_t k) {
  static const char *const ops[] = {
      "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
    if (cuemu__rw_spells(rw, k, ops[o]))
      return 1;
  return 0;
}

/* Whether the `=` at token k is an assignment's (not `==`, `<=`, ...). */
static int assignment(const cuemu_rewriter *rw, size_t k) {
  if (!cuemu__rw_is(rw, k, "=") || cuemu__rw_spells(rw, k, "=="))
    return 0;
  return k == 0 || !(cuemu__rw_spells(rw, k - 1, "==") ||
                     cuemu__rw_spells(rw, k - 1, "!=") ||
                     cuemu__rw_spells(rw, k - 1, "<=") ||
                     cuemu__rw_spells(rw, k - 1, ">=") ||
                     compound_assignment(rw, k - 1) ||
                     (k >= 2 && compound_assignment(rw, k - 2)));
}

/* The warning at token k for variable v, shown as `shown`. */
static void warn(cuemu_rewriter *rw, size_t k, const cuemu_host_variable *v,
                 const char *shown, int write) {
  char what[384];
  snprintf(what, sizeof what,
           "a %s variable \"%s\" cannot be directly %s in a host function",
           v->constant ? "__constant__" : "__device__", shown,
           write ? "written" : "read");
  int level =
      cuemu__rw_diag_level(rw, rw->toks[k].offset, write ? 20092 : 20091,
                           write ? rw->warn_host_write : rw->warn_host_read);
  cuemu__rw_diagnose(rw, k, level, write ? "20092-D" : "20091-D", what);
}

void cuemu__host_variable_flush(cuemu_rewriter *rw) {
  if (rw->host_write_var) {
    warn(rw, rw->host_write_token, rw->host_write_var, rw->host_write_shown, 1);
    rw->host_write_var = NULL;
  }
}

/* A write of v at token i, whose expression's statement ends at the `;`
 * after token `end`: nvcc gives its warning when the whole expression has
 * been seen, after those of the reads in it (`hits = hits + 1`). */
static void write_at(cuemu_rewriter *rw, size_t i, size_t end,
                     const cuemu_host_variable *v, const char *shown) {
  cuemu__host_variable_flush(rw);
  snprintf(rw->host_write_shown, sizeof rw->host_write_shown, "%s", shown);
  long depth = 0;
  size_t k = end;
  for (; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{"))
      depth++;
    else if (cuemu__rw_is(rw, k, ")") || cuemu__rw_is(rw, k, "]") ||
             cuemu__rw_is(rw, k, "}")) {
      if (depth-- == 0)
        break;
    } else if (depth == 0 &&
               (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, ",")))
      break;
  }
  rw->host_write_var = v;
  rw->host_write_token = i;
  rw->host_write_end = k;
}

/* How nvcc shows the instance of variable template v whose arguments
 * open at token `open` and close at `close`: the name, then the arguments
 * as written, a space between words and after each `,`, and before a `*`
 * or `&`, `unsigned` alone as `unsigned int`. */
static void instance_name(const cuemu_rewriter *rw,
                          const cuemu_host_variable *v, size_t open,
                          size_t close, char *shown, size_t size) {
  size_t used = (size_t)snprintf(shown, size, "%s<", v->display);
  for (size_t k = open + 1; k < close && used < size; k++) {
    const cuemu_token *t = &rw->toks[k];
    int word = t->kind == CUEMU_TOKEN_IDENT || t->kind == CUEMU_TOKEN_NUMBER;
    int space =
        k > open + 1 &&
        ((word && (cuemu__rw_ident(rw, k - 1) ||
                   rw->toks[k - 1].kind == CUEMU_TOKEN_NUMBER)) ||
         cuemu__rw_is(rw, k - 1, ",") ||
         ((cuemu__rw_is(rw, k, "*") || cuemu__rw_is(rw, k, "&")) &&
          !cuemu__rw_is(rw, k - 1, "*") && !cuemu__rw_is(rw, k - 1, "&")));
    used +=
        (size_t)snprintf(shown + used, size - used, "%s%.*s", space ? " " : "",
                         (int)t->length, rw->text + t->offset);
    if (cuemu__rw_is(rw, k, "unsigned") &&
        (cuemu__rw_is(rw, k + 1, ",") || k + 1 == close) && used < size)
      used += (size_t)snprintf(shown + used, size - used, " int");
  }
  if (used < size)
    snprintf(shown + used, size - used, ">");
}

void cuemu__host_variable_access(cuemu_rewriter *rw, size_t i) {
  if (rw->host_write_var && i > rw->host_write_end)
    cuemu__host_variable_flush(rw);
  if (!rw->host_var_count || cuemu__rw_is(rw, i + 1, "(") ||
      cuemu__rw_is(rw, i + 1, "::") ||
      (rw->toks[i].flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)))
    return;
  size_t first;
  cuemu_host_variable *v = named(rw, i, &first);
  if (!v || v->hidden)
    return;
  if (declared_here(rw, first, i)) {
    hide(rw, i);
    return;
  }
  /* A variable template is used as an instance, with its arguments. */
  char shown[256];
  size_t end = i + 1;
  if (v->templated) {
    if (!cuemu__rw_is(rw, i + 1, "<"))
      return;
    size_t close = cuemu__rw_template_close(rw, i + 1);
    if (close >= rw->n)
      return;
    instance_name(rw, v, i + 1, close, shown, sizeof shown);
    end = close + 1;
  } else
    snprintf(shown, sizeof shown, "%s", v->display);
  size_t p = first > 0 ? first - 1 : rw->n;
  if (p < rw->n &&
      ((cuemu__rw_is(rw, p, "&") &&
        (p == 0 ||
         (!operand_end(rw, p - 1) && !cuemu__rw_spells(rw, p - 1, "&&")))) ||
       cuemu__rw_is(rw, p, "sizeof") || cuemu__rw_is(rw, p, "alignof")))
    return; /* its address; unevaluated */
  if (p < rw->n && p > 0 && cuemu__rw_is(rw, p, "(") &&
      (cuemu__rw_is(rw, p - 1, "sizeof") ||
       cuemu__rw_is(rw, p - 1, "decltype") ||
       cuemu__rw_is(rw, p - 1, "alignof") ||
       cuemu__rw_is(rw, p - 1, "typeid") ||
       cuemu__rw_is(rw, p - 1, "noexcept")))
    return;
  /* The postfix chain: elements and members. */
  int part = 0, member = 0;
  for (;;) {
    if (cuemu__rw_is(rw, end, "[")) {
      size_t close = cuemu__rw_close(rw, end);
      if (close >= rw->n)
        return;
      end = close + 1;
      part = 1;
    } else if (cuemu__rw_is(rw, end, ".") && cuemu__rw_ident(rw, end + 1)) {
      end += 2;
      part = member = 1;
    } else
      break;
  }
  if (rw->host_template && left_to_instances(rw, first, end))
    return;
  int prefix_step =
      p < rw->n && p > 0 &&
      (cuemu__rw_spells(rw, p - 1, "++") || cuemu__rw_spells(rw, p - 1, "--"));
  if (prefix_step || compound_assignment(rw, end) ||
      cuemu__rw_spells(rw, end, "++") || cuemu__rw_spells(rw, end, "--")) {
    warn(rw, i, v, shown, 0);
    write_at(rw, i, end, v, shown);
    return;
  }
  if (assignment(rw, end)) {
    write_at(rw, i, end, v, shown);
    return;
  }
  if (v->array && !part)
    return; /* the array's address */
  /* A reference bound to it: `int &r = hits;`, `auto &&r = hits;`. */
  if (p < rw->n && p >= 2 && assignment(rw, p) && cuemu__rw_ident(rw, p - 1) &&
      cuemu__rw_is(rw, p - 2, "&"))
    return;
  size_t index, open = call_argument(rw, first, end, &index);
  if (open < rw->n) {
    /* An argument: read where the parameter takes its value. */
    size_t object;
    cuemu_passing passing = cuemu__call_passing(rw, open, index, &object);
    int copied = passing == CUEMU_PASSED_OBJECT && !part &&
                 v->type != (size_t)-1 && cuemu__rw_same(rw, object, v->type) &&
                 cuemu__trivially_copied(rw, v->type);
    if (passing != CUEMU_PASSED_VALUE && !copied &&
        !(passing == CUEMU_PASSED_COPY && v->scalar && !member))
      return;
  }
  warn(rw, i, v, shown, 0);
}
