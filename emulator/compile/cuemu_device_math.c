/*
 * cuemu_device_math.c: the device pass's calls of the C library's math
 * functions (sin, expf, pow...) become calls of libdevice's, which libcuemu
 * holds as cuemu_nv_NAME (emulator/math/cuemu_libdevice.def,
 * docs/device-math.md), so that kernels get a GPU's bits, not glibc's.
 * objcopy renames the calls in the device pass's object, beside the device
 * heap's renames (cuemu_device_symbols.h); host code keeps the C library's,
 * as it does under nvcc. Without libdevice (CUEMU_HAVE_LIBDEVICE unset when
 * cuemu was configured), nothing is renamed. Internal to cuemu-cc.
 */
#include "config.h"

#include <stddef.h>

#include "cuemu_driver.h"

#if CUEMU_HAVE_LIBDEVICE
/* objcopy's options, two words a function. */
static const char *const renames[] = {
#define CUEMU_LIBDEVICE_LIBM(name) "--redefine-sym", #name "=cuemu_nv_" #name,
#define CUEMU_LIBDEVICE_CUDA(name)
#include "../math/cuemu_libdevice.def"
#undef CUEMU_LIBDEVICE_LIBM
#undef CUEMU_LIBDEVICE_CUDA
};
#endif

size_t cuemu__device_math_renames(const char **argv, size_t max) {
  size_t n = 0;
#if CUEMU_HAVE_LIBDEVICE
  for (; n + 2 <= sizeof renames / sizeof *renames && n + 2 <= max; n += 2) {
    argv[n] = renames[n];
    argv[n + 1] = renames[n + 1];
  }
#else
  (void)argv;
  (void)max;
#endif
  return n;
}
