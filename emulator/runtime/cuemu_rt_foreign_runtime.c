/*
 * cuemu_rt_foreign_runtime.c: a warning when NVIDIA's CUDA runtime is in
 * the program beside cuemu's.
 *
 * cuemu-nvcc links cuemu's runtime in NVIDIA's place (-lcudart, and a path
 * to libcudart.so or libcudart_static.a). A link it takes no part in can
 * still bring NVIDIA's: CMake's FindCUDA, which found a real toolkit, puts
 * /usr/local/cuda/lib64/libcudart_static.a in CUDA_LIBRARIES, and a target
 * that mixes .cpp and .cu files is linked by the C++ compiler with it
 * before cuemu's libraries. The kernels and the runtime calls of the .cu
 * files (which cuemu's headers name apart) then run in cuemu, while the
 * .cpp files' runtime calls go to NVIDIA's runtime, which finds no GPU:
 * `cudaGetDeviceCount` fails and the program reports no device, or worse.
 * When the program's first unit of cuemu's registers (not a module's,
 * which Python or the parity runner loads beside NVIDIA's runtime on a
 * GPU machine), this file looks for that runtime: the
 * `cudaGetDeviceCount` that the process's global scope finds (a shared
 * libcudart.so ahead of libcuemu), or one defined by the program itself
 * (a static libcudart), and warns once on stderr, naming the object.
 *
 * The same link brings NVIDIA's math libraries when the project names the
 * system toolkit's lib64 itself (`link_directories(/usr/local/cuda/lib64)`
 * and `-lcublas`, a target that the C++ compiler links): cuBLAS's
 * `cublasCreate` then answers CUBLAS_STATUS_NOT_INITIALIZED, finding no
 * GPU, and the program stops at its first library call. Each library's
 * first call found in a shared object that is not cuemu's is warned of
 * once too, with the remedy: cuemu's toolkit lib64 first in
 * LD_LIBRARY_PATH, which holds cuemu's libraries under NVIDIA's file names
 * (libcublas.so.13 and the others, emulator/libs/libs.am).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/cuemu_global_symbol.h"
#include "device/cuemu_elf_symbol.h"
#include "runtime/cuemu_rt_foreign_runtime.h"

/* The runtime call that both runtimes define and host code calls first. */
static const char probe[] = "cudaGetDeviceCount";

/* NVIDIA's libraries that cuemu emulates, each by the call that a program
 * makes first (a handle or a plan). */
static const struct {
  const char *probe, *name;
} libraries[] = {
    {"cublasCreate_v2", "cuBLAS"},     {"cublasLtCreate", "cuBLASLt"},
    {"curandCreateGenerator", "cuRAND"}, {"cufftPlan1d", "cuFFT"},
    {"cusparseCreate", "cuSPARSE"},    {"cusolverDnCreate", "cuSOLVER"},
};

/* dl_iterate_phdr's callback: the address of the first loaded segment of
 * the first object, the program (dladdr()'s dli_fbase of its addresses,
 * which a file lookup checks is mapped from the file). */
static int program_start(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_LOAD) {
      *(uintptr_t *)data = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
      break;
    }
  return 1;
}

static void warn(const char *where) {
  fprintf(stderr,
          "cuemu: warning: NVIDIA's CUDA runtime is linked into this program "
          "(%s) beside cuemu's: its host code's runtime calls go to a "
          "runtime that finds no GPU while its kernels run in cuemu; link "
          "cuemu's runtime in its place (cuemu-nvcc does; for CMake's "
          "FindCUDA, give -DCUDA_TOOLKIT_ROOT_DIR=<cuemu's libdir>/"
          "cuemu-toolkit, docs/runtime.md)\n",
          where);
}

/* Whether the shared object at `path` is cuemu's runtime: its symbols, or
 * those of the objects it depends on, include libcuemu's (cuemu's
 * libcuemu_cudart.so, which the toolkit's libcudart names, links it). */
static int cuemus(const char *path) {
  void *handle = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
  if (!handle)
    return 0;
  int found = dlsym(handle, "cuemu_program_register") != NULL;
  dlclose(handle);
  return found;
}

/* The file of the shared object, neither the program nor cuemu's, that
 * defines `symbol` for the process's global scope; NULL where none does.
 * The lookup is not dlsym()'s, whose failures (the usual answer) would
 * leave freed error texts for the program's first malloc() of their size,
 * where a program built by nvcc finds a fresh heap. */
static const char *foreign_definition(const char *symbol, uintptr_t program) {
  Dl_info found;
  void *probed = cuemu__global_symbol(symbol);
  if (probed && dladdr(probed, &found) && found.dli_fname &&
      (uintptr_t)found.dli_fbase != program && !cuemus(found.dli_fname))
    return found.dli_fname;
  return NULL;
}

static void check_libraries(uintptr_t program) {
  for (size_t i = 0; i < sizeof libraries / sizeof *libraries; ++i) {
    const char *where = foreign_definition(libraries[i].probe, program);
    if (where)
      fprintf(stderr,
              "cuemu: warning: NVIDIA's %s is linked into this program (%s): "
              "it finds no GPU, so its calls fail; run the program with "
              "cuemu's toolkit lib64 (<cuemu's libdir>/cuemu-toolkit/lib64) "
              "first in LD_LIBRARY_PATH, which holds cuemu's %s under "
              "NVIDIA's file name, or link it from there (docs/cublas.md)\n",
              libraries[i].name, where, libraries[i].name);
  }
}

static void check(void) {
  Dl_info own;
  uintptr_t program = 0;
  if (!dladdr((const void *)check, &own))
    return;
  dl_iterate_phdr(program_start, &program);
  check_libraries(program);
  /* cuemu linked into the program itself defines the call there. */
  if ((uintptr_t)own.dli_fbase == program)
    return;
  const char *where = foreign_definition(probe, program);
  if (where) {
    warn(where);
    return;
  }
  /* A static runtime in the program is in its dynamic symbol table only
   * where a shared object refers to it: the program's own symbol table
   * names it. */
  if (cuemu__elf_defines_function("/proc/self/exe", program, probe))
    warn("the program itself: a static libcudart");
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

void cuemu__rt_foreign_runtime_check(const void *unit) {
  /* Only a program's own units: a module that a process loads (Python, the
   * parity runner, which may hold NVIDIA's runtime for the GPU's leg) or a
   * shared library of CUDA code is no sign of a mixed link. */
  Dl_info where;
  uintptr_t program = 0;
  if (!dladdr(unit, &where))
    return;
  dl_iterate_phdr(program_start, &program);
  if ((uintptr_t)where.dli_fbase == program)
    pthread_once(&once, check);
}
