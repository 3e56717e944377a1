/*
 * cuemu_lexer.c: the tokenizer of cuemu-cc (see cuemu_lexer.h).
 *
 * Positions always point at a logical character: a position that starts a
 * line splice is moved past it by norm(), so the scanning code below never
 * sees a splice except inside raw strings, which are scanned byte by byte.
 */
#include "cuemu_lexer.h"

#include <stdlib.h>
#include <string.h>

typedef struct lexer {
  const char *s;
  size_t n;
  cuemu_token_list *out;
  size_t capacity;
  size_t line_pos;   /* lines are counted incrementally up to this offset */
  int line;
  unsigned pending;  /* flags for the next significant token */
} lexer;

/* Length of the line splice at p (backslash, optional CR, newline), or 0. */
static size_t splice_at(const lexer *L, size_t p) {
  if (p < L->n && L->s[p] == '\\') {
    if (p + 1 < L->n && L->s[p + 1] == '\n') return 2;
    if (p + 2 < L->n && L->s[p + 1] == '\r' && L->s[p + 2] == '\n') return 3;
  }
  return 0;
}

/* Moves p past any line splices. */
static size_t norm(const lexer *L, size_t p) {
  size_t k;
  while ((k = splice_at(L, p)) != 0) p += k;
  return p;
}

/* The logical character at the normalised position p (0 at the end). */
static int ch(const lexer *L, size_t p) {
  return p < L->n ? (unsigned char)L->s[p] : 0;
}

/* The next logical position after the normalised position p. */
static size_t adv(const lexer *L, size_t p) { return norm(L, p + 1); }

static int is_ident_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '$' || c >= 0x80;
}

static int is_ident_char(int c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* The 1-based line of offset p; offsets must not decrease between calls. */
static int line_of(lexer *L, size_t p) {
  for (; L->line_pos < p; L->line_pos++)
    if (L->s[L->line_pos] == '\n') L->line++;
  return L->line;
}

static cuemu_status fail(lexer *L, size_t start, const char *what) {
  L->out->error_line = line_of(L, start);
  L->out->error = what;
  return CUEMU_COMPILE;
}

static cuemu_status emit(lexer *L, cuemu_token_kind kind, size_t start,
                         size_t end) {
  cuemu_token *t;
  size_t i;
  if (L->out->count == L->capacity) {
    size_t cap = L->capacity ? L->capacity * 2 : 256;
    cuemu_token *grown = realloc(L->out->tokens, cap * sizeof *grown);
    if (!grown) return CUEMU_OUT_OF_MEMORY;
    L->out->tokens = grown;
    L->capacity = cap;
  }
  /* A splice right after the token belongs to the whitespace, not to it. */
  for (;;) {
    if (end - start >= 2 && L->s[end - 1] == '\n' && L->s[end - 2] == '\\')
      end -= 2;
    else if (end - start >= 3 && L->s[end - 1] == '\n' &&
             L->s[end - 2] == '\r' && L->s[end - 3] == '\\')
      end -= 3;
    else
      break;
  }
  t = &L->out->tokens[L->out->count++];
  t->kind = kind;
  t->flags = 0;
  t->offset = start;
  t->length = end - start;
  t->line = line_of(L, start);
  for (i = start; i + 1 < end; i++)
    if (splice_at(L, i)) {
      t->flags |= CUEMU_TOKEN_SPLICED;
      break;
    }
  if (kind == CUEMU_TOKEN_DIRECTIVE) {
    L->pending |= CUEMU_TOKEN_AFTER_DIRECTIVE;
  } else if (kind != CUEMU_TOKEN_COMMENT) {
    t->flags |= L->pending;
    L->pending = 0;
  }
  return CUEMU_SUCCESS;
}

/* Skips a block comment starting at the normalised p ("/" then "*"). */
static cuemu_status block_comment(lexer *L, size_t p, size_t *end) {
  size_t start = p;
  p = adv(L, adv(L, p));
  for (;;) {
    if (p >= L->n) return fail(L, start, "unterminated comment");
    if (ch(L, p) == '*' && ch(L, adv(L, p)) == '/') {
      *end = adv(L, p) + 1;
      return CUEMU_SUCCESS;
    }
    p = adv(L, p);
  }
}

/* End of a line comment: the next real newline (not consumed). */
static size_t line_comment(const lexer *L, size_t p) {
  while (p < L->n && ch(L, p) != '\n') p = adv(L, p);
  return p;
}

static size_t ident_end(const lexer *L, size_t p) {
  while (p < L->n && is_ident_char(ch(L, p))) p = adv(L, p);
  return p;
}

/* Ends a quoted literal whose opening quote is at p. In directives a missing
 * closing quote is tolerated (the literal ends at the end of the line). */
static cuemu_status quoted(lexer *L, size_t start, size_t p, int lenient,
                           size_t *end) {
  int quote = ch(L, p);
  p = adv(L, p);
  for (;;) {
    int c = ch(L, p);
    if (p >= L->n || c == '\n') {
      if (lenient) break;
      return fail(L, start, quote == '"' ? "unterminated string literal"
                                         : "unterminated character literal");
    }
    if (c == '\\') {
      p = adv(L, p);
      if (p >= L->n) continue;
    } else if (c == quote) {
      p = adv(L, p);
      if (is_ident_start(ch(L, p))) p = ident_end(L, p); /* ud-suffix */
      break;
    }
    p = adv(L, p);
  }
  *end = p;
  return CUEMU_SUCCESS;
}

/* Ends a raw string whose opening quote is at q (after the R prefix).
 * Splices are not processed inside, so this scans raw bytes. */
static cuemu_status raw_string(lexer *L, size_t start, size_t q, size_t *end) {
  size_t d = q + 1, k, dlen;
  while (d < L->n && d - (q + 1) <= 16 && L->s[d] != '(') {
    char c = L->s[d];
    if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\v' ||
        c == '\f' || c == '\n' || c == '\r' || c == '"')
      return fail(L, start, "invalid raw string delimiter");
    d++;
  }
  if (d >= L->n || L->s[d] != '(')
    return fail(L, start, "invalid raw string delimiter");
  dlen = d - (q + 1);
  for (k = d + 1; k < L->n; k++) {
    if (L->s[k] == ')' && k + dlen + 1 < L->n &&
        memcmp(L->s + k + 1, L->s + q + 1, dlen) == 0 &&
        L->s[k + 1 + dlen] == '"') {
      size_t p = norm(L, k + dlen + 2);
      if (is_ident_start(ch(L, p))) p = ident_end(L, p);
      *end = p;
      return CUEMU_SUCCESS;
    }
  }
  return fail(L, start, "unterminated raw string literal");
}

