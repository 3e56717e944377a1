/*
 * cuemu_nvrtc_log.c: the host compiler's messages written as NVRTC's log.
 *
 * NVRTC's front end writes "k.cu(3): error: TEXT", then the source line
 * and a caret under the place, each indented by two spaces, then a blank
 * line; its last line counts the errors ("2 errors detected in the
 * compilation of "k.cu"."). Programs show that log, and some read it (the
 * file and line of an error, the header of a "cannot open source file"),
 * so cuemu's NVRTC writes the host compiler's messages in that form; the
 * text of each message stays the host compiler's own.
 */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "runtime/cuemu_nvrtc_internal.h"

/* A located message of the host compiler: "FILE:LINE:COL: KIND: TEXT"
 * or "FILE:LINE: KIND: TEXT" (len characters from `line`). */
typedef struct located {
  size_t file_len;
  long line_no, column; /* column 0: none given */
  const char *rest;     /* after "FILE:LINE[:COL]: " */
  size_t rest_len;
} located;

/* Reads the digits at s (up to end) into *n; the count of digits. */
static size_t digits(const char *s, const char *end, long *n) {
  size_t k = 0;
  *n = 0;
  while (s + k < end && isdigit((unsigned char)s[k]) && k < 9)
    *n = *n * 10 + (s[k++] - '0');
  return s + k < end && isdigit((unsigned char)s[k]) ? 0 : k;
}

/* Whether the line starts with a place, "FILE:LINE[:COL]: ": the first
 * ':' followed by digits and ':' ends FILE. */
static int parse_place(const char *line, size_t len, located *at) {
  const char *end = line + len;
  for (const char *c = memchr(line, ':', len); c && c > line;
       c = memchr(c + 1, ':', (size_t)(end - c - 1))) {
    long n = 0, col = 0;
    size_t k = digits(c + 1, end, &n);
    if (!k || c + 1 + k >= end || c[1 + k] != ':')
      continue;
    const char *after = c + 1 + k + 1;
    size_t kc = digits(after, end, &col);
    if (kc && after + kc < end && after[kc] == ':')
      after += kc + 1;
    else
      col = 0;
    if (after >= end || *after != ' ')
      continue;
    at->file_len = (size_t)(c - line);
    at->line_no = n;
    at->column = col;
    at->rest = after + 1;
    at->rest_len = (size_t)(end - at->rest);
    return 1;
  }
  return 0;
}

/* The kinds of message that NVRTC counts or shows as its own. */
enum { KIND_NONE, KIND_ERROR, KIND_FATAL, KIND_WARNING, KIND_NOTE };

/* The kind of the message at->rest starts with, and *text its text. */
static int kind_of(const located *at, const char **text, size_t *text_len) {
  static const struct {
    const char *word;
    int kind;
  } kinds[] = {{"error: ", KIND_ERROR},
               {"fatal error: ", KIND_FATAL},
               {"sorry, unimplemented: ", KIND_ERROR},
               {"warning: ", KIND_WARNING},
               {"note: ", KIND_NOTE}};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; ++i) {
    size_t n = strlen(kinds[i].word);
    if (at->rest_len >= n && strncmp(at->rest, kinds[i].word, n) == 0) {
      *text = at->rest + n;
      *text_len = at->rest_len - n;
      return kinds[i].kind;
    }
  }
  return KIND_NONE;
}

/* The host compiler's lines that NVRTC's log has nothing like: GCC's
 * "FILE: In function 'f':" and "At global scope:" headings, its "In file
 * included from" chain, its own source lines and carets ("  3 | code",
 * "    |   ^~~") and its "compilation terminated.". */
static int dropped(const char *line, size_t len) {
  size_t sp = 0;
  while (sp < len && line[sp] == ' ')
    sp++;
  if (sp < len && line[sp] == '|')
    return 1;
  size_t d = sp;
  while (d < len && isdigit((unsigned char)line[d]))
    d++;
  if (d > sp && d + 2 <= len && strncmp(line + d, " |", 2) == 0)
    return 1;
  if (len >= 22 && strncmp(line, "In file included from ", 22) == 0)
    return 1;
  if (sp >= 8 && len - sp >= 5 && strncmp(line + sp, "from ", 5) == 0)
    return 1;
  if (len == 23 && strncmp(line, "compilation terminated.", 23) == 0)
    return 1;
  if (len && line[len - 1] == ':') {
    static const char *const headings[] = {": In ", ": At global scope:",
                                           ": At file scope:"};
    for (size_t i = 0; i < sizeof headings / sizeof *headings; ++i) {
      const char *h = memmem(line, len, headings[i], strlen(headings[i]));
      if (h && !memmem(line, len, "instantiation", 13))
        return 1;
    }
  }
  return 0;
}

/* Whether the host compiler's message is one that NVRTC does not give:
 * GCC warns of a `#pragma once` in the file it compiles, which the
 * program's source is here, where NVRTC says nothing (jitify's and
 * cuda-api-wrappers' programs start so, being headers elsewhere). */
static int not_nvrtcs(int kind, const char *text, size_t len) {
  static const char once[] = "#pragma once in main file";
  return kind == KIND_WARNING && len == sizeof once - 1 &&
         strncmp(text, once, len) == 0;
}

/* The text of the file a message names, when it is the program or one of
 * its headers; NULL otherwise. */
