/*
 * cuemu_lambda_parent.c: nvcc's restrictions on the function that encloses
 * an extended lambda of host code (the CUDA programming guide's "Extended
 * Lambda Restrictions"), refused with nvcc 13's messages at the lambda's
 * line. Each was tried with nvcc 13.0 (tests/driver/cc13d/lambda_parent.cu):
 *
 *   - a constructor or destructor ("must allow its address to be taken");
 *   - a member function of a class local to another function ("must not
 *     be defined inside another function");
 *   - a deduced return type, `auto` or `decltype(auto)` without a trailing
 *     return type ("must not have deduced return type");
 *   - a private or protected member function, defined in its class or
 *     outside it ("cannot have private or protected access within its
 *     class");
 *   - a member function of a class that is a private or protected member of
 *     another class;
 *   - an enclosing extended __host__ __device__ lambda.
 *
 * The enclosing parent function is the innermost function around the
 * lambda, through plain lambdas (nvcc checks the function around those).
 * A member defined outside its class (`void C::f() {...}`) has the access
 * of its declaration in the last definition of a class C before it.
 * What this reads of the tokens: the braces between the namespace-scope
 * declaration's start and the lambda, each classified by what precedes it.
 */
#include <stdio.h>
#include <string.h>

#include "cuemu_rewriter.h"

enum brace_kind { BRACE_BLOCK, BRACE_FUNCTION, BRACE_CLASS, BRACE_LAMBDA };

typedef struct brace {
  enum brace_kind kind;
  size_t open;        /* its `{` */
  size_t start;       /* the first token of its declaration or statement */
  size_t name;        /* a function's or class's name token, or rw->n */
  char name_text[96]; /* a function's name as nvcc prints it */
  int deduced;        /* a function with a deduced return type */
  int destructor;     /* a function named ~X */
  int qualified;      /* a function defined as X::f, or a friend (no
                       * member of the class around it) */
  size_t owner;       /* X of a function defined as X::f (or X<T>::f), or
                       * rw->n */
  int class_private;  /* a class: `class` (private by default) */
  int lambda;         /* a lambda: its index in rw->lambdas, or -1 */
} brace;

#define MAX_BRACES 64

static int is_any(const cuemu_rewriter *rw, size_t i, const char *const *w) {
  for (; *w; ++w)
    if (cuemu__rw_is(rw, i, *w))
      return 1;
  return 0;
}

/* The first token of the declaration or statement whose `{` is at b,
 * scanning back no further than `low`. */
static size_t statement_start(const cuemu_rewriter *rw, size_t b, size_t low) {
  static const char *const access[] = {"public", "private", "protected", NULL};
  size_t t = b;
  while (t > low) {
    size_t p = t - 1;
    if (cuemu__rw_is(rw, p, ")") || cuemu__rw_is(rw, p, "]")) {
      size_t o = cuemu__rw_open(rw, p);
      if (o == (size_t)-1 || o < low)
        return t;
      t = o;
      continue;
    }
    if (cuemu__rw_is(rw, p, "}")) {
      /* A member initializer's braces (`: a{1}, b{2} {`) are skipped; any
       * other `}` ends the statement before. */
      if (cuemu__rw_is(rw, p + 1, ",") || cuemu__rw_is(rw, p + 1, "{")) {
        size_t o = cuemu__rw_open(rw, p);
        if (o == (size_t)-1 || o < low)
          return t;
        t = o;
        continue;
      }
      return t;
    }
    if (cuemu__rw_is(rw, p, ";") || cuemu__rw_is(rw, p, "{") ||
        cuemu__rw_is(rw, p, "(") || cuemu__rw_is(rw, p, "["))
      return t;
    if (cuemu__rw_is(rw, p, ":") && p > low && is_any(rw, p - 1, access))
      return t;
    t = p;
  }
  return t;
}

/* Classifies the `{` at b (not a noted lambda's) from the tokens of its
 * statement, and fills in what the checks need. */
