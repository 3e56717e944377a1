/*
 * cublas_api.h: cuBLAS's API, NVIDIA's header, after the shims' versions of the
 * runtime headers it includes (see cuemu_toolkit_next.h).
 */
#ifdef CUEMU_TOOLKIT_PASSING
#include_next <cublas_api.h>
#else
#include "driver_types.h"
#include "cuComplex.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"
#include "library_types.h"
#define CUEMU_TOOLKIT_NEXT "cublas_api.h"
#include "cuemu_toolkit_next.h"
#endif
