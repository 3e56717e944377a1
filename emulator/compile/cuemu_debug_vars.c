/*
 * cuemu_debug_vars.c: an object whose debugging information declares the
 * built-in variables, for debug builds that clang++ compiles.
 *
 * In a debug build every unit declares threadIdx, blockIdx, blockDim and
 * gridDim in its debugging information (cuemu_builtin_vars.h), so that gdb
 * parses `break k.cu:12 if threadIdx.x == 5` before libcuemu, which
 * defines them, is loaded. g++ describes an external variable that a unit
 * uses; clang++ never does (it describes external declarations for BPF
 * only). A unit that includes CUB or Thrust is compiled by clang++
 * (use_clang_for_cccl() in cuemu_compile.c), so in its program gdb said
 * `No symbol "threadIdx" in current context.` and set no breakpoint. Its
 * device pass therefore gets this object, compiled by g++, beside its own.
 * It is compiled as a CUDA unit's code (__CUDACC__), the only code that
 * the header gives the declarations to: host code that includes it through
 * <cuda_runtime.h> has no built-in variables.
 */
#include <limits.h>
#include <stdio.h>

#include "base/cuemu_report.h"
#include "cuemu/cuemu_cache.h"
#include "cuemu_driver.h"

cuemu_status cuemu__debug_vars_object(const char *shims, const char *include,
                                      const char *temp, char *object,
                                      size_t size) {
  char gxx[PATH_MAX], source[PATH_MAX + 96], shims_option[PATH_MAX + 4],
      include_option[PATH_MAX + 4];
  if (cuemu_command_find("g++", gxx, sizeof gxx) != CUEMU_SUCCESS)
    return CUEMU_COMPILE;
  if ((size_t)snprintf(source, sizeof source, "%s.vars.cpp", temp) >=
          sizeof source ||
      (size_t)snprintf(object, size, "%s.vars.o", temp) >= size ||
      (size_t)snprintf(shims_option, sizeof shims_option, "-I%s", shims) >=
          sizeof shims_option ||
      (size_t)snprintf(include_option, sizeof include_option, "-I%s",
                       include) >= sizeof include_option)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  FILE *f = fopen(source, "w");
  if (!f)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", source);
  fputs("#include <cuemu_builtin_vars.h>\n", f);
  if (fclose(f) != 0)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", source);
  const char *argv[] = {gxx,          "-std=c++17",   "-g",
                        "-O0",        "-fPIC",        "-D__CUDACC__",
                        shims_option, include_option, "-c",
                        source,       "-o",           object,
                        NULL};
  int rc = 0;
  cuemu_status st = cuemu_command_run(argv, NULL, &rc);
  remove(source);
  if (st != CUEMU_SUCCESS || rc != 0) {
    remove(object);
    return CUEMU_COMPILE;
  }
  return CUEMU_SUCCESS;
}
