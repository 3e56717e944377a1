/*
 * cuemu_parity_expr.c: the integer expressions of parity cases (sizes,
 * launch shapes, integer scalars): integers, names of other arguments,
 * + - * / % with C's precedence and truncating division, parentheses, unary
 * minus, and min(a, b), max(a, b), ceil_div(a, b).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cuemu_parity_internal.h"

typedef struct parser {
  const char *p;
  cuemu__plookup lookup;
  void *ctx;
  char *err;
  size_t errsize;
  int failed;
} parser;

static int fail(parser *ps, const char *what) {
  if (!ps->failed)
    snprintf(ps->err, ps->errsize, "%s at '%s'", what, *ps->p ? ps->p : "end");
  ps->failed = 1;
  return -1;
}

static void skip(parser *ps) {
  while (isspace((unsigned char)*ps->p))
    ps->p++;
}

static int sum(parser *ps, int64_t *v);

/* A primary: a number, a name, a call or a parenthesised expression. */
static int primary(parser *ps, int64_t *v) {
  skip(ps);
  if (*ps->p == '(') {
    ps->p++;
    if (sum(ps, v))
      return -1;
    skip(ps);
    if (*ps->p != ')')
      return fail(ps, "expected ')'");
    ps->p++;
    return 0;
  }
  if (*ps->p == '-') {
    ps->p++;
    if (primary(ps, v))
      return -1;
    if (*v == INT64_MIN)
      return fail(ps, "overflow");
    *v = -*v;
    return 0;
  }
  if (isdigit((unsigned char)*ps->p)) {
    errno = 0;
    char *end;
    /* Decimal, or hexadecimal with 0x: a leading 0 is not octal. */
    int hex = ps->p[0] == '0' && (ps->p[1] == 'x' || ps->p[1] == 'X');
    long long n = strtoll(ps->p, &end, hex ? 16 : 10);
    if (errno)
      return fail(ps, "number out of range");
    if (*end == '.' || *end == 'e' || *end == 'E')
      return fail(ps, "expected an integer");
    ps->p = end;
    *v = n;
    return 0;
  }
  if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
    char name[64];
    size_t n = 0;
    while ((isalnum((unsigned char)*ps->p) || *ps->p == '_') && n + 1 < sizeof name)
      name[n++] = *ps->p++;
    name[n] = 0;
    skip(ps);
    if (*ps->p != '(') {
      if (!ps->lookup)
        return fail(ps, "a name in an expression that allows none");
      if (ps->lookup(ps->ctx, name, v, ps->err, ps->errsize)) {
        ps->failed = 1;
        return -1;
      }
      return 0;
    }
    /* A call of two arguments. */
    ps->p++;
    int64_t a, b;
    if (sum(ps, &a))
      return -1;
    skip(ps);
    if (*ps->p != ',')
      return fail(ps, "expected ','");
    ps->p++;
    if (sum(ps, &b))
      return -1;
    skip(ps);
    if (*ps->p != ')')
      return fail(ps, "expected ')'");
    ps->p++;
    if (strcmp(name, "min") == 0)
      *v = a < b ? a : b;
    else if (strcmp(name, "max") == 0)
      *v = a > b ? a : b;
    else if (strcmp(name, "ceil_div") == 0) {
      if (b <= 0)
        return fail(ps, "ceil_div by a divisor that is not positive");
      *v = a / b + (a % b > 0); /* rounds up, also below zero */
    } else {
      snprintf(ps->err, ps->errsize,
               "unknown function %s (min, max and ceil_div are known)", name);
      ps->failed = 1;
      return -1;
    }
    return 0;
  }
  return fail(ps, "expected a number, a name or '('");
}

static int product(parser *ps, int64_t *v) {
  if (primary(ps, v))
    return -1;
  for (;;) {
    skip(ps);
    char op = *ps->p;
    if (op != '*' && op != '/' && op != '%')
      return 0;
    ps->p++;
    int64_t r;
    if (primary(ps, &r))
      return -1;
    if (op != '*' && r == 0)
      return fail(ps, "division by zero");
    if (op == '*' ? __builtin_mul_overflow(*v, r, v)
                  : (*v == INT64_MIN && r == -1))
      return fail(ps, "overflow");
    if (op != '*')
      *v = op == '/' ? *v / r : *v % r;
  }
}

static int sum(parser *ps, int64_t *v) {
  if (product(ps, v))
    return -1;
  for (;;) {
    skip(ps);
    char op = *ps->p;
    if (op != '+' && op != '-')
      return 0;
    ps->p++;
    int64_t r;
    if (product(ps, &r))
      return -1;
    if (op == '+' ? __builtin_add_overflow(*v, r, v)
                  : __builtin_sub_overflow(*v, r, v))
      return fail(ps, "overflow");
  }
}

int cuemu__parity_eval(const char *expr, cuemu__plookup lookup, void *ctx,
                       int64_t *out, char *err, size_t errsize) {
  parser ps = {expr ? expr : "", lookup, ctx, err, errsize, 0};
  if (sum(&ps, out))
    return -1;
  skip(&ps);
  if (*ps.p)
    return fail(&ps, "unexpected text");
  return 0;
}

int cuemu__parity_number(const char *text, double *out) {
  const char *t = text;
  int negative = *t == '-';
  if (*t == '-' || *t == '+')
    t++;
  if (*t == '.')
    t++; /* YAML's .nan and .inf */
  if (strcasecmp(t, "nan") == 0 || strcasecmp(t, "inf") == 0 ||
      strcasecmp(t, "infinity") == 0) {
    *out = t[0] == 'n' || t[0] == 'N' ? NAN : negative ? -INFINITY : INFINITY;
    return 0;
  }
  char *end;
  errno = 0;
  *out = strtod(text, &end);
  return end == text || *end || (errno == ERANGE && isinf(*out)) ? -1 : 0;
}
