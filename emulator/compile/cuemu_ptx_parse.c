/*
 * cuemu_ptx_parse.c: the C++ side of an inline-PTX statement (see
 * cuemu_ptx.h): the asm keyword and its qualifiers, the template's string
 * literals (concatenated, escapes decoded), the output and input operands
 * with their constraints and expressions, and the clobbers; then the
 * operand references of the template are replaced by `$N`.
 */
#include "cuemu_ptx.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_lexer.h"
#include "cuemu_rewriter.h"

typedef struct parser {
  const char *text;
  cuemu_token *toks;   /* significant tokens of the statement */
  size_t n;
  size_t i;
  cuemu_ptx_result *out;
} parser;

cuemu_status cuemu__ptx_error(cuemu_ptx_result *out, int line, const char *fmt,
                              ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out->message, sizeof out->message, fmt, ap);
  va_end(ap);
  out->error_line = line;
  return CUEMU_COMPILE;
}

#define fail(p, ...) cuemu__ptx_error((p)->out, __VA_ARGS__)

static int is(const parser *p, size_t i, const char *word) {
  return i < p->n && cuemu__token_is(p->text, &p->toks[i], word);
}

static int line_at(const parser *p, size_t i) {
  return i < p->n ? p->toks[i].line : (p->n ? p->toks[p->n - 1].line : 1);
}

/* A string literal's spelling, splices removed, in a new buffer. */
static char *spelling(const parser *p, size_t i) {
  size_t len = cuemu__token_spelling(p->text, &p->toks[i], NULL, 0);
  char *s = malloc(len + 1);
  if (s) cuemu__token_spelling(p->text, &p->toks[i], s, len + 1);
  return s;
}

/* Appends the characters of the ordinary string literal at token i to sb,
 * escapes decoded, and their line to lines. */
static cuemu_status add_literal(parser *p, size_t i, cuemu_strbuf *sb,
                                int **lines, size_t *cap) {
  char *s = spelling(p, i);
  const char *q;
  if (!s) return CUEMU_OUT_OF_MEMORY;
  if (s[0] != '"') {
    free(s);
    return fail(p, line_at(p, i),
                "inline PTX: the template must be ordinary string literals");
  }
  for (q = s + 1; *q && *q != '"'; q++) {
    char c = *q;
    if (c == '\\') {
      q++;
      switch (*q) {
      case 'n': c = '\n'; break;
      case 't': c = '\t'; break;
      case 'r': c = '\r'; break;
      case 'v': c = '\v'; break;
      case 'f': c = '\f'; break;
      case 'a': c = '\a'; break;
      case 'b': c = '\b'; break;
      case 'x': {
        unsigned v = 0;
        while (isxdigit((unsigned char)q[1])) {
          q++;
          v = v * 16 + (unsigned)(isdigit((unsigned char)*q) ? *q - '0'
                                  : (tolower((unsigned char)*q) - 'a' + 10));
        }
        c = (char)v;
        break;
      }
      default:
        if (*q >= '0' && *q <= '7') {
          unsigned v = (unsigned)(*q - '0');
          int k;
          for (k = 0; k < 2 && q[1] >= '0' && q[1] <= '7'; k++)
            v = v * 8 + (unsigned)(*++q - '0');
          c = (char)v;
        } else {
          c = *q; /* \\ \" \' \? */
        }
      }
    }
    if (sb->length + 1 >= *cap) {
      size_t grown = *cap ? *cap * 2 : 256;
      int *more = realloc(*lines, grown * sizeof *more);
      if (!more) {
        free(s);
        return CUEMU_OUT_OF_MEMORY;
      }
      *lines = more;
      *cap = grown;
    }
    (*lines)[sb->length] = line_at(p, i);
    cuemu__sb_add(sb, &c, 1);
  }
  free(s);
  return sb->oom ? CUEMU_OUT_OF_MEMORY : CUEMU_SUCCESS;
}

/* The spelling of tokens [from, to), one space where the source had
 * anything between two of them. */
static char *tokens_text(const parser *p, size_t from, size_t to) {
  cuemu_strbuf sb = {0};
  size_t k;
  cuemu__sb_add(&sb, "", 0);
  for (k = from; k < to; k++) {
    char *s = spelling(p, k);
    if (!s) {
      free(sb.data);
      return NULL;
    }
    if (k > from && p->toks[k - 1].offset + p->toks[k - 1].length !=
                        p->toks[k].offset)
      cuemu__sb_add(&sb, " ", 1);
    cuemu__sb_str(&sb, s);
    free(s);
  }
  if (sb.oom) {
    free(sb.data);
    return NULL;
  }
  return sb.data;
}

