/*
 * cuemu_driver_name.c: the compile driver's messages name the program as
 * it was invoked, in the form of that program: nvcc's (`nvcc fatal   :
 * ...`, `nvcc warning : ...`) when invoked by a name of nvcc (cuemu-nvcc,
 * or the `nvcc` of cuemu's toolkit folder), `cuemu-cc: warning: ...`
 * otherwise, so that a Makefile or CMake that reads nvcc's messages reads
 * these alike. Notes, which nvcc does not print, are `NAME: note: ...`. A program of its own that calls the compile (Python, a
 * test) is named cuemu-cc.
 */
#define _GNU_SOURCE
#include <errno.h> /* program_invocation_short_name */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuemu_driver.h"

const char *cuemu__driver_name(void) {
  const char *name = program_invocation_short_name;
  /* libtool's uninstalled programs run as lt-NAME. */
  if (name && strncmp(name, "lt-", 3) == 0)
    name += 3;
  if (name && (strstr(name, "nvcc") || strncmp(name, "cuemu", 5) == 0))
    return name;
  return "cuemu-cc";
}

void cuemu__driver_say(const char *kind, const char *format, ...) {
  const char *name = cuemu__driver_name();
  va_list args;
  /* nvcc pads the kind to the width of "warning" ("fatal   : "); it has
   * no notes, which keep cuemu's form. */
  if (strstr(name, "nvcc") && strcmp(kind, "note") != 0)
    fprintf(stderr, "%s %-7s : ", name, kind);
  else
    fprintf(stderr, "%s: %s: ", name, kind);
  va_start(args, format);
  vfprintf(stderr, format, args);
  va_end(args);
  fputc('\n', stderr);
}
