/*
 * cuemu_diag_columns.c: the user's columns in the compiler's messages.
 *
 * The compiler gives a message's column in the line it compiled, which on
 * a line that the translation edited (a launch `k<<<g, b>>>(x)`, a kernel's
 * declaration) is cuemu's longer text: g++ said t.cu:7:53 for an error at
 * column 3 of a launch, and drew its caret under blanks past the end of
 * the user's line, which it quotes from the user's file. The translation's
 * edits (cuemu_column_edit, from the rewriter's assembly) map a column of
 * its result back to the text it was given: a column inside an edit's text
 * is the column where the edit stands (the kernel's name, the `<<<`). That
 * preprocessed line is then matched against the user's, which differs
 * where a macro was expanded: a column inside the expansion is the
 * macro's name.
 * g++'s caret line (`    |    ^~~~`) is redrawn under that column, and
 * the label lines under its range (an argument's type) left out; a quote
 * without g++'s margin (clang++'s, of cuemu's line) is left to
 * cuemu__diag_print() (cuemu_diag_lines.c).
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"
#include "cuemu_line_markers.h"
#include "cuemu_rewrite.h"

/* A stretch of the translated unit after one line marker. */
typedef struct block {
  size_t start, end; /* the text after the marker's line, to the next one */
  int line;          /* the line number of its first line */
  const char *file;
  size_t file_len;
} block;

/* The length of the line at `s` (without its newline), within `size`. */
static size_t line_length(const char *s, size_t size) {
  const char *nl = memchr(s, '\n', size);
  return nl ? (size_t)(nl - s) : size;
}

/* The blocks of the unit (freed by the caller); *count of them. */
static block *unit_blocks(const char *unit, size_t size, size_t *count) {
  block *blocks = NULL;
  size_t n = 0, cap = 0;
  for (size_t at = 0; at < size;) {
    size_t len = line_length(unit + at, size - at);
    size_t next = at + len + (at + len < size);
    cuemu_user_marker m;
    if (len > 2 && unit[at] == '#' &&
        cuemu__user_marker(unit + at, len, NULL, 0, &m)) {
      if (n > 0)
        blocks[n - 1].end = at;
      if (n == cap) {
        size_t grown_cap = cap ? 2 * cap : 256;
        block *grown = realloc(blocks, grown_cap * sizeof *grown);
        if (!grown) {
          free(blocks);
          return NULL;
        }
        blocks = grown, cap = grown_cap;
      }
      blocks[n++] = (block){next, size, m.line, m.file, m.file_len};
    }
    at = next;
  }
  *count = n;
  return blocks;
}

/* Whether the marker's `file` is the message's `path`, which may spell
 * the folder `dir` (ending in '/') as `spelled` (cuemu_compile.c's
 * spell_paths()). */
static int same_file(const char *file, size_t file_len, const char *path,
                     size_t path_len, const char *dir, const char *spelled) {
  if (file_len == path_len && memcmp(file, path, path_len) == 0)
    return 1;
  size_t d = strlen(dir), sp = strlen(spelled);
  if (!d || path_len < sp || memcmp(path, spelled, sp) != 0 ||
      (path_len && path[0] == '/'))
    return 0;
  return file_len == d + path_len - sp && memcmp(file, dir, d) == 0 &&
         memcmp(file + d, path + sp, path_len - sp) == 0;
}

/* Where line `line` of `path` starts in the unit, or (size_t)-1: the
 * first stretch that holds the line. The device pass splits a line after a
 * body's `{` (`#pragma cuemu device_code`, then a line marker of the same
 * line and blanks up to the column where the body went on), so a line can
 * stand twice in the unit; *at_column is where the line holding the
 * message's column starts: the last one whose character at `column` (from
 * 1) is not a blank, since a message never points into the blanks that
 * stand for the split's first part (nor into a word or a string
 * literal). A system header's
 * macro expanded on the line (the shims' printf, assert) splits it too,
 * into the macro's parts and the user's arguments between them, and a
 * column can hold text
 * in several of those stretches: when the message quotes a name (`name`,
 * `name_len` bytes, or none), the last stretch where that name stands at
 * the column is taken (an undeclared name in an argument). *sure is set
 * when that name was found or only one stretch holds text at the column:
 * otherwise the column may be one of the macro's own text (a call's
 * "required from here") and is not looked for among its arguments. */
