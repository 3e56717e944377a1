/*
 * cuemu_debug_line.h: the line-number sequences of code that a link
 * dropped, marked as such in the linked file (cuemu_debug_line.c).
 */
#ifndef CUEMU_COMPILE_DEBUG_LINE_H
#define CUEMU_COMPILE_DEBUG_LINE_H

/* In the linked executable or shared library `path`, rewrites the start
 * address of each line-number sequence that GNU ld resolved to 0 (a
 * function the link dropped) to the tombstone that gdb and addr2line
 * ignore, so that the addresses of kept code get their own lines. Files
 * that are not linked ELF64 files of this machine are left as they are.
 * Returns 0, or -1 when the file could not be read or written. */
int cuemu__debug_line_tombstones(const char *path);

#endif
