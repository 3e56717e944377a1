/*
 * cusolverRf.h: cuSOLVER's refactorization API, NVIDIA's header, after the shims' versions of the
 * runtime headers it includes (see cuemu_toolkit_next.h).
 */
#ifdef CUEMU_TOOLKIT_PASSING
#include_next <cusolverRf.h>
#else
#include "driver_types.h"
#include "cuComplex.h"
#include "library_types.h"
#define CUEMU_TOOLKIT_NEXT "cusolverRf.h"
#include "cuemu_toolkit_next.h"
#endif
