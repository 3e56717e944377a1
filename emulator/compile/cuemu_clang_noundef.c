/*
 * cuemu_clang_noundef.c: the clang++ option that turns off its `noundef`
 * analysis, for device code.
 *
 * Since clang 14, every by-value parameter and return value is `noundef`:
 * passing an uninitialised value is undefined behaviour, and the optimiser
 * deletes the paths that do it. Device code does it on purpose: a warp's
 * leader sets a variable and every lane passes it to a shuffle, whose
 * value the others never read (`int base; if (rank == 0) base =
 * atomicAdd(...); base = g.shfl(base, 0);`, NVIDIA's warp-aggregated
 * atomics). On a GPU each lane's register just holds garbage; clang++ -O2
 * instead made the leader's atomicAdd unconditional, so every lane added
 * (tests/programs/trialmd/warp_aggregated_clang.cu). The option has two
 * spellings, `-disable-noundef-analysis` in clang 14 and
 * `-no-enable-noundef-analysis` from clang 15 on; clang refuses the one it
 * does not know, so the compiler is asked once per process which it takes.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cuemu/cuemu_cache.h>

#include "cuemu_driver.h"

/* Whether `compiler` compiles an empty unit with `-Xclang option`. */
static int takes_option(const char *compiler, const char *option) {
  const char *argv[] = {compiler, "-Xclang", option, "-fsyntax-only",
                        "-x", "c++", "/dev/null", NULL};
  int status = -1;
  return cuemu_command_run(argv, "/dev/null", &status) == CUEMU_SUCCESS &&
         status == 0;
}

const char *cuemu__clang_noundef_option(const char *compiler) {
  static const char *const spellings[] = {"-no-enable-noundef-analysis",
                                          "-disable-noundef-analysis", NULL};
  /* The answer for the compiler asked last (a process compiles with one
   * or two compilers), under a lock: not thread-local, since libcuemu's
   * thread-local storage is static and small enough for dlopen (Python's
   * ctypes) only without a path's worth of it. */
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static char asked[PATH_MAX];
  static const char *answer;
  pthread_mutex_lock(&lock);
  if (strcmp(asked, compiler) != 0) {
    answer = NULL;
    for (int i = 0; spellings[i] && !answer; ++i)
      if (takes_option(compiler, spellings[i]))
        answer = spellings[i];
    snprintf(asked, sizeof asked, "%s", compiler);
  }
  const char *found = answer;
  pthread_mutex_unlock(&lock);
  return found;
}