/* Spelling of [start, end) without splices, truncated to cap - 1 bytes. */
static size_t spell(const lexer *L, size_t start, size_t end, char *buf,
                    size_t cap) {
  size_t len = 0, p = norm(L, start);
  while (p < end) {
    if (len + 1 < cap) buf[len] = L->s[p];
    len++;
    p = adv(L, p);
  }
  if (cap) buf[len < cap ? len : cap - 1] = '\0';
  return len;
}

/* An identifier at [start, end) followed by a quote: is it a literal
 * prefix? Returns 0 (no), 1 (ordinary literal) or 2 (raw string). */
static int literal_prefix(const lexer *L, size_t start, size_t end, int quote) {
  char word[8];
  size_t len = spell(L, start, end, word, sizeof word);
  if (len >= sizeof word) return 0;
  if (!strcmp(word, "u8") || !strcmp(word, "u") || !strcmp(word, "U") ||
      !strcmp(word, "L"))
    return 1;
  if (quote == '"' && (!strcmp(word, "R") || !strcmp(word, "u8R") ||
                       !strcmp(word, "uR") || !strcmp(word, "UR") ||
                       !strcmp(word, "LR")))
    return 2;
  return 0;
}

/* A pp-number starting at the normalised p. */
static size_t number_end(const lexer *L, size_t p) {
  p = adv(L, p);
  for (;;) {
    int c = ch(L, p);
    size_t q = adv(L, p);
    int next = ch(L, q);
    if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') &&
        (next == '+' || next == '-'))
      p = adv(L, q);
    else if (c == '\'' && is_ident_char(next))
      p = adv(L, q);
    else if (is_ident_char(c) || c == '.')
      p = q;
    else
      return p;
  }
}

/* A directive: from # to the end of the logical line. Comments inside it
 * (even multi-line block comments) and literals belong to it. */
static cuemu_status directive(lexer *L, size_t p, size_t *end) {
  cuemu_status st;
  while (p < L->n) {
    int c = ch(L, p);
    if (c == '\n') break;
    if (c == '/' && ch(L, adv(L, p)) == '*') {
      size_t e;
      if ((st = block_comment(L, p, &e)) != CUEMU_SUCCESS) return st;
      p = norm(L, e);
    } else if (c == '/' && ch(L, adv(L, p)) == '/') {
      p = line_comment(L, p);
    } else if (c == '"' || c == '\'') {
      size_t e;
      quoted(L, p, p, 1, &e);
      p = e;
    } else {
      p = adv(L, p);
    }
  }
  *end = p;
  return CUEMU_SUCCESS;
}

