/*
 * cuemu_plugin_find.c: whether a device pass loads one of cuemu's compiler
 * plugins, and where it is: the GCC plugin for g++ (cuemu_gcc_plugin.cc)
 * and the LLVM pass plugin for clang++ (cuemu_llvm_plugin.cc), which give
 * device code a GPU's results of run-time shifts and float-to-integer
 * conversions and the lockstep of volatile accesses, and the clang plugin
 * (cuemu_clang_plugin.cc), which refuses in clang++'s device pass what the
 * GCC plugin refuses across execution spaces in g++'s.
 *
 * A plugin runs inside the compiler and works only in the compiler it was
 * built for, so the device pass loads it only when its compiler is the one
 * that configure found (the same real path). Asking another compiler for
 * its plugin folder or its version would cost a process per compile (a
 * cache hit takes a few milliseconds), and a wrapper script may not answer
 * at all; other versions and wrappers such as ccache compile device code
 * without it.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_driver.h"

/* 1 with libdir's `file` in `path` when `compiler` is `built_for` and the
 * file is there, else 0 and "". */
static int plugin_for(const char *compiler, const char *built_for,
                      const char *libdir, const char *file, char *path,
                      size_t size) {
  if (built_for && strcmp(compiler, built_for) == 0 &&
      snprintf(path, size, "%s/%s", libdir, file) < (int)size &&
      access(path, R_OK) == 0)
    return 1;
  path[0] = '\0';
  return 0;
}

/* The compilers that configure built the plugins for, or none. */
#ifndef CUEMU_GCC_PLUGIN_CXX
#define CUEMU_GCC_PLUGIN_CXX NULL
#endif
#ifndef CUEMU_LLVM_PLUGIN_CLANG
#define CUEMU_LLVM_PLUGIN_CLANG NULL
#endif

int cuemu__gcc_plugin(const char *compiler, const char *libdir, char *path,
                      size_t size) {
  return plugin_for(compiler, CUEMU_GCC_PLUGIN_CXX, libdir,
                    "cuemu_gcc_plugin.so", path, size);
}

int cuemu__llvm_plugin(const char *compiler, const char *libdir, char *path,
                       size_t size) {
  return plugin_for(compiler, CUEMU_LLVM_PLUGIN_CLANG, libdir,
                    "cuemu_llvm_plugin.so", path, size);
}

int cuemu__clang_plugin(const char *compiler, const char *libdir, char *path,
                        size_t size) {
  return plugin_for(compiler, CUEMU_LLVM_PLUGIN_CLANG, libdir,
                    "cuemu_clang_plugin.so", path, size);
}
