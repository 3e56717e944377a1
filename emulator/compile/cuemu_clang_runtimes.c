/*
 * cuemu_clang_runtimes.c: the runtime libraries of clang++'s code for a
 * link by another compiler (cuemu__clang_runtime_words(), cuemu_driver.h).
 *
 * cuemu-cc compiles a unit that includes CUB or Thrust with clang++ when
 * the user chose no compiler (use_clang_for_cccl(), cuemu_compile.c),
 * since g++ refuses CUB. Some host options make clang++'s code call a
 * runtime of LLVM's that g++'s link does not bring:
 *  - -fopenmp: the OpenMP loops call LLVM's libomp (__kmpc_fork_call,
 *    __kmpc_for_static_init_4), not libgomp;
 *  - --coverage, -fprofile-arcs: the counters are written by
 *    libclang_rt.profile (llvm_gcda_start_file), not libgcov; likewise
 *    -fprofile-instr-generate (__llvm_profile_...).
 * A Makefile that compiles with -c and links apart (as the benchmark
 * collections' do: `$(CC) $(CFLAGS) -c main.cu`, then `$(CC) $(CFLAGS)
 * main.o -o main`) links with the user's host compiler, g++: the link
 * failed with undefined references (HeCBench's attentionMultiHead-cuda,
 * with -Xcompiler -fopenmp). A one-step build linked with clang++ and did
 * not.
 *
 * So such a link names the runtime that its objects call, as clang++
 * finds it: libomp before libgomp (libomp also defines libgomp's entry
 * points, GOMP_parallel and the rest, and the loader binds each name to
 * the first library that defines it, so the g++ units' loops run on
 * libomp too: one OpenMP runtime in use, which reads OMP_WAIT_POLICY as
 * libgomp does, emulator/core/cuemu_omp_wait.c), and the profile runtime
 * beside clang's builtins library.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_driver.h"

enum { RT_OPENMP, RT_PROFILE, RT_COUNT };

/* The names that tell each runtime's callers. */
static const char *const callers[RT_COUNT][3] = {
    {"__kmpc_", NULL, NULL},
    {"llvm_gcda_", "__llvm_profile_", NULL},
};

static cuemu_status note_caller(void *ctx, const char *name, int kind) {
  unsigned *needs = ctx;
  if (kind != CUEMU_LINK_UNDEFINED)
    return CUEMU_SUCCESS;
  for (int r = 0; r < RT_COUNT; ++r)
    for (int i = 0; callers[r][i]; ++i)
      if (strncmp(name, callers[r][i], strlen(callers[r][i])) == 0)
        *needs |= 1u << r;
  return CUEMU_SUCCESS;
}

/* Runs `clang -OPTION` and puts the first line it prints into `path`;
 * returns 1 when that names a file that exists. */
static int ask_clang(const char *clang, const char *option, char *path,
                     size_t size) {
  const char *argv[] = {clang, option, "--rtlib=compiler-rt", NULL};
  return cuemu__command_first_line(argv, path, size) == 0 &&
         path[0] == '/' && access(path, R_OK) == 0;
}

/* LLVM's libomp: where clang++ -print-file-name finds it, else in the lib
 * folder beside the bin folder of clang (links resolved), from where
 * clang++ -fopenmp links it (its own -L; /usr/lib/llvm-14/lib on Debian,
 * which -print-file-name does not search). */
static int find_openmp(const char *clang, char *path, size_t size) {
  if (ask_clang(clang, "-print-file-name=libomp.so", path, size))
    return 1;
  char real[PATH_MAX];
  if (!realpath(clang, real))
    return 0;
  for (int up = 0; up < 2; ++up) {
    char *slash = strrchr(real, '/');
    if (!slash)
      return 0;
    *slash = '\0';
  }
  return snprintf(path, size, "%s/lib/libomp.so", real) < (int)size &&
         access(path, R_OK) == 0;
}

/* libclang_rt.profile: beside the builtins library that clang++ names
 * (lib/linux/libclang_rt.builtins-x86_64.a, or the newer per-target
 * folder's libclang_rt.builtins.a). */
static int find_profile(const char *clang, char *path, size_t size) {
  if (!ask_clang(clang, "-print-libgcc-file-name", path, size))
    return 0;
  char *builtins = strstr(path, "builtins");
  char rest[PATH_MAX];
  if (!builtins)
    return 0;
  snprintf(rest, sizeof rest, "%s", builtins + strlen("builtins"));
  *builtins = '\0';
  return strlen(path) + strlen("profile") + strlen(rest) < size &&
         strcat(strcat(path, "profile"), rest) && access(path, R_OK) == 0;
}

/* The word for runtime r, looked up once per process. */
static const char *runtime_word(int r) {
  static char words[RT_COUNT][PATH_MAX];
  static const char *const fallback[RT_COUNT] = {"-lomp", "-lclang_rt.profile"};
  if (words[r][0])
    return words[r];
  char clang[PATH_MAX];
  int found = cuemu_command_find("clang++", clang, sizeof clang) ==
              CUEMU_SUCCESS;
  if (!found || !(r == RT_OPENMP ? find_openmp(clang, words[r], PATH_MAX)
                                 : find_profile(clang, words[r], PATH_MAX)))
    snprintf(words[r], PATH_MAX, "%s", fallback[r]);
  return words[r];
}

int cuemu__clang_runtime_words(const char *const *files, int n,
                               const char **words, int max) {
  unsigned needs = 0;
  for (int i = 0; i < n; ++i) {
    size_t len = strlen(files[i]);
    if (len > 2 && strcmp(files[i] + len - 2, ".o") == 0)
      (void)cuemu__elf_link_symbols(files[i], 0, 0, note_caller, &needs);
  }
  int count = 0;
  for (int r = 0; r < RT_COUNT && count < max; ++r)
    if (needs & (1u << r))
      words[count++] = runtime_word(r);
  return count;
}