static void classify(const cuemu_rewriter *rw, size_t low, brace *br) {
  static const char *const control[] = {
      "if",     "else", "for",  "while",   "switch", "catch", "do",
      "try",    "case", "default", "return", "namespace", "enum", "extern",
      "typedef", "using", NULL};
  static const char *const class_keys[] = {"class", "struct", "union", NULL};
  size_t b = br->open;
  br->kind = BRACE_BLOCK;
  br->name = rw->n;
  br->owner = rw->n;
  br->start = statement_start(rw, b, low);
  size_t k = br->start;
  /* Template heads and attributes first. */
  for (;;) {
    size_t after = cuemu__rw_skip_attribute(rw, k);
    if (after != k) {
      k = after;
    } else if (cuemu__rw_is(rw, k, "template") &&
               cuemu__rw_is(rw, k + 1, "<")) {
      k = cuemu__rw_template_close(rw, k + 1) + 1;
    } else {
      break;
    }
  }
  if (k >= b || is_any(rw, k, control) || cuemu__rw_is(rw, k, "[") ||
      !(cuemu__rw_ident(rw, k) || cuemu__rw_is(rw, k, "~") ||
        cuemu__rw_is(rw, k, "::")))
    return;
  size_t first = k;
  /* A class: its key before any `(` or `=`. */
  for (size_t t = first; t < b; ++t) {
    size_t after = cuemu__rw_skip_attribute(rw, t);
    if (after != t) {
      t = after - 1;
      continue;
    }
    if (cuemu__rw_is(rw, t, "(") || cuemu__rw_is(rw, t, "="))
      break;
    if (is_any(rw, t, class_keys)) {
      br->kind = BRACE_CLASS;
      br->class_private = cuemu__rw_is(rw, t, "class");
      for (size_t u = t + 1; u < b; ++u) {
        size_t skip = cuemu__rw_skip_attribute(rw, u);
        if (skip != u) {
          u = skip - 1;
        } else if (cuemu__rw_ident(rw, u) && !cuemu__rw_is(rw, u, "final")) {
          br->name = u; /* the last name before `:`, `{` or `<` */
        } else if (!cuemu__rw_is(rw, u, "::")) {
          break;
        }
      }
      return;
    }
  }
  /* A function: the `(` of its parameters, before any `=` at the top. */
  size_t paren = rw->n, op = rw->n;
  for (size_t t = first; t < b; ++t) {
    size_t after = cuemu__rw_skip_attribute(rw, t);
    if (after != t) {
      t = after - 1;
    } else if (cuemu__rw_is(rw, t, "=") && op == rw->n) {
      return; /* an initializer's braces */
    } else if (cuemu__rw_is(rw, t, "<") && op == rw->n) {
      size_t c = cuemu__rw_template_close(rw, t);
      if (c < b)
        t = c;
    } else if (cuemu__rw_is(rw, t, "decltype") ||
               cuemu__rw_is(rw, t, "sizeof") ||
               cuemu__rw_is(rw, t, "alignof")) {
      if (cuemu__rw_is(rw, t + 1, "("))
        t = cuemu__rw_close(rw, t + 1);
    } else if (cuemu__rw_is(rw, t, "operator")) {
      op = t;
      if (cuemu__rw_is(rw, t + 1, "(") && cuemu__rw_is(rw, t + 2, ")"))
        t += 2;
    } else if (cuemu__rw_is(rw, t, "(")) {
      paren = t;
      break;
    }
  }
  if (paren >= b || paren == first)
    return;
  br->kind = BRACE_FUNCTION;
  size_t name = op != rw->n ? op : paren - 1;
  if (op != rw->n) {
    size_t len = (size_t)snprintf(br->name_text, sizeof br->name_text, "operator");
    for (size_t t = op + 1; t < paren && len < sizeof br->name_text; ++t)
      len += (size_t)snprintf(br->name_text + len, sizeof br->name_text - len,
                              "%.*s", (int)rw->toks[t].length,
                              rw->text + rw->toks[t].offset);
  } else if (cuemu__rw_ident(rw, name)) {
    br->name = name;
    br->destructor = name > first && cuemu__rw_is(rw, name - 1, "~");
    snprintf(br->name_text, sizeof br->name_text, "%s%.*s",
             br->destructor ? "~" : "", (int)rw->toks[name].length,
             rw->text + rw->toks[name].offset);
  } else {
    br->kind = BRACE_BLOCK;
    return;
  }
  size_t before = br->destructor ? name - 1 : name;
  br->qualified = before > first && cuemu__rw_is(rw, before - 1, "::");
  if (br->qualified && before >= first + 2) {
    size_t q = before - 2;
    if (cuemu__rw_is(rw, q, ">")) {
      size_t o = cuemu__rw_template_open(rw, q);
      q = o != (size_t)-1 && o > first ? o - 1 : q;
    }
    if (cuemu__rw_ident(rw, q))
      br->owner = q;
  }
  /* A constructor defined as X::X (or X<T>::X). */
  if (br->qualified && !br->destructor && before >= first + 2) {
    size_t q = before - 2;
    if (cuemu__rw_is(rw, q, ">")) {
      size_t o = cuemu__rw_template_open(rw, q);
      q = o != (size_t)-1 && o > first ? o - 1 : q;
    }
    if (cuemu__rw_ident(rw, q) && rw->toks[q].length == rw->toks[name].length &&
        memcmp(rw->text + rw->toks[q].offset, rw->text + rw->toks[name].offset,
               rw->toks[q].length) == 0)
      br->destructor = 2; /* constructor: no address either */
  }
  /* A deduced return type: `auto` or `decltype(auto)` among the
   * specifiers, without `->` after the parameters. */
  int deduced = 0;
  for (size_t t = first; t < name; ++t)
    if (cuemu__rw_is(rw, t, "friend")) {
      br->qualified = 1;
    } else if (cuemu__rw_is(rw, t, "auto")) {
      deduced = 1;
    } else if (cuemu__rw_is(rw, t, "decltype") &&
               cuemu__rw_is(rw, t + 1, "(")) {
      deduced |= cuemu__rw_is(rw, t + 2, "auto") &&
                 cuemu__rw_is(rw, t + 3, ")");
      t = cuemu__rw_close(rw, t + 1);
    } else if (cuemu__rw_is(rw, t, "<")) {
      size_t c = cuemu__rw_template_close(rw, t);
      if (c < name)
        t = c;
    }
  for (size_t t = cuemu__rw_close(rw, paren) + 1; deduced && t < b; ++t)
    if (cuemu__rw_is(rw, t, "->"))
      deduced = 0;
    else if (cuemu__rw_is(rw, t, "(") || cuemu__rw_is(rw, t, "["))
      t = cuemu__rw_close(rw, t);
  br->deduced = deduced;
}

