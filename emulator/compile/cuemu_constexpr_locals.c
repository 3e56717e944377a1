/*
 * cuemu_constexpr_locals.c: a local variable of non-literal type in a
 * constexpr function template. clang++ 14, which compiles every unit that
 * includes Thrust or CUB, refuses such a variable in any constexpr
 * function ("variable of non-literal type 'X' cannot be defined in a
 * constexpr function"), while nvcc 13.0 (EDG, like g++ 12) takes it in a
 * templated function: a member of a class template, a function template,
 * a generic lambda, which is then simply not a constant expression
 * (C++17 [dcl.constexpr]/5: ill-formed, no diagnostic required).
 * cuCollections' bloom_filter_impl.cuh defines a thrust::constant_iterator
 * so. nvcc refuses it in a plain function, a plain lambda or a member of a
 * plain class, and refuses a call of the template in a constant
 * expression (docs/nvcc-checks.md).
 *
 * Where a pass's messages have such errors, each in a templated function,
 * cuemu_compile.c compiles the unit again with `constexpr` blanked out of
 * those functions in the preprocessed units (lines and columns kept): a
 * call of one in a constant expression is then refused at the user's line
 * ("non-constexpr function"), as nvcc refuses it there. A class
 * template's member defined out of its class, declared `constexpr` in it,
 * is then refused ("non-constexpr declaration of 'f' follows constexpr
 * declaration"): a second round blanks that declaration too.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"
#include "cuemu_line_markers.h"

static const char nonliteral[] = "cannot be defined in a constexpr function";
static const char redeclaration[] = "follows constexpr declaration";
static const char previous[] = ": note: previous declaration is here";

/* A `{` open before the place looked for: where it is, where the text
 * before it that belongs to it (its head) starts, and the depth of
 * parentheses around it. */
typedef struct open_brace {
  size_t open, head;
  int parens;
} open_brace;

/* The end of the literal, marker line or comment at text[i], or i where
 * none starts there. */
static size_t skip_literal(const char *text, size_t size, size_t i) {
  char c = text[i];
  if (c == '#' && (i == 0 || text[i - 1] == '\n')) {
    const char *nl = memchr(text + i, '\n', size - i);
    return nl ? (size_t)(nl - text) : size;
  }
  if (c == '/' && i + 1 < size && text[i + 1] == '/') {
    const char *nl = memchr(text + i, '\n', size - i);
    return nl ? (size_t)(nl - text) : size;
  }
  if (c == '/' && i + 1 < size && text[i + 1] == '*') {
    const char *e = memmem(text + i + 2, size - i - 2, "*/", 2);
    return e ? (size_t)(e - text) + 2 : size;
  }
  if (c != '"' && c != '\'')
    return i;
  /* The word before the quote: a prefix (u8, L, R), or a number whose
   * digit separator this is. */
  size_t w = i;
  while (w > 0 && (cuemu__ident_char(text[w - 1]) || text[w - 1] == '.'))
    w--;
  if (c == '\'' && w < i && text[w] >= '0' && text[w] <= '9')
    return i + 1;
  if (c == '"' && w < i && text[i - 1] == 'R') {
    /* A raw string: R"delim( ... )delim". */
    const char *paren = memchr(text + i, '(', size - i);
    if (!paren)
      return size;
    size_t dlen = (size_t)(paren - text) - i - 1;
    for (const char *p = paren + 1; p < text + size; ++p)
      if (*p == ')' && (size_t)(text + size - p) > dlen + 1 &&
          memcmp(p + 1, text + i + 1, dlen) == 0 && p[dlen + 1] == '"')
        return (size_t)(p - text) + dlen + 2;
    return size;
  }
  for (size_t j = i + 1; j < size; ++j) {
    if (text[j] == '\\')
      j++;
    else if (text[j] == c || text[j] == '\n')
      return j + 1;
  }
  return size;
}

