/*
 * cuemu_name_expressions.c: name expressions that use the source's macros
 * (see cuemu_name_expressions.h).
 */
#define _GNU_SOURCE /* memmem */
#include "cuemu_name_expressions.h"

#include <stdlib.h>
#include <string.h>

#define BEGIN_MARK "__cuemu_name_expression_begin__"
#define END_MARK "__cuemu_name_expression_end__"

static int ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

/* Non-zero when [word, word + n) occurs in the text as a whole token. */
static int has_token(const char *text, size_t size, const char *word,
                     size_t n) {
  const char *end = text + size;
  for (const char *p = text; (size_t)(end - p) >= n;) {
    const char *hit = memmem(p, (size_t)(end - p), word, n);
    if (!hit)
      return 0;
    if ((hit == text || !ident_char(hit[-1])) &&
        (hit + n == end || !ident_char(hit[n])))
      return 1;
    p = hit + 1;
  }
  return 0;
}

int cuemu__name_expressions_use_macros(const char *text, size_t size,
                                       const char *const *names, int count) {
  for (int i = 0; i < count; ++i) {
    for (const char *p = names[i]; *p;) {
      if (!ident_start(*p)) {
        /* A number's letters (0x10, 1.5f, 2u) are no identifiers. */
        if (*p >= '0' && *p <= '9')
          while (ident_char(*p) || *p == '.')
            p++;
        else
          p++;
        continue;
      }
      const char *start = p;
      while (ident_char(*p))
        p++;
      if (!has_token(text, size, start, (size_t)(p - start)))
        return 1;
    }
  }
  return 0;
}

int cuemu__name_expressions_write_probe(FILE *out, const char *source,
                                        const char *const *names, int count) {
  if (strpbrk(source, "\"\\\n"))
    return -1;
  fprintf(out, "#include \"%s\"\n", source);
  for (int i = 0; i < count; ++i) {
    if (strchr(names[i], '\n'))
      return -1;
    fprintf(out, BEGIN_MARK " %s " END_MARK "\n", names[i]);
  }
  return ferror(out) ? -1 : 0;
}

void cuemu__name_expressions_free(char **expanded, int count) {
  if (!expanded)
    return;
  for (int i = 0; i < count; ++i)
    free(expanded[i]);
  free(expanded);
}

char **cuemu__name_expressions_read_probe(const char *text, size_t size,
                                          int count) {
  char **expanded = calloc((size_t)count + 1, sizeof *expanded);
  if (!expanded)
    return NULL;
  const char *end = text + size;
  const char *p = text;
  for (int i = 0; i < count; ++i) {
    const char *b = memmem(p, (size_t)(end - p), BEGIN_MARK,
                           sizeof BEGIN_MARK - 1);
    const char *e = b ? memmem(b, (size_t)(end - b), END_MARK,
                               sizeof END_MARK - 1)
                      : NULL;
    char *s = e ? malloc((size_t)(e - b) + 1) : NULL;
    if (!s) {
      cuemu__name_expressions_free(expanded, count);
      return NULL;
    }
    /* The text between the markers, its white space collapsed. */
    size_t n = 0;
    for (const char *q = b + sizeof BEGIN_MARK - 1; q < e; ++q) {
      const int space = *q == ' ' || *q == '\t' || *q == '\n' || *q == '\r';
      if (space) {
        if (n && s[n - 1] != ' ')
          s[n++] = ' ';
      } else {
        s[n++] = *q;
      }
    }
    while (n && s[n - 1] == ' ')
      n--;
    s[n] = '\0';
    expanded[i] = s;
    p = e + sizeof END_MARK - 1;
  }
  return expanded;
}
