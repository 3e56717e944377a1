/*
 * cuemu_diag_removed.c: a note after the compiler's errors about a name of
 * the runtime API that CUDA has removed. Older programs (benchmark suites
 * written for CUDA 2 to 11: Parboil, Rodinia) call cudaThreadSynchronize
 * or declare texture references; nvcc 13 refuses them as cuemu does, with
 * an error that says only that the name is unknown, which reads as a gap
 * of cuemu's. The note names what removed it and what replaces it.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <string.h>

#include "cuemu_driver.h"

/* The names, and what a program uses instead. */
static const struct {
  const char *name;
  const char *since;
  const char *instead;
  const char *what; /* for a type: what it declares */
} removed[] = {
    {"cudaThreadSynchronize", "13", "cudaDeviceSynchronize", NULL},
    {"cudaThreadExit", "13", "cudaDeviceReset", NULL},
    {"cudaThreadSetLimit", "13", "cudaDeviceSetLimit", NULL},
    {"cudaThreadGetLimit", "13", "cudaDeviceGetLimit", NULL},
    {"cudaThreadSetCacheConfig", "13", "cudaDeviceSetCacheConfig", NULL},
    {"cudaThreadGetCacheConfig", "13", "cudaDeviceGetCacheConfig", NULL},
    {"cudaSetDoubleForDevice", "13", "no call (doubles need no conversion on the host)", NULL},
    {"cudaSetDoubleForHost", "13", "no call (doubles need no conversion on the host)", NULL},
    {"texture", "12",
     "texture objects (cudaTextureObject_t, cudaCreateTextureObject, "
     "tex1Dfetch<T>(object, i))",
     "texture references"},
    {"surface", "12", "surface objects (cudaSurfaceObject_t)",
     "surface references"},
    {"cudaBindTexture", "12", "cudaCreateTextureObject", NULL},
    {"cudaBindTexture2D", "12", "cudaCreateTextureObject", NULL},
    {"cudaBindTextureToArray", "12", "cudaCreateTextureObject", NULL},
    {"cudaUnbindTexture", "12", "cudaDestroyTextureObject", NULL},
    {"cudaGetTextureReference", "12", "texture objects", NULL},
    {"cudaGetTextureAlignmentOffset", "12", "texture objects", NULL},
    {"cudaBindSurfaceToArray", "12", "cudaCreateSurfaceObject", NULL},
    {"cudaGetSurfaceReference", "12", "surface objects", NULL},
    {"cudaSetupArgument", "12", "cudaLaunchKernel", NULL},
    {"cudaConfigureCall", "12", "cudaLaunchKernel", NULL},
};

enum { COUNT = sizeof removed / sizeof *removed };

/* Whether the line at s (len bytes) is an error that quotes `name`, as
 * g++ (‘name’, or 'name' without UTF-8) and clang++ ('name') quote;
 * `type`: `name` is a type's. */
static int error_quotes(const char *s, size_t len, const char *name,
                        int type) {
  if (!memmem(s, len, ": error: ", 9))
    return 0;
  /* A type's name: only in an error about a type or a template (g++'s
   * "does not name a type", clang++'s "unknown type name", "no template
   * named"), not any error that quotes a variable of that name. */
  if (type && !memmem(s, len, "type", 4) && !memmem(s, len, "template", 8))
    return 0;
  size_t n = strlen(name);
  static const char *const opens[] = {"\xe2\x80\x98", "'"};
  static const char *const closes[] = {"\xe2\x80\x99", "'"};
  for (int q = 0; q < 2; ++q) {
    size_t o = strlen(opens[q]), c = strlen(closes[q]);
    for (const char *p = s; (p = memmem(p, len - (size_t)(p - s), opens[q],
                                        o)) != NULL;
         ++p) {
      const char *w = p + o;
      if ((size_t)(w - s) + n + c <= len && memcmp(w, name, n) == 0 &&
          memcmp(w + n, closes[q], c) == 0)
        return 1;
    }
  }
  return 0;
}

void cuemu__diag_removed(const char *const *texts, const size_t *sizes,
                         int ntexts) {
  int seen[COUNT] = {0};
  for (int t = 0; t < ntexts; ++t)
    for (size_t at = 0; texts[t] && at < sizes[t];) {
      const char *line = texts[t] + at;
      const char *nl = memchr(line, '\n', sizes[t] - at);
      size_t len = nl ? (size_t)(nl - line) : sizes[t] - at;
      for (int k = 0; k < COUNT; ++k)
        seen[k] |= error_quotes(line, len, removed[k].name,
                                removed[k].what != NULL);
      at += len + 1;
    }
  for (int k = 0; k < COUNT; ++k)
    if (seen[k])
      cuemu__driver_say("note",
                        "'%s'%s%s%s is not in CUDA since CUDA %s (nvcc "
                        "refuses it too); use %s instead",
                        removed[k].name, removed[k].what ? " (" : "",
                        removed[k].what ? removed[k].what : "",
                        removed[k].what ? ")" : "", removed[k].since,
                        removed[k].instead);
}