/* The braces open at text[pos] (*count of them, innermost last; to free),
 * or NULL; *statement is where the declaration or statement at pos
 * starts. */
static open_brace *braces_around(const char *text, size_t size, size_t pos,
                                 size_t *count, size_t *statement) {
  open_brace *stack = NULL;
  size_t n = 0, cap = 0, head = 0;
  int parens = 0;
  for (size_t i = 0; i < pos && i < size;) {
    size_t past = skip_literal(text, size, i);
    if (past != i) {
      i = past;
      continue;
    }
    char c = text[i];
    if (c == '(' || c == '[') {
      parens++;
    } else if ((c == ')' || c == ']') && parens > 0) {
      parens--;
    } else if (c == '{') {
      if (n == cap) {
        size_t grown_cap = cap ? 2 * cap : 64;
        open_brace *grown = realloc(stack, grown_cap * sizeof *grown);
        if (!grown) {
          free(stack);
          return NULL;
        }
        stack = grown, cap = grown_cap;
      }
      stack[n++] = (open_brace){i, head, parens};
      parens = 0;
      head = i + 1;
    } else if (c == '}' && n > 0) {
      parens = stack[--n].parens;
      if (parens == 0)
        head = i + 1;
    } else if (c == ';' && parens == 0) {
      head = i + 1;
    }
    i++;
  }
  *count = n;
  *statement = head;
  return stack;
}

/* The next word or punctuation character of text[*i, end) after *i
 * (literals and marker lines skipped): its start and length, or 0 at the
 * end. */
static size_t next_token(const char *text, size_t end, size_t *i) {
  while (*i < end) {
    size_t past = skip_literal(text, end, *i);
    if (past != *i) {
      *i = past;
      continue;
    }
    if (text[*i] == ' ' || text[*i] == '\t' || text[*i] == '\n' ||
        text[*i] == '\r') {
      (*i)++;
      continue;
    }
    size_t len = 1;
    while (cuemu__ident_char(text[*i]) && *i + len < end &&
           cuemu__ident_char(text[*i + len]))
      len++;
    return len;
  }
  return 0;
}

static int is_word(const char *text, size_t at, size_t len, const char *w) {
  return len == strlen(w) && memcmp(text + at, w, len) == 0;
}

/* What a head opens. */
enum { SCOPE_OTHER, SCOPE_CLASS, SCOPE_NAMESPACE };

/* Reads the head text[from, to): the offset of its last `constexpr` that
 * is no `if constexpr` into *keyword (left alone where it has none), what
 * it opens into *scope (a class: `struct`, `class` or `union` outside
 * angle brackets; a namespace or a linkage specification), and whether it
 * makes a template: `template <...>` with parameters (an explicit
 * specialization's `template <>` makes none), or a parameter of type
 * `auto` (a generic lambda, an abbreviated function template). */
static int read_head(const char *text, size_t from, size_t to,
                     size_t *keyword, int *scope) {
  size_t i = from, len, at[3] = {0, 0, 0}, lens[3] = {0, 0, 0};
  int templated = 0, angles = 0;
  *scope = SCOPE_OTHER;
  while ((len = next_token(text, to, &i)) != 0) {
    at[2] = at[1], lens[2] = lens[1];
    at[1] = at[0], lens[1] = lens[0];
    at[0] = i, lens[0] = len;
    i += len;
    if (text[at[0]] == '<')
      angles++;
    else if (text[at[0]] == '>' && angles > 0)
      angles--;
    else if (angles == 0 && (is_word(text, at[0], len, "struct") ||
                             is_word(text, at[0], len, "union") ||
                             (is_word(text, at[0], len, "class") &&
                              !(lens[1] && is_word(text, at[1], lens[1],
                                                   "enum")))))
      *scope = SCOPE_CLASS;
    else if (angles == 0 && (is_word(text, at[0], len, "namespace") ||
                             is_word(text, at[0], len, "extern")))
      *scope = SCOPE_NAMESPACE;
    if (is_word(text, at[0], len, "constexpr") &&
        !(lens[1] && is_word(text, at[1], lens[1], "if")))
      *keyword = at[0];
    if (lens[1] && is_word(text, at[1], lens[1], "template") &&
        text[at[0]] == '<') {
      size_t j = i, next = next_token(text, to, &j);
      templated |= next && text[j] != '>';
    }
    if (is_word(text, at[0], len, "auto") && lens[1] == 1 &&
        (text[at[1]] == ',' ||
         (text[at[1]] == '(' &&
          !(lens[2] && is_word(text, at[2], lens[2], "decltype")))))
      templated = 1;
  }
  return templated;
}

