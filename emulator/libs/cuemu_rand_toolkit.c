/*
 * cuemu_rand_toolkit.c: NVIDIA's cuRAND tables (the Sobol direction
 * vectors and scramble constants), read at run time from the installed CUDA
 * toolkit's libcurand.so, so that cuemu's values are exactly NVIDIA's and
 * cuemu carries no copy of them.
 *
 * The functions read (curandGetDirectionVectors32/64,
 * curandGetScrambleConstants32/64) only return pointers to tables inside
 * the library: they need no GPU and no driver (checked without one). The
 * library is opened with RTLD_LOCAL, so that its symbols do not replace
 * cuemu's cuRAND functions in the program; it is linked -Bsymbolic
 * (DT_SYMBOLIC), so its own calls stay inside it without RTLD_DEEPBIND,
 * which the sanitizers' runtimes refuse. It is never closed (the pointers
 * stay valid). It is looked up as
 * $CUEMU_CURAND_LIBRARY (a path), else in the lib64 folder of
 * $CUDA_HOME, $CUDA_PATH or /usr/local/cuda.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuemu_rand.h"

static void *toolkit;
static char toolkit_error[512];
static pthread_once_t toolkit_once = PTHREAD_ONCE_INIT;

static void *open_library(const char *path) {
  return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

static void open_toolkit(void) {
  const char *explicit = getenv("CUEMU_CURAND_LIBRARY");
  if (explicit && *explicit) {
    toolkit = open_library(explicit);
    if (!toolkit)
      snprintf(toolkit_error, sizeof toolkit_error,
               "CUEMU_CURAND_LIBRARY=%s cannot be opened (%s)", explicit,
               dlerror());
    return;
  }
  const char *roots[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"),
                         "/usr/local/cuda"};
  for (size_t i = 0; i < sizeof roots / sizeof *roots && !toolkit; ++i) {
    if (!roots[i] || !*roots[i])
      continue;
    const char *names[] = {"libcurand.so.10", "libcurand.so"};
    for (size_t j = 0; j < 2 && !toolkit; ++j) {
      char path[4096];
      snprintf(path, sizeof path, "%s/lib64/%s", roots[i], names[j]);
      toolkit = open_library(path);
    }
  }
  if (!toolkit)
    snprintf(toolkit_error, sizeof toolkit_error,
             "no CUDA toolkit libcurand.so.10 in $CUDA_HOME/lib64, "
             "$CUDA_PATH/lib64 or /usr/local/cuda/lib64 (or set "
             "CUEMU_CURAND_LIBRARY to its path)");
}

curandStatus_t cuemu__rand_toolkit_table(const char *function, int set,
                                         void **out) {
  pthread_once(&toolkit_once, open_toolkit);
  void *symbol = toolkit ? dlsym(toolkit, function) : NULL;
  if (!symbol) {
    fprintf(stderr,
            "cuemu: %s: cuemu reads cuRAND's tables from the CUDA toolkit's "
            "libcurand.so, and %s\n",
            function,
            toolkit ? "it lacks this function" : toolkit_error);
    return CURAND_STATUS_INITIALIZATION_FAILED;
  }
  curandStatus_t status;
  if (set < 0) {
    curandStatus_t (*get)(void **) = (curandStatus_t(*)(void **))symbol;
    status = get(out);
  } else {
    curandStatus_t (*get)(void **, int) =
        (curandStatus_t(*)(void **, int))symbol;
    status = get(out, set);
  }
  return status;
}