/* Index of the bracket closing the one at i, or p->n. */
static size_t close_of(const parser *p, size_t i) {
  size_t depth = 0;
  for (; i < p->n; i++) {
    if (is(p, i, "(") || is(p, i, "[") || is(p, i, "{")) {
      depth++;
    } else if (is(p, i, ")") || is(p, i, "]") || is(p, i, "}")) {
      if (--depth == 0) return i;
    }
  }
  return p->n;
}

/* Parses one operand `[name] "constraint" (expr)` at p->i. */
static cuemu_status operand(parser *p, cuemu__ptx_asm *a, int output) {
  cuemu__ptx_operand op;
  char *c, *q;
  size_t close;
  memset(&op, 0, sizeof op);
  op.output = output;
  if (is(p, p->i, "[")) {
    if (p->i + 1 >= p->n || p->toks[p->i + 1].kind != CUEMU_TOKEN_IDENT ||
        !is(p, p->i + 2, "]"))
      return fail(p, line_at(p, p->i), "inline PTX: malformed operand name");
    op.name = tokens_text(p, p->i + 1, p->i + 2);
    if (!op.name) return CUEMU_OUT_OF_MEMORY;
    p->i += 3;
  }
  if (p->i >= p->n || p->toks[p->i].kind != CUEMU_TOKEN_STRING) {
    free(op.name);
    return fail(p, line_at(p, p->i), "inline PTX: expected a constraint");
  }
  /* Adjacent string literals make one constraint, as in C: a macro that
   * pastes `"=" SIZE_MARKER(u32)` gives `"=" "r"` (cuda-api-wrappers'
   * ptx.cuh). */
  while (p->i < p->n && p->toks[p->i].kind == CUEMU_TOKEN_STRING) {
    c = spelling(p, p->i);
    if (!c) {
      free(op.name);
      return CUEMU_OUT_OF_MEMORY;
    }
    for (q = c + 1; *q && *q != '"'; q++) {
      if (*q == '=' || *q == '&') continue;
      if (*q == '+') {
        op.read_write = 1;
      } else if (strchr("rlhfdnq", *q) && !op.constraint) {
        op.constraint = *q;
      } else {
        int line = line_at(p, p->i);
        fail(p, line, "inline PTX: unsupported constraint \"%.*s\"",
             (int)strcspn(c + 1, "\""), c + 1);
        free(c);
        free(op.name);
        return CUEMU_COMPILE;
      }
    }
    free(c);
    p->i++;
  }
  if (!is(p, p->i, "(") || (close = close_of(p, p->i)) >= p->n) {
    free(op.name);
    return fail(p, line_at(p, p->i),
                "inline PTX: expected ( expression ) after a constraint");
  }
  if (!op.constraint) {
    free(op.name);
    return fail(p, line_at(p, p->i), "inline PTX: a constraint has no letter");
  }
  op.expr = tokens_text(p, p->i + 1, close);
  if (!op.expr) {
    free(op.name);
    return CUEMU_OUT_OF_MEMORY;
  }
  p->i = close + 1;
  {
    cuemu__ptx_operand *grown =
        realloc(a->operands, (size_t)(a->count + 1) * sizeof *grown);
    if (!grown) {
      free(op.name);
      free(op.expr);
      return CUEMU_OUT_OF_MEMORY;
    }
    a->operands = grown;
    a->operands[a->count++] = op;
  }
  return CUEMU_SUCCESS;
}

/* Parses a comma-separated list of operands up to `:` or `)`. */
static cuemu_status operand_list(parser *p, cuemu__ptx_asm *a, int output) {
  cuemu_status st;
  if (is(p, p->i, ":") || is(p, p->i, "::") || is(p, p->i, ")"))
    return CUEMU_SUCCESS;
  for (;;) {
    st = operand(p, a, output);
    if (st != CUEMU_SUCCESS) return st;
    /* nvcc takes an operand that follows the last without a comma (the
     * CUDA samples' conjugateGradientMultiDeviceCG writes
     * `::"r"(v) "l"(p)`), as two operands. */
    if (p->i < p->n && p->toks[p->i].kind == CUEMU_TOKEN_STRING)
      continue;
    if (!is(p, p->i, ",")) return CUEMU_SUCCESS;
    p->i++;
  }
}