/* The offset of the `constexpr` of the templated function around
 * text[pos], or -1 where the innermost constexpr function around it is no
 * template. As nvcc's front end has it, a function is templated where it
 * is a template itself, or a member of a class template (a nested class's
 * too), not where a template's body holds it (a lambda, a local class's
 * member). */
static long templated_constexpr(const char *text, size_t size, size_t pos) {
  size_t count = 0, statement;
  open_brace *stack = braces_around(text, size, pos, &count, &statement);
  long found = -1;
  int templated = 0, scope;
  size_t k = count;
  while (found < 0 && k-- > 0) {
    size_t keyword = (size_t)-1;
    templated = read_head(text, stack[k].head, stack[k].open, &keyword, &scope);
    if (keyword != (size_t)-1)
      found = (long)keyword;
  }
  /* Out through the classes and namespaces around the function. */
  for (; found >= 0 && !templated && k-- > 0;) {
    size_t keyword = (size_t)-1;
    int t = read_head(text, stack[k].head, stack[k].open, &keyword, &scope);
    if (scope == SCOPE_OTHER)
      break;
    templated = scope == SCOPE_CLASS && t;
  }
  free(stack);
  return templated ? found : -1;
}

/* The offset of the last `constexpr` of the declaration that text[pos]
 * is in, before pos, or -1; *statement is where the declaration starts. */
static long declaration_constexpr(const char *text, size_t size, size_t pos,
                                  size_t *statement) {
  size_t count = 0, keyword = (size_t)-1;
  int scope;
  free(braces_around(text, size, pos, &count, statement));
  read_head(text, *statement, pos, &keyword, &scope);
  return keyword == (size_t)-1 ? -1 : (long)keyword;
}

/* The offset of the `constexpr` that `p` names: the templated function's
 * around a local, or a declaration's. */
static long place_keyword(const char *ii, size_t size,
                          const cuemu_constexpr_place *p, long where) {
  size_t statement;
  if (where < 0)
    return -1;
  return p->declaration
             ? declaration_constexpr(ii, size, (size_t)where, &statement)
             : templated_constexpr(ii, size, (size_t)where);
}

/* The offset in the unit `ii` of the place FILE:LINE:COLUMN, or -1. */
static long place_offset(const char *ii, size_t size,
                         const cuemu_constexpr_place *p) {
  long line = cuemu__unit_line(ii, size, p->file, strlen(p->file), p->line);
  if (line < 0)
    return -1;
  const char *nl = memchr(ii + line, '\n', size - (size_t)line);
  long len = nl ? (long)(nl - ii) - line : (long)size - line;
  long column = p->column > 0 ? p->column - 1 : 0;
  return line + (column < len ? column : len);
}

/* Adds `p` (its file to free) to *places; returns 0 where no memory. */
static int add_place(cuemu_constexpr_places *places, cuemu_constexpr_place p) {
  cuemu_constexpr_place *grown =
      p.file ? realloc(places->at, (places->count + 1) * sizeof *grown) : NULL;
  if (!grown) {
    free(p.file);
    return 0;
  }
  places->at = grown;
  places->at[places->count++] = p;
  return 1;
}

