/*
 * cufft.h: cuFFT's API, NVIDIA's header, after the shims' versions of the
 * runtime headers it includes (see cuemu_toolkit_next.h).
 */
#ifdef CUEMU_TOOLKIT_PASSING
#include_next <cufft.h>
#else
#include "cuComplex.h"
#include "driver_types.h"
#include "library_types.h"
#define CUEMU_TOOLKIT_NEXT "cufft.h"
#include "cuemu_toolkit_next.h"
#endif
