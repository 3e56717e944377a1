/*
 * cuemu_diag_context.c: the instantiation context of the compiler's
 * messages without cuemu's translation in it.
 *
 * An error inside a kernel template that a launch instantiates with
 * deduced arguments reached the kernel through cuemu's launch: g++'s
 * context named cuemu's picker and launch lambda ("required by
 * substitution of 'template<class T> cuemu::kernel_constant<...>
 * cuemu_pick_scale(T*, T)'", "required from 'void
 * cuemu::deduced_launcher<...>::operator()'", lines of the shims' headers)
 * and columns past the end of the user's lines (the translated line is
 * longer); clang++'s named the shims' header and cuemu::deduced_launcher.
 * nvcc says "detected during instantiation of ... at line 9". So:
 *
 * - a context line of g++ ("PATH:LINE:COL:   required ...") or a note of
 *   clang++ ("PATH:LINE:COL: note: in instantiation of ...", with its quoted
 *   lines) that lies in cuemu's headers, or in the user's file at a column
 *   past the end of its line, or that names cuemu's namespace, is left out,
 *   except the user's launch: g++'s "required from here" (or "required
 *   from 'void run(T*, int)'" for a launch in a function template) and
 *   clang++'s note there stay, with the column of the line's first word,
 *   and clang++'s note names the instantiation of the note left out before
 *   it ("function template specialization 'scale<float>'");
 * - everything else passes unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"

/* The length of the line at `s` (without its newline), within `size`. */
static size_t line_length(const char *s, size_t size) {
  const char *nl = memchr(s, '\n', size);
  return nl ? (size_t)(nl - s) : size;
}

/* The parts of a message's first line "PATH:LINE:COL:REST". */
typedef struct place {
  size_t path_end;   /* the ':' after PATH */
  size_t column_at;  /* the ':' before COL */
  size_t column_end; /* the ':' after COL */
  long line, column;
} place;

static int parse_place(const char *s, size_t len, place *p) {
  if (!cuemu__diag_place_column(s, len, &p->column_at, &p->column_end))
    return 0;
  p->path_end = p->column_at;
  while (p->path_end > 0 && s[p->path_end - 1] != ':')
    --p->path_end;
  if (p->path_end == 0)
    return 0;
  p->path_end--;
  p->line = strtol(s + p->path_end + 1, NULL, 10);
  p->column = strtol(s + p->column_at + 1, NULL, 10);
  return 1;
}

/* Whether `s` (len bytes) contains `word`. */
static int contains(const char *s, size_t len, const char *word) {
  size_t w = strlen(word);
  for (size_t i = 0; i + w <= len; ++i)
    if (memcmp(s + i, word, w) == 0)
      return 1;
  return 0;
}

/* Line `p->line` of the message's file (malloc'ed), the column of its
 * first word, and whether p->column lies past its end; NULL when the file
 * cannot be read (then the place is taken as it is). */
static char *user_line(const char *s, const place *p, long *first,
                       int *past_end) {
  char path[4096];
  if (p->path_end >= sizeof path)
    return NULL;
  memcpy(path, s, p->path_end);
  path[p->path_end] = '\0';
  char *line = cuemu__diag_file_line(path, p->line);
  if (!line)
    return NULL;
  size_t n = strlen(line), i = 0;
  while (i < n && (line[i] == ' ' || line[i] == '\t'))
    ++i;
  *first = (long)i + 1;
  *past_end = p->column > (long)n + 1;
  return line;
}

/* Whether the place is in one of cuemu's folders. */
static int in_dirs(const char *s, const place *p, const char *const *dirs,
                   int ndirs) {
  for (int d = 0; d < ndirs; ++d) {
    size_t n = dirs[d] ? strlen(dirs[d]) : 0;
    if (n && p->path_end > n && memcmp(s, dirs[d], n) == 0 && s[n] == '/')
      return 1;
  }
  return 0;
}

/* Writes the place with column `column` and the rest of the line from
 * s[from..len). */
static void print_at(FILE *out, const char *s, const place *p, long column,
                     const char *rest, size_t rest_len) {
  fprintf(out, "%.*s%ld:%.*s\n", (int)p->column_at + 1, s, column,
          (int)rest_len, rest);
}

/* The end of the quote of the note whose next line starts at text[at]
 * (clang++: the source line, then a caret line, each without a place of
 * its own). */
static size_t quote_end(const char *text, size_t size, size_t at) {
  for (int k = 0; k < 2 && at < size; ++k) {
    size_t n = line_length(text + at, size - at), from, to;
    if (cuemu__diag_place_column(text + at, n, &from, &to) ||
        (n && text[at] != ' ' && k == 1))
      break;
    at += n + (at + n < size);
  }
  return at;
}

