/*
 * cuemu_llvm_openmp.c: LLVM's OpenMP runtime for a link whose objects call
 * it (cuemu__llvm_openmp_runtime(), cuemu_driver.h).
 *
 * cuemu-cc compiles a unit that includes CUB or Thrust with clang++ when
 * the user chose no compiler (use_clang_for_cccl(), cuemu_compile.c),
 * since g++ refuses CUB. With -Xcompiler -fopenmp, clang++ lowers that
 * unit's OpenMP loops to calls of LLVM's runtime (__kmpc_fork_call,
 * __kmpc_for_static_init_4), which libgomp does not define. A Makefile
 * that compiles with -c and links apart (as the benchmark collections'
 * do: `$(CC) $(CFLAGS) -c main.cu`, then `$(CC) $(CFLAGS) main.o -o main`)
 * links with the user's host compiler, g++, and libgomp: the link failed
 * with undefined __kmpc_ references. A one-step build linked with clang++
 * and did not.
 *
 * So a link with OpenMP whose objects reference __kmpc_ names LLVM's
 * libomp (where clang++ finds it) before libgomp. libomp also defines
 * libgomp's entry points (GOMP_parallel and the rest), and the loader
 * binds each name to the first library that defines it, so the g++
 * units' loops run on libomp too: the process has one OpenMP runtime in
 * use, and libomp reads OMP_WAIT_POLICY as libgomp does
 * (emulator/core/cuemu_omp_wait.c).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_driver.h"

static cuemu_status note_kmpc(void *ctx, const char *name, int kind) {
  if (kind == CUEMU_LINK_UNDEFINED && strncmp(name, "__kmpc_", 7) == 0)
    *(int *)ctx = 1;
  return CUEMU_SUCCESS;
}

int cuemu__objects_call_llvm_openmp(const char *const *files, int n) {
  int found = 0;
  for (int i = 0; i < n && !found; ++i) {
    size_t len = strlen(files[i]);
    if (len > 2 && strcmp(files[i] + len - 2, ".o") == 0)
      (void)cuemu__elf_link_symbols(files[i], 0, 0, note_kmpc, &found);
  }
  return found;
}

/* Asks `clang` where its libomp.so is (-print-file-name) into `path`;
 * returns 1 when it names a file that exists. */
static int ask_clang(const char *clang, char *path, size_t size) {
  const char *tmp = getenv("TMPDIR");
  char out[PATH_MAX];
  if (snprintf(out, sizeof out, "%s/cuemu-libomp-XXXXXX",
               tmp && *tmp ? tmp : "/tmp") >= (int)sizeof out)
    return 0;
  int fd = mkstemp(out);
  if (fd < 0)
    return 0;
  close(fd);
  const char *argv[] = {clang, "-print-file-name=libomp.so", NULL};
  int rc = -1, found = 0;
  if (cuemu_command_run(argv, out, &rc) == CUEMU_SUCCESS && rc == 0) {
    FILE *f = fopen(out, "r");
    if (f && fgets(path, (int)size, f)) {
      path[strcspn(path, "\n")] = '\0';
      found = path[0] == '/' && access(path, R_OK) == 0;
    }
    if (f)
      fclose(f);
  }
  unlink(out);
  return found;
}

/* Puts into `path` the libomp.so of the lib folder beside the bin folder
 * of `clang` (links resolved), where clang++ -fopenmp links it from (its
 * own -L; /usr/lib/llvm-14/lib on Debian, which -print-file-name does not
 * search); returns 1 when it exists. */
static int beside_clang(const char *clang, char *path, size_t size) {
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

const char *cuemu__llvm_openmp_runtime(void) {
  static char runtime[PATH_MAX];
  if (runtime[0])
    return runtime;
  char clang[PATH_MAX];
  if (cuemu_command_find("clang++", clang, sizeof clang) != CUEMU_SUCCESS ||
      (!ask_clang(clang, runtime, sizeof runtime) &&
       !beside_clang(clang, runtime, sizeof runtime)))
    snprintf(runtime, sizeof runtime, "-lomp");
  return runtime;
}
