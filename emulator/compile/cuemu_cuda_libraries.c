/*
 * cuemu_cuda_libraries.c: the libraries of CUDA's toolkit that a program
 * may link, and what cuemu-nvcc does with each (cuemu_driver.h).
 */
#include <string.h>

#include "compile/cuemu_driver.h"

/* The table of cuemu_cuda_libraries.def, which emulator/libs/libs.am
 * reads too (the lib64 scripts that refuse the libraries not emulated). */
static const struct {
  const char *name, *what;
  int emulated;
} libraries[] = {
#define CUEMU_CUDA_LIBRARY(name, what, emulated) {#name, what, emulated},
#include "compile/cuemu_cuda_libraries.def"
#undef CUEMU_CUDA_LIBRARY
};

int cuemu__cuda_library(const char *name, const char **what) {
  for (size_t i = 0; i < sizeof libraries / sizeof *libraries; ++i)
    if (strcmp(name, libraries[i].name) == 0) {
      if (what)
        *what = libraries[i].what;
      return libraries[i].emulated ? 1 : -1;
    }
  return 0;
}

int cuemu__cuda_library_file(const char *path, char *name, size_t cap) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (strncmp(base, "lib", 3) != 0)
    return 0;
  base += 3;
  /* libNAME.so, libNAME.so.VERSION or libNAME.a */
  size_t len = strcspn(base, ".");
  const char *rest = base + len;
  if (strcmp(rest, ".a") != 0 && strcmp(rest, ".so") != 0 &&
      strncmp(rest, ".so.", 4) != 0)
    return 0;
  if (len == 0 || len >= cap)
    return 0;
  memcpy(name, base, len);
  name[len] = '\0';
  return cuemu__cuda_library(name, NULL);
}
