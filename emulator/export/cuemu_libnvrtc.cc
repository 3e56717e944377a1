/*
 * cuemu_libnvrtc.cc: libnvrtc.so.13, NVRTC's C symbols, for C files that
 * call NVRTC through nvrtc.h's C view and link with -lnvrtc (the
 * toolkit's lib64/libnvrtc.so names this library), and for programs that
 * load it by name. Built by emulator/export/libnvrtc.am.
 *
 * Each function of cuemu_nvrtc_functions.h is defined as a call of
 * nvrtc.h's inline function (which calls libcuemu), so that the compile
 * of this file checks the list's parameters against the C++ view.
 */
#include <nvrtc.h>

/* The exported functions: C symbols with NVRTC's names (an asm label
 * each, since the inline C++ functions of the same name are in scope),
 * every other name of the library hidden (-fvisibility=hidden). */
namespace cuemu_libnvrtc {
#define CUEMU_NVRTC_FUNCTION(result, name, parameters, arguments)              \
  __attribute__((visibility("default"))) result export_##name parameters       \
      __asm__(#name);                                                          \
  result export_##name parameters { return ::name arguments; }
#include "cuemu_nvrtc_functions.h"
#undef CUEMU_NVRTC_FUNCTION
} // namespace cuemu_libnvrtc
