/*
 * nvblas.h: NVBLAS's API, NVIDIA's header, after the shims' versions of the
 * runtime headers it includes (see cuemu_toolkit_next.h).
 */
#ifdef CUEMU_TOOLKIT_PASSING
#include_next <nvblas.h>
#else
#include "driver_types.h"
#include "cuComplex.h"
#define CUEMU_TOOLKIT_NEXT "nvblas.h"
#include "cuemu_toolkit_next.h"
#endif
