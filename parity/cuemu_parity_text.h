/*
 * cuemu_parity_text.h: text helpers shared by the parts of the parity
 * runner (internal): formatted strings, growing messages and reading files.
 */
#ifndef CUEMU_PARITY_TEXT_H
#define CUEMU_PARITY_TEXT_H

#include <stddef.h>

/* A malloc()ed printf-style string, or NULL when out of memory. */
char *cuemu__parity_format(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* A growable message. */
typedef struct cuemu__ptext {
  char *s;
  size_t len, cap;
} cuemu__ptext;

void cuemu__ptext_add(cuemu__ptext *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The whole file at `path`, NUL-terminated and malloc()ed, with its size in
 * *size (if not NULL); NULL (errno set) when it cannot be read. */
char *cuemu__parity_read_file(const char *path, size_t *size);

/* The last `max` bytes of the open file `fd`, NUL-terminated and
 * malloc()ed (never NULL unless out of memory). */
char *cuemu__parity_read_tail(int fd, size_t max);

#endif /* CUEMU_PARITY_TEXT_H */