size_t cuemu__byte_order_mark_length(const char *text, size_t length) {
  return text && length >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

static cuemu_status lex_all(lexer *L) {
  size_t p = norm(L, cuemu__byte_order_mark_length(L->s, L->n));
  int line_start = 1;
  cuemu_status st = CUEMU_SUCCESS;
  while (p < L->n && st == CUEMU_SUCCESS) {
    int c = ch(L, p);
    size_t start = p, end = p;
    int next;
    if (c == '\n') {
      line_start = 1;
      p = adv(L, p);
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      p = adv(L, p);
      continue;
    }
    next = ch(L, adv(L, p));
    if (c == '/' && next == '*') {
      if ((st = block_comment(L, p, &end)) == CUEMU_SUCCESS)
        st = emit(L, CUEMU_TOKEN_COMMENT, start, end);
      p = norm(L, end);
      continue; /* a comment keeps the start of the line */
    }
    if (c == '/' && next == '/') {
      end = line_comment(L, p);
      st = emit(L, CUEMU_TOKEN_COMMENT, start, end);
      p = end;
      continue;
    }
    if (c == '#' && line_start) {
      if ((st = directive(L, p, &end)) == CUEMU_SUCCESS)
        st = emit(L, CUEMU_TOKEN_DIRECTIVE, start, end);
      p = end;
      continue;
    }
    line_start = 0;
    if (is_ident_start(c)) {
      int prefix;
      end = ident_end(L, p);
      c = ch(L, end);
      prefix = (c == '"' || c == '\'') ? literal_prefix(L, start, end, c) : 0;
      if (prefix == 2) {
        if ((st = raw_string(L, start, end, &end)) == CUEMU_SUCCESS)
          st = emit(L, CUEMU_TOKEN_STRING, start, end);
      } else if (prefix == 1) {
        if ((st = quoted(L, start, end, 0, &end)) == CUEMU_SUCCESS)
          st = emit(L, c == '"' ? CUEMU_TOKEN_STRING : CUEMU_TOKEN_CHAR,
                    start, end);
      } else {
        st = emit(L, CUEMU_TOKEN_IDENT, start, end);
      }
    } else if (is_digit(c) || (c == '.' && is_digit(next))) {
      end = number_end(L, p);
      st = emit(L, CUEMU_TOKEN_NUMBER, start, end);
    } else if (c == '"' || c == '\'') {
      if ((st = quoted(L, start, p, 0, &end)) == CUEMU_SUCCESS)
        st = emit(L, c == '"' ? CUEMU_TOKEN_STRING : CUEMU_TOKEN_CHAR, start,
                  end);
    } else if ((c == ':' && next == ':') || (c == '-' && next == '>')) {
      end = adv(L, p) + 1;
      st = emit(L, CUEMU_TOKEN_PUNCT, start, end);
    } else {
      end = p + 1;
      st = emit(L, CUEMU_TOKEN_PUNCT, start, end);
    }
    p = norm(L, end);
  }
  return st;
}

cuemu_status cuemu__lex(const char *text, size_t length,
                        cuemu_token_list *out) {
  lexer L;
  cuemu_status st;
  if (!out) return CUEMU_INVALID_VALUE;
  memset(out, 0, sizeof *out);
  if (!text && length) return CUEMU_INVALID_VALUE;
  memset(&L, 0, sizeof L);
  L.s = text;
  L.n = length;
  L.out = out;
  L.line = 1;
  st = lex_all(&L);
  if (st != CUEMU_SUCCESS) {
    free(out->tokens);
    out->tokens = NULL;
    out->count = 0;
  }
  return st;
}

void cuemu__token_list_free(cuemu_token_list *list) {
  if (!list) return;
  free(list->tokens);
  list->tokens = NULL;
  list->count = 0;
}

size_t cuemu__token_spelling(const char *text, const cuemu_token *token,
                             char *buf, size_t cap) {
  lexer L;
  if (!(token->flags & CUEMU_TOKEN_SPLICED)) {
    size_t len = token->length;
    if (cap) {
      size_t k = len < cap ? len : cap - 1;
      memcpy(buf, text + token->offset, k);
      buf[k] = '\0';
    }
    return len;
  }
  memset(&L, 0, sizeof L);
  L.s = text;
  L.n = token->offset + token->length;
  return spell(&L, token->offset, L.n, buf, cap);
}

int cuemu__token_is(const char *text, const cuemu_token *token,
                    const char *word) {
  size_t wlen = strlen(word);
  char buf[64];
  if (!(token->flags & CUEMU_TOKEN_SPLICED))
    return token->length == wlen &&
           memcmp(text + token->offset, word, wlen) == 0;
  if (wlen >= sizeof buf) return 0;
  return cuemu__token_spelling(text, token, buf, sizeof buf) == wlen &&
         memcmp(buf, word, wlen) == 0;
}
