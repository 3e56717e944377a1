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
/* objcopy's options, two words a function: accurate, and for nvcc's
 * --use_fast_math. */
static const char *const renames[] = {
#define CUEMU_LIBDEVICE_LIBM(name) "--redefine-sym", #name "=cuemu_nv_" #name,
#define CUEMU_LIBDEVICE_FAST(name) CUEMU_LIBDEVICE_LIBM(name)
#define CUEMU_LIBDEVICE_CUDA(name)
#include "../math/cuemu_libdevice.def"
#undef CUEMU_LIBDEVICE_FAST
#define CUEMU_LIBDEVICE_FAST(name)                                             \
  "--redefine-sym", #name "=cuemu_nv_fast_" #name,
};
static const char *const fast_renames[] = {
#include "../math/cuemu_libdevice.def"
#undef CUEMU_LIBDEVICE_LIBM
#undef CUEMU_LIBDEVICE_FAST
#undef CUEMU_LIBDEVICE_CUDA
};
#endif

size_t cuemu__device_math_renames(const char **argv, size_t max,
                                  int fast_math) {
  size_t n = 0;
#if CUEMU_HAVE_LIBDEVICE
  const char *const *table = fast_math ? fast_renames : renames;
  const size_t count = fast_math ? sizeof fast_renames / sizeof *fast_renames
                                 : sizeof renames / sizeof *renames;
  for (; n + 2 <= count && n + 2 <= max; n += 2) {
    argv[n] = table[n];
    argv[n + 1] = table[n + 1];
  }
#else
  (void)argv;
  (void)max;
  (void)fast_math;
#endif
  return n;
}
