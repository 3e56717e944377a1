/*
 * cuemu_gcc_plugin_find.c: whether a device pass loads cuemu's GCC plugin
 * (cuemu_gcc_plugin.cc: GPU results of run-time shifts and float-to-integer
 * conversions), and where it is.
 *
 * A plugin runs inside the compiler and works only in the GCC it was built
 * for, so the device pass loads it only when its compiler is the g++ that
 * configure found (the same real path). Asking another compiler for its
 * plugin folder would cost a process per compile (a cache hit takes a few
 * milliseconds), and a wrapper script may not answer at all; clang++,
 * other versions of g++ and wrappers such as ccache compile device code
 * without it.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_driver.h"

int cuemu__gcc_plugin(const char *compiler, const char *libdir, char *path,
                      size_t size) {
  path[0] = '\0';
#ifdef CUEMU_GCC_PLUGIN_CXX
  if (strcmp(compiler, CUEMU_GCC_PLUGIN_CXX) == 0 &&
      snprintf(path, size, "%s/cuemu_gcc_plugin.so", libdir) < (int)size &&
      access(path, R_OK) == 0)
    return 1;
  path[0] = '\0';
#else
  (void)compiler;
  (void)libdir;
  (void)size;
#endif
  return 0;
}
