/*
 * cuemu_ids_types.h: the handles of a program's kernels (cudaKernel_t, and
 * cudaFunction_t, the driver's CUfunction, which cuLaunchKernel and the
 * cuFunc* calls take) and the enumerations of cudaGetDriverEntryPoint.
 * C and C++ (cuemu_ids_api.h).
 */
#ifndef CUEMU_IDS_TYPES_H
#define CUEMU_IDS_TYPES_H

#include "cuemu_library_types.h"

typedef struct CUfunc_st *cudaFunction_t;

#ifndef CUEMU_DRIVER_ENTRY_ENUMS
#define CUEMU_DRIVER_ENTRY_ENUMS
enum cudaGetDriverEntryPointFlags {
  cudaEnableDefault = 0x0,
  cudaEnableLegacyStream = 0x1,
  cudaEnablePerThreadDefaultStream = 0x2
};

enum cudaDriverEntryPointQueryResult {
  cudaDriverEntryPointSuccess = 0,
  cudaDriverEntryPointSymbolNotFound = 1,
  cudaDriverEntryPointVersionNotSufficent = 2
};
#endif

#endif /* CUEMU_IDS_TYPES_H */