static const char kRequired[] = ":   required ";
static const char kInstantiation[] = " note: in instantiation of ";
static const char kRequestedHere[] = " requested here";

void cuemu__diag_context(const char *text, size_t size,
                         const char *const *dirs, int ndirs, FILE *out) {
  /* clang++: what the last note left out was an instantiation of. */
  char *dropped = NULL;
  size_t at = 0;
  while (at < size) {
    const char *s = text + at;
    size_t n = line_length(s, size - at);
    size_t next = at + n + (at + n < size);
    place p;
    int gxx = 0, clang = 0;
    if (parse_place(s, n, &p)) {
      const char *rest = s + p.column_end;
      size_t rest_len = n - p.column_end;
      gxx = rest_len >= sizeof kRequired - 1 &&
            memcmp(rest, kRequired, sizeof kRequired - 1) == 0;
      clang = rest_len >= sizeof kInstantiation &&
              memcmp(rest + 1, kInstantiation, sizeof kInstantiation - 1) ==
                  0 &&
              contains(rest, rest_len, kRequestedHere);
    }
    if (!gxx && !clang) {
      fwrite(s, 1, next - at, out);
      at = next;
      continue;
    }
    const char *rest = s + p.column_end + 1;
    size_t rest_len = n - p.column_end - 1;
    long first = 0;
    int past_end = 0;
    int ours = in_dirs(s, &p, dirs, ndirs);
    char *user = ours ? NULL : user_line(s, &p, &first, &past_end);
    int names_ours = contains(rest, rest_len, "cuemu::") ||
                     contains(rest, rest_len, "cuemu_");
    int internal = ours || past_end || names_ours;
    size_t end = clang ? quote_end(text, size, next) : next;
    if (!internal) {
      fwrite(s, 1, end - at, out);
    } else if (gxx && user && !names_ours &&
               !contains(rest, rest_len, "required by substitution")) {
      /* The user's launch ("required from here", or "required from 'void
       * run(T*, int)'" in a function template that launches): the place of
       * its first word. */
      print_at(out, s, &p, first, rest, rest_len);
    } else if (clang && user) {
      /* clang++'s note at the user's launch, for what the note left out
       * before it instantiated (else its own words), quoting the user's
       * line with the caret at its first word. */
      if (dropped)
        fprintf(out, "%.*s%ld: note: in instantiation of %s requested here\n",
                (int)p.column_at + 1, s, first, dropped);
      else
        print_at(out, s, &p, first, rest, rest_len);
      fprintf(out, "%s\n%*s^\n", user, (int)(first - 1), "");
      free(dropped);
      dropped = NULL;
    } else if (clang && !contains(rest, rest_len, "cuemu")) {
      /* Left out, remembering its instantiation ("function template
       * specialization 'scale<float>'"). */
      const char *what = strstr(rest, kInstantiation + 1);
      if (what) {
        what += sizeof kInstantiation - 2;
        const char *stop = what;
        while (stop < rest + rest_len &&
               strncmp(stop, kRequestedHere, sizeof kRequestedHere - 1) != 0)
          ++stop;
        free(dropped);
        dropped = strndup(what, (size_t)(stop - what));
      }
    }
    free(user);
    at = end;
  }
  free(dropped);
}

/* Whether line s[0..len) is clang++'s closing line: "1 error generated.",
 * "2 warnings generated.", "1 warning and 2 errors generated.". */
static int summary_line(const char *s, size_t len) {
  static const char tail[] = " generated.";
  size_t t = sizeof tail - 1;
  if (len <= t || memcmp(s + len - t, tail, t) != 0 || s[0] < '0' || s[0] > '9')
    return 0;
  for (size_t i = 0; i < len - t; ++i)
    if (!strchr("0123456789 abdegilnorsw", s[i]))
      return 0;
  return contains(s, len, " error") || contains(s, len, " warning");
}

int cuemu__diag_drop_summary(char *text, size_t *size) {
  size_t in = 0, out = 0;
  int dropped = 0;
  while (in < *size) {
    size_t n = line_length(text + in, *size - in);
    size_t next = in + n + (in + n < *size);
    if (summary_line(text + in, n)) {
      dropped = 1;
    } else {
      memmove(text + out, text + in, next - in);
      out += next - in;
    }
    in = next;
  }
  *size = out;
  return dropped;
}

void cuemu__diag_print_summary(int errors, int warnings, FILE *out) {
  if (warnings)
    fprintf(out, "%d warning%s%s", warnings, warnings == 1 ? "" : "s",
            errors ? " and " : "");
  if (errors)
    fprintf(out, "%d error%s", errors, errors == 1 ? "" : "s");
  if (errors || warnings)
    fputs(" generated.\n", out);
}
