/*
 * cuemu_string_macro_suffix.c: see cuemu_string_macro_suffix.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_driver.h"
#include "cuemu_line_markers.h"
#include "cuemu_string_macro_suffix.h"

/* The names g++ splits from a string literal that cuemu spells out. */
enum { FILE_NAME_OF_LINE, LAST_COMPONENT, BASE_FILE };
static const struct {
  const char *name;
  int what;
} string_macros[] = {{"__FILE__", FILE_NAME_OF_LINE},
                     {"__FILE_NAME__", LAST_COMPONENT},
                     {"__BASE_FILE__", BASE_FILE}};

/* The end of the literal (after its closing quote) that starts at text[i],
 * its opening quote; a raw literal (R"d(...)d") when `raw`. */
static size_t literal_end(const char *text, size_t size, size_t i, int raw) {
  if (raw) {
    size_t open = i + 1;
    while (open < size && text[open] != '(' && open - i <= 17)
      open++;
    size_t dlen = open - (i + 1);
    for (size_t j = open + 1; j + dlen < size; ++j)
      if (text[j] == ')' && memcmp(text + j + 1, text + i + 1, dlen) == 0 &&
          text[j + 1 + dlen] == '"')
        return j + dlen + 2;
    return size;
  }
  char quote = text[i];
  for (size_t j = i + 1; j < size; ++j) {
    if (text[j] == '\\')
      j++;
    else if (text[j] == quote || text[j] == '\n')
      return j + 1;
  }
  return size;
}

int cuemu__split_string_macro_suffixes(const char *path, const char *map_from,
                                       const char *map_to) {
  size_t from_len = map_from ? strlen(map_from) : 0;
  size_t size = 0;
  char *text = cuemu__read_file(path, &size);
  if (!text)
    return -1;
  char *out = NULL;
  size_t out_size = 0;
  FILE *f = NULL;
  /* The file of the marker in effect and the unit's first. */
  const char *file = "", *base = NULL;
  size_t file_len = 0, base_len = 0, copied = 0;
  int changed = 0;
  for (size_t i = 0; i < size;) {
    char c = text[i];
    if ((i == 0 || text[i - 1] == '\n') && c == '#') {
      const char *nl = memchr(text + i, '\n', size - i);
      size_t n = nl ? (size_t)(nl - (text + i)) : size - i;
      cuemu_user_marker m;
      if (cuemu__user_marker(text + i, n, NULL, 0, &m)) {
        file = m.file, file_len = m.file_len;
        if (!base && m.user)
          base = m.file, base_len = m.file_len;
      }
      i += n;
      continue;
    }
    if (c == '/' && i + 1 < size &&
        (text[i + 1] == '/' || text[i + 1] == '*')) {
      const char *end = text[i + 1] == '/' ? memchr(text + i, '\n', size - i)
                                           : strstr(text + i + 2, "*/");
      i = end ? (size_t)(end - text) + (text[i + 1] == '*' ? 2 : 0) : size;
      continue;
    }
    size_t end = 0; /* after a string or character literal */
    if (cuemu__ident_char(c) || (c == '.' && i + 1 < size &&
                                 text[i + 1] >= '0' && text[i + 1] <= '9')) {
      /* An identifier or a number (with its digit separators and
       * exponents' signs), or a literal's prefix: u8"", LR"()". */
      size_t j = i;
      int number = (c >= '0' && c <= '9') || c == '.';
      while (j < size &&
             (cuemu__ident_char(text[j]) || (number && text[j] == '.') ||
              (number && text[j] == '\'' && j + 1 < size &&
               cuemu__ident_char(text[j + 1])) ||
              (number && (text[j] == '+' || text[j] == '-') &&
               strchr("eEpP", text[j - 1]))))
        j++;
      size_t len = j - i;
      const char *p = text + i;
      int prefix =
          !number && j < size && (text[j] == '"' || text[j] == '\'') &&
          ((len == 1 && strchr("uULR", p[0])) ||
           (len == 2 && (!memcmp(p, "u8", 2) || !memcmp(p, "uR", 2) ||
                         !memcmp(p, "UR", 2) || !memcmp(p, "LR", 2))) ||
           (len == 3 && !memcmp(p, "u8R", 3)));
      if (!prefix) {
        i = j;
        continue;
      }
      end = literal_end(text, size, j, text[j - 1] == 'R' && text[j] == '"');
    } else if (c == '"' || c == '\'') {
      end = literal_end(text, size, i, 0);
    } else {
      i++;
      continue;
    }
    i = end;
    if (text[i - 1] != '"')
      continue;
    for (size_t k = 0; k < sizeof string_macros / sizeof *string_macros; ++k) {
      size_t n = strlen(string_macros[k].name);
      if (i + n > size || memcmp(text + i, string_macros[k].name, n) != 0 ||
          (i + n < size && cuemu__ident_char(text[i + n])))
        continue;
      const char *s = file;
      size_t s_len = file_len;
      if (string_macros[k].what == BASE_FILE && base)
        s = base, s_len = base_len;
      if (string_macros[k].what == LAST_COMPONENT)
        for (size_t q = 0; q < file_len; ++q)
          if (file[q] == '/')
            s = file + q + 1, s_len = file_len - q - 1;
      if (!f && !(f = open_memstream(&out, &out_size))) {
        free(text);
        return -1;
      }
      fwrite(text + copied, 1, i - copied, f);
      if (from_len && s_len >= from_len && !memcmp(s, map_from, from_len))
        fprintf(f, " \"%s%.*s\"", map_to, (int)(s_len - from_len),
                s + from_len);
      else
        fprintf(f, " \"%.*s\"", (int)s_len, s);
      copied = i + n;
      i += n;
      changed = 1;
      break;
    }
  }
  int rc = 0;
  if (changed) {
    fwrite(text + copied, 1, size - copied, f);
    rc = fclose(f) == 0 ? 0 : -1;
    FILE *w = rc == 0 ? fopen(path, "wb") : NULL;
    if (!w || fwrite(out, 1, out_size, w) != out_size)
      rc = -1;
    if (w && fclose(w) != 0)
      rc = -1;
  }
  free(out);
  free(text);
  return rc;
}
