/*
 * cuemu_module_text.c: the text form of a cuemu module (base64 in comment
 * lines; see cuemu_module_text.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuemu_module_text.h"

static const char first_line[] =
    "// cuemu module: emulated device code in base64, not PTX\n";
static const char end_line[] = "// end of cuemu module";
static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int cuemu__module_text_is(const void *data, size_t n) {
  size_t len = sizeof first_line - 1;
  return data && n >= len && strncmp(data, first_line, len) == 0;
}

int cuemu__module_text_write(FILE *out, const void *image, size_t size) {
  const unsigned char *p = image;
  fputs(first_line, out);
  fputs("// (load it with cuModuleLoad, cuModuleLoadData(Ex) or cuLink*)\n",
        out);
  if (cuemu__module_text_variables(out, image, size) != 0)
    return -1;
  for (size_t i = 0; i < size; i += 57) {
    /* 57 bytes a line: 76 characters. */
    size_t end = i + 57 < size ? i + 57 : size;
    fputs("//@", out);
    for (size_t k = i; k < end; k += 3) {
      uint32_t v = (uint32_t)p[k] << 16;
      if (k + 1 < end)
        v |= (uint32_t)p[k + 1] << 8;
      if (k + 2 < end)
        v |= p[k + 2];
      fputc(alphabet[(v >> 18) & 63], out);
      fputc(alphabet[(v >> 12) & 63], out);
      fputc(k + 1 < end ? alphabet[(v >> 6) & 63] : '=', out);
      fputc(k + 2 < end ? alphabet[v & 63] : '=', out);
    }
    fputc('\n', out);
  }
  fprintf(out, "%s\n", end_line);
  return ferror(out) ? -1 : 0;
}

/* The value of a base64 character, or -1. */
static int digit(char c) {
  const char *at = c ? strchr(alphabet, c) : NULL;
  return at ? (int)(at - alphabet) : -1;
}

int cuemu__module_text_decode(const char *text, void **image, size_t *size) {
  if (!cuemu__module_text_is(text, strlen(text)))
    return -1;
  /* At most three bytes for every four characters. */
  size_t cap = strlen(text) / 4 * 3 + 3, n = 0;
  unsigned char *out = malloc(cap);
  if (!out)
    return -1;
  int ended = 0;
  for (const char *line = text; *line && !ended;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    if (len >= 3 && strncmp(line, "//@", 3) == 0) {
      if ((len - 3) % 4 != 0)
        break;
      for (size_t k = 3; k < len; k += 4) {
        int d[4];
        for (int j = 0; j < 4; ++j)
          d[j] = line[k + j] == '=' ? 0 : digit(line[k + j]);
        if (d[0] < 0 || d[1] < 0 || d[2] < 0 || d[3] < 0) {
          free(out);
          return -1;
        }
        uint32_t v = (uint32_t)d[0] << 18 | (uint32_t)d[1] << 12 |
                     (uint32_t)d[2] << 6 | (uint32_t)d[3];
        out[n++] = (unsigned char)(v >> 16);
        if (line[k + 2] != '=')
          out[n++] = (unsigned char)(v >> 8);
        if (line[k + 3] != '=')
          out[n++] = (unsigned char)v;
      }
    } else if (len >= sizeof end_line - 1 &&
               strncmp(line, end_line, sizeof end_line - 1) == 0) {
      ended = 1;
    }
    line = nl ? nl + 1 : line + len;
  }
  if (!ended || n == 0) {
    free(out);
    return -1;
  }
  *image = out;
  *size = n;
  return 0;
}
