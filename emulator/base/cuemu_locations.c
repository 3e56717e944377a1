/*
 * cuemu_locations.c: where the shims, cuemu's headers and libcuemu are
 * (see cuemu_locations.h), found once per process.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cuemu_locations.h"

/* The folders found beside libcuemu; empty when it has no cuemu-toolkit
 * beside it. */
static char found_shims[PATH_MAX], found_include[PATH_MAX],
    found_lib[PATH_MAX];
static pthread_once_t found_once = PTHREAD_ONCE_INIT;

/* Sets `out` to the folder that holds the file `link` leads to (all links
 * followed); returns 0, or -1 when there is no such file. */
static int folder_of_target(const char *link, char *out) {
  char real[PATH_MAX];
  if (!realpath(link, real))
    return -1;
  char *slash = strrchr(real, '/');
  if (!slash)
    return -1;
  *slash = '\0';
  snprintf(out, PATH_MAX, "%s", real[0] ? real : "/");
  return 0;
}

static void find_beside_library(void) {
  Dl_info self;
  char lib[PATH_MAX], path[PATH_MAX + 64], shims[PATH_MAX],
      include[PATH_MAX];
  if (!dladdr((void *)cuemu__location_shims, &self) || !self.dli_fname ||
      folder_of_target(self.dli_fname, lib) != 0)
    return;
  snprintf(path, sizeof path, "%s/cuemu-toolkit/include/cuda_runtime.h",
           lib);
  if (folder_of_target(path, shims) != 0)
    return;
  /* include/cuemu is a link to cuemu's headers' folder, INCLUDE/cuemu. */
  snprintf(path, sizeof path, "%s/cuemu-toolkit/include/cuemu/cuemu.h", lib);
  char cuemu_dir[PATH_MAX];
  if (folder_of_target(path, cuemu_dir) != 0 ||
      folder_of_target(cuemu_dir, include) != 0)
    return;
  memcpy(found_shims, shims, sizeof shims);
  memcpy(found_include, include, sizeof include);
  memcpy(found_lib, lib, sizeof lib);
}

/* The variable `env`, else the folder found beside libcuemu, else the
 * configured one. */
static const char *location(const char *env, const char *found,
                            const char *installed) {
  const char *v = getenv(env);
  if (v && *v)
    return v;
  pthread_once(&found_once, find_beside_library);
  return found[0] ? found : installed;
}

const char *cuemu__location_shims(void) {
  return location("CUEMU_SHIMS_DIR", found_shims, CUEMU_INSTALL_SHIMS_DIR);
}

const char *cuemu__location_include(void) {
  return location("CUEMU_INCLUDE_DIR", found_include,
                  CUEMU_INSTALL_INCLUDE_DIR);
}

const char *cuemu__location_lib(void) {
  return location("CUEMU_LIB_DIR", found_lib, CUEMU_INSTALL_LIB_DIR);
}
