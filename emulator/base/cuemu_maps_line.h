/*
 * cuemu_maps_line.h: the line of /proc/self/maps that maps an address,
 * read with no heap use (open() and read() into the caller's and a stack
 * buffer), so that cuemu's start-up, which runs before main, leaves no
 * freed block for the program's first malloc() to return full of text: a
 * program built by nvcc finds a fresh heap there, and programs read what
 * malloc() gives before writing it. Host code, any thread.
 */
#ifndef CUEMU_MAPS_LINE_H
#define CUEMU_MAPS_LINE_H

#include <stddef.h>
#include <stdint.h>

/* Copies into `line` (of `size` bytes, NUL-terminated, cut to fit) the
 * line of /proc/self/maps whose range holds `address`. Returns 1 when one
 * does, 0 when none does, -1 when the file cannot be read. */
int cuemu__maps_line(uintptr_t address, char *line, size_t size);

#endif /* CUEMU_MAPS_LINE_H */
