/*
 * cuemu_lexer.h: the tokenizer that cuemu-cc runs over a user's .cu source.
 *
 * It splits the text into C++ preprocessing-level tokens: identifiers,
 * numbers (pp-numbers, so digit separators and hex floats are one token),
 * string and character literals (with their u8/u/U/L prefixes, raw strings
 * and user-defined suffixes), punctuators, comments and whole preprocessor
 * directives. Line splices (a backslash before a newline) are honoured
 * everywhere except inside raw strings, as in translation phase 2. A UTF-8
 * byte-order mark at the start of the text is skipped, as g++ and nvcc skip
 * it; no token covers it.
 *
 * Punctuators are single characters, except `::` and `->`; so `<<<` is three
 * adjacent `<` tokens and `>>` is two `>` tokens, which lets the rewriter
 * balance template argument lists and find launch configurations.
 *
 * Internal to cuemu-cc. Host code, any thread (no global state).
 */
#ifndef CUEMU_LEXER_H
#define CUEMU_LEXER_H

#include <stddef.h>

#include <cuemu/cuemu_status.h>

typedef enum cuemu_token_kind {
  CUEMU_TOKEN_IDENT,     /* identifiers and keywords */
  CUEMU_TOKEN_NUMBER,    /* pp-numbers: 1'000, 0x1.8p+3f, .5e-3 */
  CUEMU_TOKEN_STRING,    /* "..." and R"d(...)d" with prefixes and suffixes */
  CUEMU_TOKEN_CHAR,      /* '...' with prefixes and suffixes */
  CUEMU_TOKEN_PUNCT,     /* one character, or `::` or `->` */
  CUEMU_TOKEN_COMMENT,   /* // ... and / * ... * / */
  CUEMU_TOKEN_DIRECTIVE  /* a whole logical line starting with # */
} cuemu_token_kind;

/* The token's text contains at least one line splice. */
#define CUEMU_TOKEN_SPLICED 1u
/* A directive lies between the previous significant token (not a comment
 * and not a directive) and this one. */
#define CUEMU_TOKEN_AFTER_DIRECTIVE 2u

typedef struct cuemu_token {
  cuemu_token_kind kind;
  unsigned flags;        /* CUEMU_TOKEN_SPLICED, CUEMU_TOKEN_AFTER_DIRECTIVE */
  size_t offset;         /* byte offset of the first character in the text */
  size_t length;         /* bytes, splices included */
  int line;              /* 1-based physical line of the first character */
} cuemu_token;

typedef struct cuemu_token_list {
  cuemu_token *tokens;   /* owned; free with cuemu__token_list_free() */
  size_t count;
  int error_line;        /* on CUEMU_COMPILE: where the bad construct starts */
  const char *error;     /* on CUEMU_COMPILE: a static description */
} cuemu_token_list;

/* Tokenizes text[0, length). The text need not be NUL-terminated. On success
 * *out owns an array of tokens in source order. Returns CUEMU_SUCCESS,
 * CUEMU_COMPILE (unterminated comment, string, character literal or raw
 * string, or a bad raw-string delimiter; out->error and out->error_line say
 * which and where), CUEMU_OUT_OF_MEMORY or CUEMU_INVALID_VALUE. */
cuemu_status cuemu__lex(const char *text, size_t length, cuemu_token_list *out);

/* The length of a UTF-8 byte-order mark at the start of text[0, length):
 * 3, or 0 when there is none. Editors on Windows save sources with one; g++
 * and nvcc skip it, so a directive right after it still starts line 1.
 * Every scan of a user's source skips it (the lexer, and the line scans that
 * look for #include lines). */
size_t cuemu__byte_order_mark_length(const char *text, size_t length);

/* Frees the tokens of a list (safe on a zeroed or already freed list). */
void cuemu__token_list_free(cuemu_token_list *list);

/* Non-zero when the token's spelling (splices removed) equals `word`. */
int cuemu__token_is(const char *text, const cuemu_token *token,
                    const char *word);

/* Copies the token's spelling, splices removed, into buf (at most cap - 1
 * bytes, NUL-terminated when cap > 0) and returns the spelling's full
 * length. */
size_t cuemu__token_spelling(const char *text, const cuemu_token *token,
                             char *buf, size_t cap);

#endif /* CUEMU_LEXER_H */
