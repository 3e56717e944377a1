/*
 * cuemu_device_math.c: the device pass's calls of the C library's math
 * functions (sin, expf, pow...) become calls of libdevice's, which libcuemu
 * holds as cuemu_nv_NAME (emulator/math/cuemu_libdevice.def), so that
 * kernels get a GPU's bits, not glibc's. objcopy renames the calls in the
 * device pass's object, beside the device heap's renames
 * (cuemu_device_symbols.h); host code keeps the C library's, as it does
 * under nvcc. Without libdevice (CUEMU_HAVE_LIBDEVICE unset when libcuemu
 * was configured), nothing is renamed. Internal to cuemu-cc.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cuemu/cuemu.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"

#if CUEMU_HAVE_LIBDEVICE
/* objcopy's --redefine-syms file: one "old new" pair a line. */
static const char renames[] =
#define CUEMU_LIBDEVICE_LIBM(name) #name " cuemu_nv_" #name "\n"
#define CUEMU_LIBDEVICE_CUDA(name)
#include "../math/cuemu_libdevice.def"
#undef CUEMU_LIBDEVICE_LIBM
#undef CUEMU_LIBDEVICE_CUDA
    ;
#endif

cuemu_status cuemu__device_math_renames(const char *temp, char *option, size_t size,
                               char *file, size_t file_size) {
  file[0] = '\0';
  snprintf(option, size, "--wildcard");
#if CUEMU_HAVE_LIBDEVICE
  if ((size_t)snprintf(file, file_size, "%s.math", temp) >= file_size ||
      (size_t)snprintf(option, size, "--redefine-syms=%s", file) >= size)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long");
  FILE *f = fopen(file, "we");
  if (!f)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", file,
                         strerror(errno));
  const int werr = fputs(renames, f) < 0;
  if (fclose(f) != 0 || werr)
    return cuemu__report(CUEMU_IO_ERROR, "cannot write %s", file);
#else
  (void)temp;
#endif
  return CUEMU_SUCCESS;
}