static size_t line_start(const char *unit, const block *blocks, size_t n,
                         const char *path, size_t path_len, const char *dir,
                         const char *spelled, long line, long column,
                         const char *name, size_t name_len,
                         size_t *at_column, int *sure) {
  size_t first = (size_t)-1, named = (size_t)-1, holding = 0;
  *at_column = (size_t)-1;
  for (size_t b = 0; b < n; ++b) {
    if (blocks[b].line > line ||
        !same_file(blocks[b].file, blocks[b].file_len, path, path_len, dir,
                   spelled))
      continue;
    size_t at = blocks[b].start;
    long left = line - blocks[b].line;
    while (left > 0 && at < blocks[b].end) {
      const char *nl = memchr(unit + at, '\n', blocks[b].end - at);
      if (!nl)
        break;
      at = (size_t)(nl - unit) + 1;
      --left;
    }
    if (left != 0 || at >= blocks[b].end)
      continue;
    /* A message's column is where a token starts: not a blank, and not
     * inside a word. */
    size_t len = line_length(unit + at, blocks[b].end - at);
    int holds = 0;
    if (column > 0 && (size_t)column <= len) {
      const char *t = unit + at + column - 1;
      int quotes = 0; /* the '"'s before t: odd inside a string literal */
      for (const char *q = unit + at; q < t; ++q)
        quotes += *q == '"' && (q == unit + at || q[-1] != '\\');
      holds = *t != ' ' && quotes % 2 == 0 &&
              !(column > 1 && cuemu__ident_char(*t) &&
                cuemu__ident_char(t[-1]));
    }
    holding += holds;
    if (first == (size_t)-1)
      first = *at_column = at;
    else if (holds)
      *at_column = at;
    size_t c = (size_t)column - 1;
    if (holds && name_len && c + name_len <= len &&
        memcmp(unit + at + c, name, name_len) == 0 &&
        (c + name_len == len || !cuemu__ident_char(unit[at + c + name_len])))
      named = at;
  }
  if (named != (size_t)-1)
    *at_column = named;
  *sure = named != (size_t)-1 || holding <= 1;
  return first;
}

/* The name that the message `s` (`len` bytes) quotes first, in g++'s
 * quotes (‘name’, or 'name' in the C locale), when it is an identifier:
 * *name_len bytes at the result, or NULL. */
static const char *quoted_name(const char *s, size_t len, size_t *name_len) {
  for (size_t i = 0; i < len; ++i) {
    size_t open = 0;
    if (s[i] == '\'')
      open = 1;
    else if (i + 3 <= len && memcmp(s + i, "\xe2\x80\x98", 3) == 0)
      open = 3;
    if (!open)
      continue;
    size_t j = i + open;
    while (j < len && cuemu__ident_char(s[j]))
      ++j;
    if (j > i + open &&
        ((j < len && s[j] == '\'') ||
         (j + 3 <= len && memcmp(s + j, "\xe2\x80\x99", 3) == 0))) {
      *name_len = j - (i + open);
      return s + i + open;
    }
    return NULL;
  }
  return NULL;
}

/* The offset in the translation's input of `out`, an offset of its
 * result. */