/* Appends `$N`, the reference to operand N. A `%` ends the name before it
 * in PTX (it only starts names), a `$` does not: `mov.u32%0` is `mov.u32`
 * and `%0` (cuda-api-wrappers' ptx.cuh pastes "mov." "u32" "%0, %" ...),
 * so a space keeps the two apart. */
static void operand_reference(cuemu_strbuf *sb, char *buf, size_t size,
                              int num) {
  if (sb->length > 0) {
    char last = sb->data[sb->length - 1];
    if (isalnum((unsigned char)last) || last == '_' || last == '.' ||
        last == '$')
      cuemu__sb_add(sb, " ", 1);
  }
  snprintf(buf, size, "$%d", num);
  cuemu__sb_str(sb, buf);
}

/* Replaces the operand references of the template: `%N` and `%[name]` by
 * `$N`, `%%` by `%`, `%=` by `0`. */
static cuemu_status substitute(parser *p, cuemu__ptx_asm *a, const char *t,
                               const int *tl, size_t n) {
  cuemu_strbuf sb = {0};
  int *lines = malloc((3 * n + 1) * sizeof *lines);
  size_t k;
  if (!lines) return CUEMU_OUT_OF_MEMORY;
  cuemu__sb_add(&sb, "", 0);
  for (k = 0; k < n; k++) {
    size_t before = sb.length;
    char buf[16];
    if (t[k] != '%') {
      cuemu__sb_add(&sb, &t[k], 1);
    } else if (k + 1 < n && (t[k + 1] == '%' || t[k + 1] == '=')) {
      cuemu__sb_add(&sb, t[k + 1] == '%' ? "%" : "0", 1);
      k++;
    } else if (k + 1 < n && isdigit((unsigned char)t[k + 1])) {
      int num = 0;
      while (k + 1 < n && isdigit((unsigned char)t[k + 1]))
        num = num * 10 + (t[++k] - '0');
      if (num >= a->count) {
        free(sb.data);
        free(lines);
        return fail(p, tl[k], "inline PTX: operand %%%d does not exist", num);
      }
      operand_reference(&sb, buf, sizeof buf, num);
    } else if (k + 1 < n && t[k + 1] == '[') {
      size_t end = k + 2;
      int num;
      while (end < n && t[end] != ']') end++;
      for (num = 0; num < a->count; num++)
        if (a->operands[num].name &&
            strlen(a->operands[num].name) == end - k - 2 &&
            !strncmp(a->operands[num].name, t + k + 2, end - k - 2))
          break;
      if (end >= n || num == a->count) {
        free(sb.data);
        free(lines);
        return fail(p, tl[k], "inline PTX: operand %%[%.*s] does not exist",
                    (int)(end - k - 2), t + k + 2);
      }
      operand_reference(&sb, buf, sizeof buf, num);
      k = end;
    } else {
      cuemu__sb_add(&sb, "%", 1);
    }
    if (sb.oom) break;
    while (before < sb.length) lines[before++] = tl[k];
  }
  if (sb.oom) {
    free(sb.data);
    free(lines);
    return CUEMU_OUT_OF_MEMORY;
  }
  a->ptx = sb.data;
  a->lines = lines;
  a->length = sb.length;
  return CUEMU_SUCCESS;
}