/* Non-zero when the declaration starting at token `start`, directly in the
 * class body `cls`, has private or protected access. */
static int hidden_in(const cuemu_rewriter *rw, const brace *cls,
                     size_t start) {
  int hidden = cls->class_private;
  for (size_t t = cls->open + 1; t < start && t < rw->n; ++t) {
    if (cuemu__rw_is(rw, t, "{") || cuemu__rw_is(rw, t, "(") ||
        cuemu__rw_is(rw, t, "["))
      t = cuemu__rw_close(rw, t);
    else if (cuemu__rw_is(rw, t + 1, ":") && !cuemu__rw_is(rw, t + 2, ":")) {
      if (cuemu__rw_is(rw, t, "public"))
        hidden = 0;
      else if (cuemu__rw_is(rw, t, "private") ||
               cuemu__rw_is(rw, t, "protected"))
        hidden = 1;
    }
  }
  return hidden;
}

static int same_name(const cuemu_rewriter *rw, size_t a, size_t b) {
  return a < rw->n && b < rw->n && rw->toks[a].length == rw->toks[b].length &&
         memcmp(rw->text + rw->toks[a].offset, rw->text + rw->toks[b].offset,
                rw->toks[a].length) == 0;
}

/* Non-zero when the member function `fn`, defined outside its class as
 * X::f, is declared private or protected in the definition of X found
 * before token `limit` (the last one of that name: a class of that name in
 * another namespace is not told apart). */
static int hidden_outside(const cuemu_rewriter *rw, const brace *fn,
                          size_t limit) {
  static const char *const class_keys[] = {"class", "struct", "union", NULL};
  brace cls;
  int found = 0;
  memset(&cls, 0, sizeof cls);
  for (size_t k = 0; k < limit && k < rw->n; ++k) {
    if (!is_any(rw, k, class_keys))
      continue;
    size_t u = k + 1, name = rw->n;
    for (; u < limit; ++u) {
      size_t skip = cuemu__rw_skip_attribute(rw, u);
      if (skip != u)
        u = skip - 1;
      else if (cuemu__rw_ident(rw, u) && !cuemu__rw_is(rw, u, "final"))
        name = u;
      else if (!cuemu__rw_is(rw, u, "::") && !cuemu__rw_is(rw, u, "final"))
        break;
    }
    if (!same_name(rw, name, fn->owner))
      continue;
    /* Its body: `{`, after a base clause, before any `;`. */
    if (cuemu__rw_is(rw, u, ":"))
      while (u < limit && !cuemu__rw_is(rw, u, "{") &&
             !cuemu__rw_is(rw, u, ";"))
        u = cuemu__rw_is(rw, u, "<") ? cuemu__rw_template_close(rw, u) + 1
                                     : u + 1;
    if (u >= limit || !cuemu__rw_is(rw, u, "{"))
      continue;
    cls.kind = BRACE_CLASS;
    cls.open = u;
    cls.class_private = cuemu__rw_is(rw, k, "class");
    found = 1;
  }
  if (!found)
    return 0;
  const size_t close = cuemu__rw_close(rw, cls.open);
  for (size_t t = cls.open + 1; t < close && t < rw->n; ++t) {
    if (cuemu__rw_is(rw, t, "{") || cuemu__rw_is(rw, t, "(") ||
        cuemu__rw_is(rw, t, "["))
      t = cuemu__rw_close(rw, t);
    else if (same_name(rw, t, fn->name) && cuemu__rw_is(rw, t + 1, "(") &&
             !(t > 0 && cuemu__rw_is(rw, t - 1, "~")))
      return hidden_in(rw, &cls, t);
  }
  return 0;
}

