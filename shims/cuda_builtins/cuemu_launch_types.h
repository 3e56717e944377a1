/*
 * cuemu_launch_types.h: cudaLaunchKernelEx's configuration (cudaLaunchConfig_t)
 * and the kernel handle. C and C++ (cuemu_launch_ex_api.h).
 */
#ifndef CUEMU_LAUNCH_TYPES_H
#define CUEMU_LAUNCH_TYPES_H

#include <stddef.h>

#include "driver_types.h"
#include "vector_types.h"
#include "cuemu_library_types.h"

typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;

#endif /* CUEMU_LAUNCH_TYPES_H */
