/* cache_probe.h: a header of cache_probe.cu; tests/check_compile.c edits a
 * copy of it to check that the compile cache sees header changes. */
#ifndef CACHE_PROBE_H
#define CACHE_PROBE_H

#define CACHE_PROBE_VALUE 5

#endif
