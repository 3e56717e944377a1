/*
 * cuemu_parity_cudalib.c: finding the CUDA toolkit's folder and loading
 * CUDA's shared libraries (NVRTC, the driver) with dlopen, so that the
 * parity runner builds and runs on machines without them.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_parity_gpu.h"
#include "cuemu_parity_text.h"

const char *cuemu__parity_cuda_home(void) {
  const char *home = getenv("CUDA_HOME");
  if (home && *home)
    return home;
  home = getenv("CUDA_PATH");
  if (home && *home)
    return home;
  return "/usr/local/cuda";
}

/* Tries one candidate; on failure adds dlerror()'s reason to *tried, the
 * reasons separated by "; ". */
static void *try_open(const char *path, cuemu__ptext *tried) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    cuemu__ptext_add(tried, "%s%s", tried->len ? "; " : "", why ? why : path);
  }
  return handle;
}

/* dlsym on a handle looks only in that library and its dependencies,
 * which for CUDA's own libraries never include libcuemu. */
int cuemu__parity_is_cuemu_library(void *handle) {
  return dlsym(handle, "cuemu_drv_get_proc_address") != NULL;
}

void *cuemu__parity_dlopen(const char *env_override, const char *const *names,
                           int search_toolkit, char **why) {
  cuemu__ptext tried = {0};
  void *handle = NULL;
  const char *forced = env_override ? getenv(env_override) : NULL;
  if (forced && *forced) {
    handle = try_open(forced, &tried);
  } else {
    for (int i = 0; names[i] && !handle; ++i)
      handle = try_open(names[i], &tried);
    static const char *const subdirs[] = {"lib64", "lib"};
    const char *homes[] = {cuemu__parity_cuda_home(), "/usr/local/cuda"};
    for (int h = 0; search_toolkit && h < 2 && !handle; ++h) {
      if (h == 1 && strcmp(homes[0], homes[1]) == 0)
        break;
      for (int s = 0; s < 2 && !handle; ++s)
        for (int i = 0; names[i] && !handle; ++i) {
          char path[4096];
          snprintf(path, sizeof path, "%s/%s/%s", homes[h], subdirs[s],
                   names[i]);
          if (access(path, F_OK) == 0)
            handle = try_open(path, &tried);
        }
    }
  }
  if (handle) {
    free(tried.s);
    return handle;
  }
  if (why)
    *why = forced && *forced
               ? cuemu__parity_format("%s (from $%s) could not be loaded: %s",
                                      forced, env_override,
                                      tried.s ? tried.s : "no reason given")
               : cuemu__parity_format("%s could not be loaded (%s)", names[0],
                                      tried.s ? tried.s : "no reason given");
  free(tried.s);
  return NULL;
}

int cuemu__parity_dlsym_all(void *handle, const cuemu__parity_symbol *symbols,
                            int count, const char **missing) {
  for (int i = 0; i < count; ++i) {
    void *address = NULL;
    for (int n = 0; n < 2 && !address; ++n)
      if (symbols[i].names[n])
        address = dlsym(handle, symbols[i].names[n]);
    if (!address && !symbols[i].optional) {
      if (missing)
        *missing = symbols[i].names[0];
      return 0;
    }
    /* POSIX guarantees that a function pointer survives this round trip;
     * memcpy keeps -Wpedantic quiet about the conversion. */
    memcpy(symbols[i].slot, &address, sizeof address);
  }
  return 1;
}
