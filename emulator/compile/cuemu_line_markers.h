/*
 * cuemu_line_markers.h: the line markers of a preprocessed unit
 * (`# N "FILE" FLAGS`), as the scans of the user's code read them
 * (cuemu_cccl_brings.c, cuemu_nvcc_undeclared.c), and the places that
 * the compiler's messages name in it (cuemu_undeclared_names.c,
 * cuemu_constexpr_locals.c). Internal to libcuemu.
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

/* A reader of a unit's markers in order, for the scans of the user's
 * code: as cuemu__user_marker() reads them, and a file that a marker
 * first flagged as a system header is never the user's. The compiler
 * drops the flag on the lines of a system header where it expands a
 * macro defined outside system headers (curand_kernel.h's QUALIFIERS,
 * which expands the shims' __forceinline__): those lines are neither the
 * user's code nor the user's file. A user's file, first seen without the
 * flag, gets it where it expands a system header's macro (the shims'
 * printf): it stays the user's, with `system` set on those lines.
 * Zero-initialise it with the folders `skip`; cuemu__marker_reader_free()
 * frees what it keeps. Without memory for its lists, a system header's
 * line may be taken for the user's. */
typedef struct cuemu_marker_file cuemu_marker_file;
typedef struct cuemu_marker_reader {
  const char *const *skip;
  int nskip;
  /* The files seen, each the user's or a system header, hashed by name:
   * `cap` slots (a power of 2, or 0), `count` used. */
  cuemu_marker_file *files;
  size_t cap, count;
} cuemu_marker_reader;

int cuemu__read_user_marker(cuemu_marker_reader *r, const char *line,
                            size_t n, cuemu_user_marker *m);
void cuemu__marker_reader_free(cuemu_marker_reader *r);

/* Non-zero for a character of an identifier. */
int cuemu__ident_char(char c);

/* The offset in the preprocessed unit `ii` (`size` bytes) of the first
 * non-empty line that its markers place at line `line` of the file named
 * by the `file_len` bytes of `file`, or -1 where it has none. */
long cuemu__unit_line(const char *ii, size_t size, const char *file,
                      size_t file_len, long line);

/* Reads the place of the compiler's message `line` (`len` bytes) that
 * starts with "FILE:LINE:COLUMN: error: " (or "fatal error", "note"): its file's
 * name into *file and *file_len, its line into *at and its column into
 * *column; returns 1, or 0 where it names none. */
int cuemu__error_place(const char *line, size_t len, const char **file,
                       size_t *file_len, long *at, long *column);

#endif /* CUEMU_LINE_MARKERS_H */
