/*
 * cublasXt.h: cuBLAS's multi-GPU API, NVIDIA's header, after the shims' versions of the
 * runtime headers it includes (see cuemu_toolkit_next.h).
 */
#ifdef CUEMU_TOOLKIT_PASSING
#include_next <cublasXt.h>
#else
#include "driver_types.h"
#include "cuComplex.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"
#include "library_types.h"
#define CUEMU_TOOLKIT_NEXT "cublasXt.h"
#include "cuemu_toolkit_next.h"
#endif
