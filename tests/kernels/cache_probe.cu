/*
 * cache_probe.cu: a kernel whose result depends on an included header and on
 * a -D option, for the compile-cache tests of tests/check_compile.c:
 * out[threadIdx.x] = CACHE_PROBE_VALUE + PROBE_EXTRA + threadIdx.x.
 */
#include "cache_probe.h"

#ifndef PROBE_EXTRA
#define PROBE_EXTRA 0
#endif

__global__ void cache_probe(int *out) {
  const int t = (int)threadIdx.x;
  out[t] = CACHE_PROBE_VALUE + PROBE_EXTRA + t; /* PROBE_LINE */
}
