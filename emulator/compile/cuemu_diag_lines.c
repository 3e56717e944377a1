/*
 * cuemu_diag_lines.c: the user's source lines in clang++'s messages.
 *
 * g++ quotes a message's source line from the file that the line markers
 * name, so its quote is the user's line. clang++ quotes the line of the
 * unit it compiled, which for a kernel's declaration is cuemu's
 * translation of it: a message about a kernel of a unit that includes CUB
 * or Thrust (which clang++ compiles) quoted a line of
 * `__attribute__((weak, noinline, ...)) ... CUEMU_KERNEL_HOST_FORWARD(...)`
 * and `_Pragma`s, with the caret under the kernel's name there
 * (tests/driver_warnings.sh). Such a quote is replaced by the user's line,
 * with the caret and the message's column moved to the same word in it
 * (or without a caret where the word is not in it).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"

/* The length of the line at `s` (without its newline), within `size`. */
static size_t line_length(const char *s, size_t size) {
  const char *nl = memchr(s, '\n', size);
  return nl ? (size_t)(nl - s) : size;
}

/* Whether the line is a caret line: spaces, then '^', then '~'s. */
static int caret_line(const char *s, size_t len, size_t *caret) {
  size_t i = 0;
  while (i < len && s[i] == ' ')
    ++i;
  if (i == len || s[i] != '^')
    return 0;
  *caret = i;
  for (size_t j = i + 1; j < len; ++j)
    if (s[j] != '~' && s[j] != ' ')
      return 0;
  return 1;
}

char *cuemu__diag_file_line(const char *path, long number) {
  FILE *f = fopen(path, "re");
  if (!f)
    return NULL;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = 0;
  for (long at = 1; (n = getline(&line, &cap, f)) >= 0 && at < number; ++at)
    ;
  fclose(f);
  if (n < 0) {
    free(line);
    return NULL;
  }
  while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
    line[--n] = '\0';
  return line;
}

int cuemu__diag_place_column(const char *line, size_t len, size_t *from,
                             size_t *to) {
  for (size_t i = 0; i + 1 < len; ++i) {
    if (line[i] != ':' || !isdigit((unsigned char)line[i + 1]))
      continue;
    size_t j = i + 1;
    while (j < len && isdigit((unsigned char)line[j]))
      ++j;
    if (j + 1 >= len || line[j] != ':' ||
        !isdigit((unsigned char)line[j + 1]))
      continue;
    size_t k = j + 1;
    while (k < len && isdigit((unsigned char)line[k]))
      ++k;
    if (k < len && line[k] == ':') {
      *from = j;
      *to = k;
      return 1;
    }
  }
  return 0;
}

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Where the whole word `word` (`len` bytes) first stands in `line`, or -1. */
static long find_word(const char *line, const char *word, size_t len) {
  size_t n = strlen(line);
  for (size_t i = 0; len && i + len <= n; ++i)
    if (memcmp(line + i, word, len) == 0 && (i == 0 || !word_char(line[i - 1])) &&
        (i + len == n || !word_char(line[i + len])))
      return (long)i;
  return -1;
}

/* Prints the message `place` (its first line, `len` bytes, whose line and
 * column are place[line_at..column_at) and place[column_at + 1..column_end),
 * see place_column() in cuemu_compile.c) with the user's line instead of
 * the quoted `echo` and a caret moved there. Returns 0 (printing nothing)
 * when the quote is the user's line or the file cannot be read. */
static int print_user_line(const char *place, size_t len, size_t path_end,
                           size_t column_at, size_t column_end,
                           const char *echo, size_t echo_len, size_t caret,
                           FILE *out) {
  char path[4096];
  if (path_end >= sizeof path)
    return 0;
  memcpy(path, place, path_end);
  path[path_end] = '\0';
  char *user = cuemu__diag_file_line(path, strtol(place + path_end + 1, NULL, 10));
  if (!user)
    return 0;
  if (strlen(user) == echo_len && memcmp(user, echo, echo_len) == 0) {
    free(user);
    return 0;
  }
  /* The word under the caret in the quote, and where it is in the user's
   * line. */
  size_t from = caret, to = caret;
  while (from > 0 && from <= echo_len && word_char(echo[from - 1]))
    --from;
  while (to < echo_len && word_char(echo[to]))
    ++to;
  long at = to > from ? find_word(user, echo + from, to - from) : -1;
  if (at >= 0) {
    fprintf(out, "%.*s%ld%.*s\n", (int)column_at + 1, place, at + 1,
            (int)(len - column_end), place + column_end);
    fprintf(out, "%s\n%*s^", user, (int)at, "");
    for (size_t i = from + 1; i < to; ++i)
      fputc('~', out);
    fputc('\n', out);
  } else {
    fprintf(out, "%.*s\n%s\n", (int)len, place, user);
  }
  free(user);
  return 1;
}

int cuemu__diag_quote_at(const char *text, size_t size, size_t at) {
  size_t n = line_length(text + at, size - at), from, to, caret;
  size_t next = at + n + 1;
  return next < size && !cuemu__diag_place_column(text + at, n, &from, &to) &&
         caret_line(text + next, line_length(text + next, size - next), &caret);
}

void cuemu__diag_print(const char *text, size_t size, FILE *out) {
  size_t at = 0;
  while (at < size) {
    size_t n = line_length(text + at, size - at);
    size_t next = at + n + (at + n < size);
    size_t from = 0, to = 0;
    int done = 0;
    if (cuemu__diag_place_column(text + at, n, &from, &to) && next < size) {
      /* The line number starts after the ':' before it. */
      size_t path_end = from;
      while (path_end > 0 && text[at + path_end - 1] != ':')
        --path_end;
      size_t echo_len = line_length(text + next, size - next);
      size_t caret_at = next + echo_len + (next + echo_len < size);
      size_t caret_len = caret_at < size ? line_length(text + caret_at,
                                                       size - caret_at)
                                         : 0;
      size_t caret = 0;
      if (path_end > 0 && caret_at < size &&
          caret_line(text + caret_at, caret_len, &caret) &&
          print_user_line(text + at, n, path_end - 1, from, to, text + next,
                          echo_len, caret, out)) {
        at = caret_at + caret_len + (caret_at + caret_len < size);
        done = 1;
      }
    }
    if (!done) {
      fwrite(text + at, 1, next - at, out);
      at = next;
    }
  }
}
