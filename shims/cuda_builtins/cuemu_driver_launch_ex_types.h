/*
 * cuemu_driver_launch_ex_types.h: the types of cuLaunchKernelEx
 * (CUlaunchAttribute, in cudaLaunchAttribute's layout, and CUlaunchConfig),
 * in CUDA 13's layout. C reads them too: cuda.h's C view
 * (cuemu_driver_c_decls.h, written by scripts/driver_c_view.py) includes
 * this header where cuemu_driver_launch_ex_api.h reads it.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_LAUNCH_EX_TYPES_H
#define CUEMU_DRIVER_LAUNCH_EX_TYPES_H

typedef struct CUlaunchAttribute_st {
  CUlaunchAttributeID id;
  char pad[8 - sizeof(CUlaunchAttributeID)];
  CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig_st {
  unsigned int gridDimX, gridDimY, gridDimZ;
  unsigned int blockDimX, blockDimY, blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned int numAttrs;
} CUlaunchConfig;

#endif /* CUEMU_DRIVER_LAUNCH_EX_TYPES_H */
