/*
 * cuemu_libdevice_select.c: chooses, once, which build of libdevice's math
 * functions libcuemu's cuemu_nv_* are.
 *
 * libdevice's functions are chains of fused multiply-adds. The build
 * compiles them twice (emulator/math/math.am): cuemu__ld_fma_NAME with the
 * processor's FMA instructions, and cuemu__ld_generic_NAME, which calls the
 * C library's fma() for each (correct everywhere, several times slower).
 * Both round exactly as the GPU's fma does, so they give the same bits.
 * Each cuemu_nv_NAME is a GNU indirect function: the dynamic linker asks
 * the resolver below once, when the library loads.
 */
#include <cuemu/cuemu_libdevice.h>

/* Whether the processor has FMA instructions (and the AVX state they use). */
static int cuemu__ld_has_fma(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx");
}

#define CUEMU_LIBDEVICE_SELECT_(name)                                         \
  extern __typeof__(cuemu_nv_##name) cuemu__ld_fma_##name,                     \
      cuemu__ld_generic_##name;                                                \
  static __typeof__(cuemu_nv_##name) *cuemu__ld_resolve_##name(void) {         \
    return cuemu__ld_has_fma() ? cuemu__ld_fma_##name                          \
                               : cuemu__ld_generic_##name;                     \
  }                                                                            \
  __typeof__(cuemu_nv_##name) cuemu_nv_##name                                  \
      __attribute__((ifunc("cuemu__ld_resolve_" #name)));
#define CUEMU_LIBDEVICE_LIBM(name) CUEMU_LIBDEVICE_SELECT_(name)
#define CUEMU_LIBDEVICE_CUDA(name) CUEMU_LIBDEVICE_SELECT_(name)
#define CUEMU_LIBDEVICE_FAST(name) CUEMU_LIBDEVICE_SELECT_(name)
#include "cuemu_libdevice.def"
