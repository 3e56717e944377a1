/*
 * cuemu_line_markers.h: the line markers of a preprocessed unit
 * (`# N "FILE" FLAGS`), as the scans of the user's code read them
 * (cuemu_cccl_brings.c, cuemu_nvcc_undeclared.c). Internal to libcuemu.
 */
#ifndef CUEMU_LINE_MARKERS_H
#define CUEMU_LINE_MARKERS_H

#include <stddef.h>

/* What a line marker says of the lines after it, for the user's code. */
typedef struct cuemu_user_marker {
  int line;         /* N: the line number of the next line */
  const char *file; /* FILE, file_len bytes (not NUL-terminated) */
  size_t file_len;
  int system; /* flag 3: a system header's text (or a macro's of one) */
  int user;   /* FILE is a file of the user's: not <built-in> or
               * <command-line>, not under the folders `skip` */
} cuemu_user_marker;

/* Reads line[0, n) (a line without its newline) into *m when it is a line
 * marker (cuemu__line_marker(), cuemu_pch.c); returns 1, or 0 (and *m
 * unchanged) when it is none. */
int cuemu__user_marker(const char *line, size_t n, const char *const *skip,
                       int nskip, cuemu_user_marker *m);

/* Non-zero for a character of an identifier. */
int cuemu__ident_char(char c);

#endif /* CUEMU_LINE_MARKERS_H */