cuemu_status cuemu__lambda_parent_check(cuemu_rewriter *rw, size_t i,
                                        size_t from, int host) {
  const char *kind = host ? "__host__ __device__" : "__device__";
  char what[400];
  brace braces[MAX_BRACES];
  int count = 0;
  if (from >= i)
    return CUEMU_SUCCESS;
  /* The braces around the lambda, outermost first. */
  for (size_t k = from; k < i; ++k)
    if (cuemu__rw_is(rw, k, "{")) {
      size_t c = cuemu__rw_close(rw, k);
      if (c > i) {
        if (count == MAX_BRACES)
          return CUEMU_SUCCESS;
        memset(&braces[count], 0, sizeof braces[count]);
        braces[count].open = k;
        braces[count].lambda = -1;
        count++;
      } else {
        k = c;
      }
    } else if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[")) {
      size_t c = cuemu__rw_close(rw, k);
      if (c < i)
        k = c;
    }
  for (int b = 0; b < count; ++b) {
    for (int j = 0; j < rw->lambda_count; ++j)
      if (rw->lambdas[j].body_open == braces[b].open) {
        braces[b].kind = BRACE_LAMBDA;
        braces[b].lambda = j;
      }
    if (braces[b].kind != BRACE_LAMBDA)
      classify(rw, b ? braces[b - 1].open + 1 : from, &braces[b]);
  }
  /* The enclosing parent function, through plain lambdas. */
  int f = count - 1;
  for (; f >= 0 && braces[f].kind != BRACE_FUNCTION; --f) {
    if (braces[f].kind == BRACE_CLASS)
      return CUEMU_SUCCESS; /* a class's member initializer */
    if (braces[f].kind == BRACE_LAMBDA &&
        rw->lambdas[braces[f].lambda].host_device) {
      snprintf(what, sizeof what,
               "error: An extended %s lambda cannot be defined inside an "
               "extended __host__ __device__  lambda "
               "expression(\"operator()\").",
               kind);
      return cuemu__rw_error(rw, rw->toks[i].line, what);
    }
  }
  if (f < 0)
    return CUEMU_SUCCESS;
  const brace *fn = &braces[f];
  const brace *cls = f > 0 && braces[f - 1].kind == BRACE_CLASS
                         ? &braces[f - 1] : NULL;
  int ctor = fn->destructor ||
             (cls && !fn->qualified && same_name(rw, fn->name, cls->name));
  const char *rule = NULL;
  if (ctor) {
    rule = "must allow its address to be taken";
  } else {
    for (int o = 0; o < f && !rule; ++o)
      if (braces[o].kind == BRACE_FUNCTION || braces[o].kind == BRACE_LAMBDA)
        rule = "must not be defined inside another function";
  }
  if (!rule && fn->deduced)
    rule = "must not have deduced return type";
  if (!rule && cls && !fn->qualified && hidden_in(rw, cls, fn->start))
    rule = "cannot have private or protected access within its class";
  if (!rule && !cls && fn->qualified && fn->owner < rw->n &&
      fn->name < rw->n && hidden_outside(rw, fn, fn->start))
    rule = "cannot have private or protected access within its class";
  if (rule) {
    snprintf(what, sizeof what,
             "error: The enclosing parent function (\"%s\") for an extended "
             "%s lambda %s",
             fn->name_text, kind, rule);
    return cuemu__rw_error(rw, rw->toks[i].line, what);
  }
  /* A member of a class that another class hides. */
  for (int c = f - 1; c > 0 && braces[c].kind == BRACE_CLASS; --c)
    if (braces[c - 1].kind == BRACE_CLASS &&
        hidden_in(rw, &braces[c - 1], braces[c].start)) {
      snprintf(what, sizeof what,
               "error: An extended %s lambda cannot be defined inside a class "
               "(\"%.*s\") with private or protected access within another "
               "class",
               kind,
               braces[c].name < rw->n ? (int)rw->toks[braces[c].name].length
                                      : 0,
               braces[c].name < rw->n
                   ? rw->text + rw->toks[braces[c].name].offset
                   : "");
      return cuemu__rw_error(rw, rw->toks[i].line, what);
    }
  return CUEMU_SUCCESS;
}
