/*
 * cuemu_maps_line.c: the line of /proc/self/maps that maps an address,
 * with no heap use (cuemu_maps_line.h).
 */
#include "cuemu_maps_line.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Non-zero when `text` (one line, NUL-terminated) starts with a range
 * "lo-hi" that holds `address`. */
static int holds(const char *text, uintptr_t address) {
  unsigned long long lo, hi;
  return sscanf(text, "%llx-%llx", &lo, &hi) == 2 && lo <= address &&
         address < hi;
}

/* Copies the NUL-terminated `text` into `line` of `size` bytes, cut to fit. */
static void copy_out(const char *text, char *line, size_t size) {
  if (!size)
    return;
  size_t n = strlen(text);
  if (n >= size)
    n = size - 1;
  memcpy(line, text, n);
  line[n] = '\0';
}

int cuemu__maps_line(uintptr_t address, char *line, size_t size) {
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  /* The lines not yet judged are buffer[0, held). A line longer than the
   * buffer (a path near PATH_MAX) is judged by its start, which holds its
   * range, and the rest of it is skipped. */
  char buffer[4096 + 1];
  size_t held = 0;
  int skipping = 0, result = 0;
  for (;;) {
    ssize_t got = read(fd, buffer + held, sizeof buffer - 1 - held);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      result = -1;
      break;
    }
    held += (size_t)got;
    buffer[held] = '\0';
    char *start = buffer, *end;
    while (!result &&
           (end = memchr(start, '\n', held - (size_t)(start - buffer)))) {
      *end = '\0';
      if (!skipping && holds(start, address)) {
        copy_out(start, line, size);
        result = 1;
      }
      skipping = 0;
      start = end + 1;
    }
    if (result)
      break;
    held -= (size_t)(start - buffer);
    memmove(buffer, start, held);
    buffer[held] = '\0';
    if (got == 0 || held == sizeof buffer - 1) {
      /* The last line without its newline, or a line longer than the
       * buffer. */
      if (held && !skipping && holds(buffer, address)) {
        copy_out(buffer, line, size);
        result = 1;
        break;
      }
      if (got == 0)
        break;
      skipping = 1;
      held = 0;
    }
  }
  close(fd);
  return result;
}