static const char *text_of(const cuemu_nvrtc_sources *src, const char *file,
                           size_t len) {
  if (src->name && strlen(src->name) == len &&
      strncmp(src->name, file, len) == 0)
    return src->source;
  for (int i = 0; i < src->header_count; ++i)
    if (src->include_names[i] && strlen(src->include_names[i]) == len &&
        strncmp(src->include_names[i], file, len) == 0)
      return src->headers[i];
  return NULL;
}

/* Appends line `line_no` of `text` and a caret under `column` (1-based,
 * in bytes; 0: none), each indented by two spaces, as NVRTC does: the
 * caret line keeps the source line's tabs so that it lines up. */
static int add_source_line(cuemu_nvrtc_text *log, const char *text,
                           long line_no, long column) {
  const char *s = text;
  for (long n = 1; s && n < line_no; ++n) {
    s = strchr(s, '\n');
    if (s)
      s++;
  }
  if (!s || line_no < 1)
    return 0;
  size_t len = strcspn(s, "\n");
  if (len && s[len - 1] == '\r')
    len--;
  if (cuemu__nvrtc_text_add(log, "  %.*s\n", (int)len, s) != 0)
    return -1;
  if (column < 1)
    return 0;
  size_t before = (size_t)column - 1 < len ? (size_t)column - 1 : len;
  if (cuemu__nvrtc_text_add(log, "  ") != 0)
    return -1;
  for (size_t i = 0; i < before; ++i)
    if (cuemu__nvrtc_text_add(log, "%c", s[i] == '\t' ? '\t' : ' ') != 0)
      return -1;
  return cuemu__nvrtc_text_add(log, "^\n");
}

/* One located message of kind `kind` in NVRTC's form. */
static int add_message(cuemu_nvrtc_text *log, const char *line,
                       const located *at, int kind, const char *text,
                       size_t text_len, const cuemu_nvrtc_sources *src) {
  static const char *const words[] = {"", "error", "catastrophic error",
                                      "warning", "note"};
  const char *name = NULL;
  size_t name_len = 0;
  int r;
  if (kind == KIND_FATAL &&
      cuemu__nvrtc_missing_header(text, text_len, &name, &name_len))
    /* NVRTC's words, which programs read the header's name from. */
    r = cuemu__nvrtc_text_add(
        log, "%.*s(%ld): catastrophic error: cannot open source file \"%.*s\"\n",
        (int)at->file_len, line, at->line_no, (int)name_len, name);
  else
    r = cuemu__nvrtc_text_add(log, "%.*s(%ld): %s: %.*s\n", (int)at->file_len,
                              line, at->line_no, words[kind], (int)text_len,
                              text);
  if (r != 0)
    return -1;
  const char *source = text_of(src, line, at->file_len);
  if (source && add_source_line(log, source, at->line_no, at->column) != 0)
    return -1;
  return cuemu__nvrtc_text_add(log, "\n");
}

/* NVRTC's last lines: "N errors [and M catastrophic errors] detected in
 * the compilation of "NAME".", and "Compilation terminated." after a
 * catastrophic error. */
static int add_summary(cuemu_nvrtc_text *log, int errors, int fatal,
                       const char *name) {
  if (!errors && !fatal)
    return 0;
  char counts[128];
  if (errors && fatal)
    snprintf(counts, sizeof counts, "%d error%s and %d catastrophic error%s",
             errors, errors == 1 ? "" : "s", fatal, fatal == 1 ? "" : "s");
  else if (errors)
    snprintf(counts, sizeof counts, "%d error%s", errors,
             errors == 1 ? "" : "s");
  else
    snprintf(counts, sizeof counts, "%d catastrophic error%s", fatal,
             fatal == 1 ? "" : "s");
  return cuemu__nvrtc_text_add(log,
                               "%s detected in the compilation of \"%s\".\n%s",
                               counts, name ? name : "default_program",
                               fatal ? "Compilation terminated.\n" : "");
}

int cuemu__nvrtc_log_messages(cuemu_nvrtc_text *log, const char *text,
                              const cuemu_nvrtc_sources *sources) {
  int errors = 0, fatal = 0;
  for (const char *s = text; s && *s;) {
    const char *nl = strchr(s, '\n');
    size_t len = nl ? (size_t)(nl - s) : strlen(s);
    located at;
    const char *message = NULL;
    size_t message_len = 0;
    int kind = KIND_NONE;
    if (parse_place(s, len, &at))
      kind = kind_of(&at, &message, &message_len);
    int r = 0;
    if (kind != KIND_NONE && not_nvrtcs(kind, message, message_len)) {
      /* Dropped, and its source line and caret after it (dropped()). */
    } else if (kind != KIND_NONE) {
      errors += kind == KIND_ERROR;
      fatal += kind == KIND_FATAL;
      r = add_message(log, s, &at, kind, message, message_len, sources);
    } else if (len && parse_place(s, len, &at)) {
      /* A located line of context ("required from here"): the place in
       * NVRTC's form, the text as it is. */
      r = cuemu__nvrtc_text_add(log, "%.*s(%ld): %.*s\n", (int)at.file_len, s,
                                at.line_no, (int)at.rest_len, at.rest);
    } else if (len && !dropped(s, len)) {
      r = cuemu__nvrtc_text_add(log, "%.*s\n", (int)len, s);
    }
    if (r != 0)
      return -1;
    s += len + (nl != NULL);
  }
  return add_summary(log, errors, fatal, sources->name);
}
