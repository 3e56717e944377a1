/*
 * cuemu_rewriter.c: token helpers, edits, messages and string building for
 * the source rewriter (see cuemu_rewriter.h).
 */
#include "cuemu_rewriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cuemu__rw_is(const cuemu_rewriter *rw, size_t i, const char *word) {
  return i < rw->n && cuemu__token_is(rw->text, &rw->toks[i], word);
}

int cuemu__rw_ident(const cuemu_rewriter *rw, size_t i) {
  return i < rw->n && rw->toks[i].kind == CUEMU_TOKEN_IDENT;
}

int cuemu__rw_adjacent(const cuemu_rewriter *rw, size_t i) {
  return i + 1 < rw->n &&
         rw->toks[i].offset + rw->toks[i].length == rw->toks[i + 1].offset;
}

int cuemu__rw_same(const cuemu_rewriter *rw, size_t a, size_t b) {
  return a < rw->n && b < rw->n && rw->toks[a].length == rw->toks[b].length &&
         memcmp(rw->text + rw->toks[a].offset, rw->text + rw->toks[b].offset,
                rw->toks[a].length) == 0;
}

int cuemu__rw_spells(const cuemu_rewriter *rw, size_t k, const char *op) {
  size_t n = strlen(op);
  if (k + n > rw->n)
    return 0;
  for (size_t c = 0; c < n; c++) {
    const cuemu_token *t = &rw->toks[k + c];
    if (t->length != 1 || rw->text[t->offset] != op[c] ||
        (c > 0 && t->offset != rw->toks[k + c - 1].offset + 1))
      return 0;
  }
  return 1;
}

int cuemu__rw_chevrons(const cuemu_rewriter *rw, size_t i, const char *c) {
  if (!cuemu__rw_is(rw, i, c) || !cuemu__rw_is(rw, i + 1, c) ||
      !cuemu__rw_is(rw, i + 2, c) || !cuemu__rw_adjacent(rw, i))
    return 0;
  /* `operator<< <T>(a, b)` names a template operator: no launch. */
  if (i > 0 && cuemu__rw_is(rw, i - 1, "operator"))
    return 0;
  if (cuemu__rw_adjacent(rw, i + 1))
    return 1;
  /* nvcc reads `k<< <g, b>> >(x)` (an editor's formatting) as a launch: the
   * third character may follow blanks or comments, for `<` on the same
   * line only. */
  return c[0] == '>' || rw->toks[i + 2].line == rw->toks[i + 1].line;
}

static int is_opener(const cuemu_rewriter *rw, size_t i) {
  return rw->toks[i].kind == CUEMU_TOKEN_PUNCT && rw->toks[i].length == 1 &&
         strchr("([{", rw->text[rw->toks[i].offset]) != NULL;
}

static int is_closer(const cuemu_rewriter *rw, size_t i) {
  return rw->toks[i].kind == CUEMU_TOKEN_PUNCT && rw->toks[i].length == 1 &&
         strchr(")]}", rw->text[rw->toks[i].offset]) != NULL;
}

size_t cuemu__rw_close(const cuemu_rewriter *rw, size_t i) {
  size_t depth = 0;
  for (; i < rw->n; i++) {
    if (is_opener(rw, i)) {
      depth++;
    } else if (is_closer(rw, i)) {
      if (depth == 0) return rw->n;
      if (--depth == 0) return i;
    }
  }
  return rw->n;
}

size_t cuemu__rw_open(const cuemu_rewriter *rw, size_t i) {
  size_t depth = 0;
  for (i++; i-- > 0;) {
    if (is_closer(rw, i)) {
      depth++;
    } else if (is_opener(rw, i)) {
      if (depth == 0) return (size_t)-1;
      if (--depth == 0) return i;
    }
  }
  return (size_t)-1;
}

int cuemu__rw_requires_body(const cuemu_rewriter *rw, size_t i) {
  if (i == 0 || i >= rw->n || !cuemu__rw_is(rw, i, "{")) return 0;
  if (cuemu__rw_is(rw, i - 1, "requires")) return 1;
  if (!cuemu__rw_is(rw, i - 1, ")")) return 0;
  size_t open = cuemu__rw_open(rw, i - 1);
  if (open == (size_t)-1 || open == 0 || !cuemu__rw_is(rw, open - 1, "requires"))
    return 0;
  /* Before C++20 `requires` may name a function (`int requires(int) {`):
   * a type, `::`, `*` or `>` before it says so. */
  size_t r = open - 1;
  return r == 0 || !(cuemu__rw_is(rw, r - 1, "::") ||
                     cuemu__rw_is(rw, r - 1, "*") ||
                     cuemu__rw_is(rw, r - 1, ">") ||
                     (cuemu__rw_ident(rw, r - 1) &&
                      !cuemu__rw_is(rw, r - 1, "requires")));
}

