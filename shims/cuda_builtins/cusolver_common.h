/*
 * cusolver_common.h: cuSOLVER's common types, NVIDIA's header, after the shims' versions of the
 * runtime headers it includes (see cuemu_toolkit_next.h).
 */
#ifdef CUEMU_TOOLKIT_PASSING
#include_next <cusolver_common.h>
#else
#include "library_types.h"
#define CUEMU_TOOLKIT_NEXT "cusolver_common.h"
#include "cuemu_toolkit_next.h"
#endif