static size_t input_offset(const cuemu_column_edit *edits, size_t n,
                           size_t out) {
  size_t lo = 0, hi = n;
  while (lo < hi) { /* the first edit that starts after `out` */
    size_t mid = lo + (hi - lo) / 2;
    if (edits[mid].out <= out)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return out;
  const cuemu_column_edit *e = &edits[lo - 1];
  return out < e->out_end ? e->in : e->in_end + (out - e->out_end);
}

static int blank(char c) { return c == ' ' || c == '\t'; }

/* The column (0-based) in the user's line (`user_len` bytes) of column
 * `column` of the preprocessed line `pp` when that line, without the blanks
 * around it, stands exactly once in the user's line, or (size_t)-1: a line
 * that the preprocessor split out of the user's, such as the arguments of
 * the shims' printf macro, which it writes on a line of their own between
 * the parts of the expansion (so that a message about an argument points
 * at the argument, not at `printf`). */
static size_t split_out_column(const char *pp, size_t pp_len,
                               const char *user, size_t user_len,
                               size_t column) {
  size_t s = 0, e = pp_len;
  while (s < e && blank(pp[s]))
    ++s;
  while (e > s && blank(pp[e - 1]))
    --e;
  if (s == e || column < s || column >= e)
    return (size_t)-1;
  const char *found = NULL;
  for (const char *p = user; (size_t)(p - user) < user_len; ++p) {
    p = memmem(p, user_len - (size_t)(p - user), pp + s, e - s);
    if (!p)
      break;
    if (found)
      return (size_t)-1; /* twice: no one place */
    found = p;
  }
  return found ? (size_t)(found - user) + (column - s) : (size_t)-1;
}

/* The column (0-based) in the user's line `user` of column `column` of the
 * preprocessed line `pp` (`pp_len` bytes), which differs from it where a
 * macro was expanded, and in its blanks: the two lines are walked together
 * from their starts and from their ends, a run of blanks matching any
 * other; a column in neither common stretch is in an expansion or, with
 * `split_out`, in a part of the user's line that the preprocessor split out
 * (found by split_out_column()), and otherwise is the start of the word
 * where the lines first differ (the macro's name). */
static size_t user_column(const char *pp, size_t pp_len, const char *user,
                          size_t column, int split_out) {
  size_t user_len = strlen(user);
  if (pp_len == user_len && memcmp(pp, user, pp_len) == 0)
    return column;
  size_t i = 0, j = 0;
  while (i < pp_len && j < user_len) {
    if (blank(pp[i]) && blank(user[j])) {
      while (i < pp_len && blank(pp[i]))
        ++i;
      while (j < user_len && blank(user[j]))
        ++j;
      if (column < i)
        return j;
      continue;
    }
    if (pp[i] != user[j])
      break;
    if (column == i)
      return j;
    ++i, ++j;
  }
  size_t first = j; /* where the lines first differ */
  size_t a = pp_len, b = user_len;
  while (a > i && b > j) {
    if (blank(pp[a - 1]) && blank(user[b - 1])) {
      size_t end = a;
      while (a > i && blank(pp[a - 1]))
        --a;
      while (b > j && blank(user[b - 1]))
        --b;
      if (column >= a && column < end)
        return b;
      continue;
    }
    if (pp[a - 1] != user[b - 1])
      break;
    --a, --b;
    if (column == a)
      return b;
  }
  size_t split = split_out ? split_out_column(pp, pp_len, user, user_len,
                                              column)
                            : (size_t)-1;
  if (split != (size_t)-1)
    return split;
  while (first > 0 && cuemu__ident_char(user[first - 1]))
    --first;
  return first;
}

/* Whether the line is g++'s quote of a source line (`  7 | code`) or its
 * caret line (`    | ^~~`); *bar is where its '|' stands. */
static int gutter(const char *s, size_t len, int number, size_t *bar) {
  size_t i = 0;
  while (i < len && s[i] == ' ')
    ++i;
  if (number) {
    size_t digits = i;
    while (i < len && s[i] >= '0' && s[i] <= '9')
      ++i;
    if (i == digits || i >= len || s[i] != ' ')
      return 0;
    ++i;
  }
  if (i + 1 >= len || s[i] != '|' || s[i + 1] != ' ')
    return 0;
  *bar = i;
  return 1;
}

char *cuemu__diag_columns(const char *text, size_t size, const char *unit,
                          size_t unit_size, const cuemu_column_edit *edits,
                          size_t nedits, const char *input, size_t input_size,
                          const char *dir, const char *spelled,
                          size_t *out_size) {
  if (!text || !unit || nedits == 0)
    return NULL;
  size_t nblocks = 0;
  block *blocks = unit_blocks(unit, unit_size, &nblocks);
  if (!blocks)
    return NULL;
  char *out = NULL;
  FILE *f = open_memstream(&out, out_size);
  if (!f) {
    free(blocks);
    return NULL;
  }
  int changed = 0;
  long moved = -1; /* the new column of the message just printed, 0-based */
  int labels = 0;  /* g++'s label lines under a redrawn caret follow */
  for (size_t at = 0; at < size;) {
    size_t len = line_length(text + at, size - at);
    size_t next = at + len + (at + len < size);
    const char *s = text + at;
    size_t from, to, bar;
    if (labels && gutter(s, len, 0, &bar)) {
      /* A label under the translation's range (an argument's type), in
       * the columns of the translation: left out. */
      at = next;
      continue;
    }
    labels = 0;
    if (cuemu__diag_place_column(s, len, &from, &to)) {
      moved = -1;
      size_t path_end = from;
      while (path_end > 0 && s[path_end - 1] != ':')
        --path_end;
      long line = strtol(s + path_end, NULL, 10);
      long column = strtol(s + from + 1, NULL, 10);
      size_t physical = (size_t)-1, name_len = 0;
      int sure = 0;
      const char *name = quoted_name(s + to, len - to, &name_len);
      size_t start = path_end > 0 ? line_start(unit, blocks, nblocks, s,
                                               path_end - 1, dir, spelled,
                                               line, column, name, name_len,
                                               &physical, &sure)
                                  : (size_t)-1;
      if (start != (size_t)-1 && column > 0 &&
          (size_t)column - 1 <=
              line_length(unit + physical, unit_size - physical)) {
        /* The preprocessed line that holds the column: the one where the
         * unit's line starts, or a later one where the preprocessor split
         * the user's line (a system header's macro expanded on it, such as
         * the shims' printf, puts line markers inside the expansion). */
        size_t in_start = input_offset(edits, nedits, start);
        if (input) {
          size_t in_line = input_offset(edits, nedits, physical);
          while (in_line > in_start && in_line <= input_size &&
                 input[in_line - 1] != '\n')
            --in_line;
          in_start = in_line;
        }
        size_t user =
            input_offset(edits, nedits, physical + (size_t)column - 1) -
            in_start;
        /* The preprocessed line against the user's, where a macro was
         * expanded on it. */
        char path[4096];
        char *line_text = NULL;
        if (input && in_start < input_size && path_end - 1 < sizeof path) {
          memcpy(path, s, path_end - 1);
          path[path_end - 1] = '\0';
          line_text = cuemu__diag_file_line(path, line);
        }
        if (line_text) {
          user = user_column(input + in_start,
                             line_length(input + in_start,
                                         input_size - in_start),
                             line_text, user, sure);
          free(line_text);
        }
        if ((long)user + 1 != column) {
          fprintf(f, "%.*s%ld%.*s\n", (int)from + 1, s, (long)user + 1,
                  (int)(len - to), s + to);
          moved = (long)user;
          changed = 1;
          at = next;
          continue;
        }
      }
    } else if (moved >= 0 && gutter(s, len, 0, &bar)) {
      /* g++'s caret line under the quote: the caret at the user's
       * column, without the range (which was the translation's). */
      size_t caret = bar + 2;
      if (memchr(s + caret, '^', len - caret)) {
        fprintf(f, "%.*s%*s^\n", (int)caret, s, (int)moved, "");
        moved = -1;
        labels = 1;
        at = next;
        continue;
      }
    } else if (moved >= 0 && !gutter(s, len, 1, &bar)) {
      moved = -1; /* no g++ quote follows the message */
    }
    fwrite(s, 1, next - at, f);
    at = next;
  }
  free(blocks);
  if (fclose(f) != 0 || !changed) {
    free(out);
    return NULL;
  }
  return out;
}