/* An identifier that introduces a parenthesised attribute. */
static int attribute_name(const cuemu_rewriter *rw, size_t i) {
  char buf[64];
  size_t len;
  if (!cuemu__rw_ident(rw, i)) return 0;
  len = cuemu__token_spelling(rw->text, &rw->toks[i], buf, sizeof buf);
  if (len >= sizeof buf) return 0;
  if (!strcmp(buf, "alignas") || !strcmp(buf, "__declspec")) return 1;
  return len >= 5 && buf[0] == '_' && buf[1] == '_' && buf[len - 1] == '_' &&
         buf[len - 2] == '_';
}

size_t cuemu__rw_skip_attribute(const cuemu_rewriter *rw, size_t i) {
  if (cuemu__rw_is(rw, i, "[") && cuemu__rw_is(rw, i + 1, "[")) {
    size_t inner = cuemu__rw_close(rw, i + 1);
    size_t outer = cuemu__rw_close(rw, i);
    if (inner < rw->n && outer == inner + 1) return outer + 1;
    return i;
  }
  if (attribute_name(rw, i) && cuemu__rw_is(rw, i + 1, "(")) {
    size_t close = cuemu__rw_close(rw, i + 1);
    if (close < rw->n) return close + 1;
  }
  return i;
}

size_t cuemu__rw_attribute_start(const cuemu_rewriter *rw, size_t i) {
  size_t open;
  if (i >= rw->n) return i;
  if (cuemu__rw_is(rw, i, "]") && i > 0 && cuemu__rw_is(rw, i - 1, "]")) {
    open = cuemu__rw_open(rw, i);
    if (open != (size_t)-1 && cuemu__rw_is(rw, open + 1, "[") &&
        cuemu__rw_close(rw, open + 1) == i - 1)
      return open;
  } else if (cuemu__rw_is(rw, i, ")")) {
    open = cuemu__rw_open(rw, i);
    if (open != (size_t)-1 && open > 0 && attribute_name(rw, open - 1))
      return open - 1;
  }
  return i;
}

cuemu_status cuemu__rw_edit(cuemu_rewriter *rw, size_t offset, size_t removed,
                            const char *text, size_t length) {
  cuemu_edit *e;
  if (rw->edit_count == rw->edit_capacity) {
    size_t cap = rw->edit_capacity ? rw->edit_capacity * 2 : 64;
    cuemu_edit *grown = realloc(rw->edits, cap * sizeof *grown);
    if (!grown) return CUEMU_OUT_OF_MEMORY;
    rw->edits = grown;
    rw->edit_capacity = cap;
  }
  e = &rw->edits[rw->edit_count];
  e->text = malloc(length + 1);
  if (!e->text) return CUEMU_OUT_OF_MEMORY;
  memcpy(e->text, text, length);
  e->text[length] = '\0';
  e->length = length;
  e->offset = offset;
  e->removed = removed;
  e->seq = rw->edit_count++;
  return CUEMU_SUCCESS;
}

void cuemu__rw_where(const cuemu_rewriter *rw, int phys, const char **file,
                     int *line) {
  size_t lo = 0, hi = rw->marker_count;
  *file = rw->filename ? rw->filename : "<input>";
  *line = phys;
  /* The last marker before the line (markers come in text order). */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (rw->markers[mid].phys < phys)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo > 0) {
    const cuemu_line_marker *m = &rw->markers[lo - 1];
    *file = m->file;
    *line = m->line + (phys - m->phys - 1);
  }
}

cuemu_status cuemu__rw_error(cuemu_rewriter *rw, int line, const char *what) {
  const char *file;
  int user_line;
  cuemu__rw_where(rw, line, &file, &user_line);
  snprintf(rw->message, rw->message_size, "%s:%d: %s", file, user_line, what);
  return CUEMU_COMPILE;
}