static cuemu_status parse(parser *p, cuemu__ptx_asm *a) {
  cuemu_strbuf t = {0};
  int *tl = NULL;
  size_t cap = 0;
  int basic = 1;
  size_t is_goto = 0;
  int clobbers_next = 0;
  cuemu_status st = CUEMU_SUCCESS;
  if (!(is(p, 0, "asm") || is(p, 0, "__asm") || is(p, 0, "__asm__")))
    return fail(p, 1, "inline PTX: not an asm statement");
  p->i = 1;
  while (is(p, p->i, "volatile") || is(p, p->i, "__volatile__") ||
         is(p, p->i, "__volatile") || is(p, p->i, "inline") ||
         is(p, p->i, "goto")) {
    if (is(p, p->i, "goto")) is_goto = p->i;
    p->i++;
  }
  if (!is(p, p->i, "("))
    return fail(p, line_at(p, p->i), "inline PTX: expected ( after asm");
  p->i++;
  cuemu__sb_add(&t, "", 0);
  while (st == CUEMU_SUCCESS && p->i < p->n &&
         p->toks[p->i].kind == CUEMU_TOKEN_STRING)
    st = add_literal(p, p->i++, &t, &tl, &cap);
  /* Not PTX (x86 asm in host code, or a template that is not made of
   * string literals here, such as a macro's name): left alone. */
  if (st == CUEMU_SUCCESS &&
      (p->toks[p->i - 1].kind != CUEMU_TOKEN_STRING ||
       !cuemu__ptx_template_is_ptx(t.data, t.length))) {
    free(t.data);
    free(tl);
    return CUEMU_SUCCESS;
  }
  a->is_ptx = 1;
  if (st == CUEMU_SUCCESS && is_goto)
    st = fail(p, line_at(p, is_goto), "inline PTX: asm goto is not supported");
  /* `::` is one token: an empty output list. */
  if (st == CUEMU_SUCCESS && is(p, p->i, "::")) {
    basic = 0;
    p->i++;
    st = operand_list(p, a, 0);
  } else if (st == CUEMU_SUCCESS && is(p, p->i, ":")) {
    basic = 0;
    p->i++;
    st = operand_list(p, a, 1);
    a->outputs = a->count;
    if (st == CUEMU_SUCCESS && is(p, p->i, "::")) {
      /* No inputs; the clobbers follow at once (`: "=r"(t) :: "memory"`,
       * the way most timing code reads %clock). */
      p->i++;
      clobbers_next = 1;
    } else if (st == CUEMU_SUCCESS && is(p, p->i, ":")) {
      p->i++;
      st = operand_list(p, a, 0);
    }
  }
  /* Clobbers: "memory" makes the statement a compiler barrier, as it is
   * for nvcc; nvcc refuses "cc" in device code ("The cc clobber constraint
   * is not supported in device code"), and so does cuemu. */
  if (st == CUEMU_SUCCESS &&
      (clobbers_next || is(p, p->i, ":") || is(p, p->i, "::"))) {
    if (!clobbers_next) p->i++;
    while (st == CUEMU_SUCCESS && p->i < p->n && !is(p, p->i, ")")) {
      if (is(p, p->i, "\"memory\"")) a->memory_clobber = 1;
      if (is(p, p->i, "\"cc\""))
        st = fail(p, line_at(p, p->i),
                  "inline PTX: the \"cc\" clobber is not supported in device code");
      p->i++;
    }
  }
  if (st == CUEMU_SUCCESS && !is(p, p->i, ")"))
    st = fail(p, line_at(p, p->i), "inline PTX: expected ) to end the asm statement");
  if (st == CUEMU_SUCCESS && basic) {
    a->ptx = t.data;
    a->lines = tl;
    a->length = t.length;
    return CUEMU_SUCCESS;
  }
  if (st == CUEMU_SUCCESS) st = substitute(p, a, t.data, tl, t.length);
  free(t.data);
  free(tl);
  return st;
}

cuemu_status cuemu__ptx_parse(const char *text, size_t length,
                              cuemu__ptx_asm *a, cuemu_ptx_result *out) {
  cuemu_token_list list;
  parser p;
  size_t k;
  cuemu_status st;
  memset(a, 0, sizeof *a);
  memset(&p, 0, sizeof p);
  p.text = text;
  p.out = out;
  st = cuemu__lex(text, length, &list);
  if (st == CUEMU_COMPILE) {
    snprintf(out->message, sizeof out->message, "%s", list.error);
    out->error_line = list.error_line;
    return st;
  }
  if (st != CUEMU_SUCCESS) return st;
  p.toks = list.tokens;
  for (k = 0; k < list.count; k++)
    if (list.tokens[k].kind != CUEMU_TOKEN_COMMENT &&
        list.tokens[k].kind != CUEMU_TOKEN_DIRECTIVE)
      list.tokens[p.n++] = list.tokens[k];
  st = parse(&p, a);
  cuemu__token_list_free(&list);
  if (st != CUEMU_SUCCESS) cuemu__ptx_asm_free(a);
  return st;
}

void cuemu__ptx_asm_free(cuemu__ptx_asm *a) {
  int k;
  for (k = 0; k < a->count; k++) {
    free(a->operands[k].name);
    free(a->operands[k].expr);
  }
  free(a->operands);
  free(a->ptx);
  free(a->lines);
  memset(a, 0, sizeof *a);
}