/* Whether the definition at ii[pos] was declared `constexpr` before it
 * and its `constexpr` blanked (at one of the offsets `blanked`): clang++'s
 * "non-constexpr declaration of 'f' follows constexpr declaration" about
 * a class template's member defined out of its class. */
static int blanked_definition(const char *ii, size_t size, long pos,
                              const long *blanked, size_t nblanked) {
  size_t statement;
  if (pos < 0)
    return 0;
  declaration_constexpr(ii, size, (size_t)pos, &statement);
  for (size_t k = 0; k < nblanked; ++k)
    if (blanked[k] >= (long)statement && blanked[k] < pos)
      return 1;
  return 0;
}

int cuemu__constexpr_locals_places(const char *log, size_t size,
                                   const char *ii, size_t ii_size,
                                   const long *blanked, size_t nblanked,
                                   cuemu_constexpr_places *places) {
  int found = 0;
  const char *end = log + size;
  for (const char *line = log; line < end;) {
    const char *nl = memchr(line, '\n', (size_t)(end - line));
    size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
    const char *file;
    size_t file_len;
    long at, column;
    int local = memmem(line, len, nonliteral, sizeof nonliteral - 1) != NULL;
    int redeclared =
        memmem(line, len, redeclaration, sizeof redeclaration - 1) != NULL;
    if ((local || redeclared) &&
        cuemu__error_place(line, len, &file, &file_len, &at, &column)) {
      cuemu_constexpr_place p = {strndup(file, file_len), at, column, 0};
      long where = p.file ? place_offset(ii, ii_size, &p) : -1;
      if (local ? place_keyword(ii, ii_size, &p, where) < 0
                : !blanked_definition(ii, ii_size, where, blanked, nblanked)) {
        free(p.file);
        return 0;
      }
      if (redeclared) {
        /* The declaration before it, which its note names. */
        free(p.file);
        p.file = NULL;
        for (const char *n = line + len + 1; n < end && !p.file;) {
          const char *e = memchr(n, '\n', (size_t)(end - n));
          size_t nlen = e ? (size_t)(e - n) : (size_t)(end - n);
          if (memmem(n, nlen, ": error: ", 9))
            break;
          if (memmem(n, nlen, previous, sizeof previous - 1) &&
              cuemu__error_place(n, nlen, &file, &file_len, &at, &column))
            p = (cuemu_constexpr_place){strndup(file, file_len), at, column, 1};
          n += nlen + 1;
        }
        if (!p.file ||
            place_keyword(ii, ii_size, &p, place_offset(ii, ii_size, &p)) < 0) {
          free(p.file);
          return 0;
        }
      }
      if (!add_place(places, p))
        return 0;
      found = 1;
    }
    line += len + 1;
  }
  return found;
}

void cuemu__constexpr_locals_blank(char *ii, size_t size,
                                   const cuemu_constexpr_places *places,
                                   long **blanked, size_t *nblanked) {
  /* All found before any is blanked: two places may name one. */
  free(*blanked);
  *nblanked = 0;
  *blanked = malloc((places->count + 1) * sizeof **blanked);
  if (!*blanked)
    return;
  for (size_t k = 0; k < places->count; ++k)
    (*blanked)[k] = place_keyword(ii, size, &places->at[k],
                                  place_offset(ii, size, &places->at[k]));
  for (size_t k = 0; k < places->count; ++k) {
    long keyword = (*blanked)[k];
    if (keyword >= 0 && memcmp(ii + keyword, "constexpr", 9) == 0) {
      memset(ii + keyword, ' ', sizeof "constexpr" - 1);
      (*blanked)[(*nblanked)++] = keyword;
    }
  }
}

void cuemu__constexpr_places_free(cuemu_constexpr_places *places) {
  for (size_t k = 0; k < places->count; ++k)
    free(places->at[k].file);
  free(places->at);
  places->at = NULL;
  places->count = 0;
}