void cuemu__rw_diagnose(cuemu_rewriter *rw, size_t token, int level,
                        const char *option, const char *what) {
  const char *file;
  int user_line;
  char line[1024];
  if (level == 0 || token >= rw->n ||
      (rw->toks[token].flags & (CUEMU_TOKEN_FOREIGN | CUEMU_TOKEN_SHIM)))
    return;
  cuemu__rw_where(rw, rw->toks[token].line, &file, &user_line);
  if (level == 3) /* -diag-error: nvcc's error drops the number */
    snprintf(line, sizeof line, "%s:%d: error: %s\n", file, user_line, what);
  else if (option[0] >= '0' && option[0] <= '9')
    snprintf(line, sizeof line, "%s:%d: %s #%s: %s\n", file, user_line,
             level == 2 ? "error" : "warning", option, what);
  else
    snprintf(line, sizeof line, "%s:%d: %s: %s [-W%s%s]\n", file, user_line,
             level == 2 ? "error" : "warning", what,
             level == 2 ? "error=" : "", option);
  cuemu__sb_str(&rw->diagnostics, line);
  if (level >= 2) rw->diagnostic_errors++;
}

void cuemu__sb_add(cuemu_strbuf *sb, const char *s, size_t length) {
  if (sb->oom) return;
  if (sb->length + length + 1 > sb->capacity) {
    size_t cap = sb->capacity ? sb->capacity : 64;
    char *grown;
    while (cap < sb->length + length + 1) cap *= 2;
    grown = realloc(sb->data, cap);
    if (!grown) {
      sb->oom = 1;
      return;
    }
    sb->data = grown;
    sb->capacity = cap;
  }
  memcpy(sb->data + sb->length, s, length);
  sb->length += length;
  sb->data[sb->length] = '\0';
}

void cuemu__sb_str(cuemu_strbuf *sb, const char *s) {
  cuemu__sb_add(sb, s, strlen(s));
}

void cuemu__sb_tokens(cuemu_strbuf *sb, const cuemu_rewriter *rw, size_t from,
                      size_t to, int skip_attributes) {
  size_t i = from, last = (size_t)-1;
  while (i < to) {
    const cuemu_token *t = &rw->toks[i];
    size_t after = skip_attributes ? cuemu__rw_skip_attribute(rw, i) : i;
    if (after != i) {
      i = after;
      continue;
    }
    if (last != (size_t)-1 &&
        rw->toks[last].offset + rw->toks[last].length != t->offset)
      cuemu__sb_add(sb, " ", 1);
    if (t->flags & CUEMU_TOKEN_SPLICED) {
      size_t len = cuemu__token_spelling(rw->text, t, NULL, 0);
      char *buf = malloc(len + 1);
      if (!buf) {
        sb->oom = 1;
        return;
      }
      cuemu__token_spelling(rw->text, t, buf, len + 1);
      cuemu__sb_add(sb, buf, len);
      free(buf);
    } else {
      cuemu__sb_add(sb, rw->text + t->offset, t->length);
    }
    last = i++;
  }
}

/* The `<` matching the `>` at token k, going backwards over balanced
 * brackets; (size_t)-1 if none. */
size_t cuemu__rw_template_open(const cuemu_rewriter *rw, size_t k) {
  size_t depth = 0;
  for (k++; k-- > 0;) {
    if (cuemu__rw_is(rw, k, ")") || cuemu__rw_is(rw, k, "]") ||
        (depth > 0 && cuemu__rw_is(rw, k, "}"))) {
      /* A `}` inside the arguments closes a braced initializer (a C++20
       * class-type argument: `k<Config{2, 1}>`). */
      k = cuemu__rw_open(rw, k);
      if (k == (size_t)-1) return k;
    } else if (cuemu__rw_is(rw, k, ">")) {
      depth++;
    } else if (cuemu__rw_is(rw, k, "<")) {
      if (--depth == 0) return k;
    } else if (cuemu__rw_is(rw, k, ";") || cuemu__rw_is(rw, k, "{") ||
               cuemu__rw_is(rw, k, "}") || cuemu__rw_is(rw, k, "(") ||
               cuemu__rw_is(rw, k, "[")) {
      return (size_t)-1;
    }
  }
  return (size_t)-1;
}

size_t cuemu__rw_template_close(const cuemu_rewriter *rw, size_t k) {
  size_t depth = 0;
  for (; k < rw->n; k++) {
    if (cuemu__rw_is(rw, k, "(") || cuemu__rw_is(rw, k, "[") ||
        cuemu__rw_is(rw, k, "{")) {
      k = cuemu__rw_close(rw, k);
      if (k >= rw->n) return rw->n;
    } else if (cuemu__rw_is(rw, k, "<")) {
      depth++;
    } else if (cuemu__rw_is(rw, k, ">")) {
      if (--depth == 0) return k;
    } else if (cuemu__rw_is(rw, k, ";")) {
      return rw->n;
    }
  }
  return rw->n;
}
