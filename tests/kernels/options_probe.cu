/*
 * options_probe.cu: needs -DVALUE=7 and -I tests/kernels/include, and reports
 * the C++ standard it was compiled with, to check that -D, -I and -std pass
 * through to the compiler (tests/check_compile.c; tests/nvcc_kernels.sh passes
 * the same options to nvcc).
 */
/* NVCC_OPTIONS: -DVALUE=7 -Iinclude */
#include <options_probe_value.h>

#ifndef VALUE
#error "compile with -DVALUE=7"
#endif

__global__ void options_probe(long *out) {
  out[0] = VALUE;
  out[1] = OPTIONS_PROBE_HEADER_VALUE;
  out[2] = __cplusplus;
}
