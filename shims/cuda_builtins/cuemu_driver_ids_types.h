/*
 * cuemu_driver_ids_types.h: the types of the driver API's occupancy
 * calculator and of cuGetProcAddress (its flags and query results), in CUDA
 * 13's layout. C reads them too: cuda.h's C view (cuemu_driver_c_decls.h,
 * written by scripts/driver_c_view.py) includes this header where
 * cuemu_driver_ids_api.h reads it.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_IDS_TYPES_H
#define CUEMU_DRIVER_IDS_TYPES_H

typedef enum CUoccupancy_flags_enum {
  CU_OCCUPANCY_DEFAULT = 0x0,
  CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE = 0x1
} CUoccupancy_flags;

typedef size_t (*CUoccupancyB2DSize)(int blockSize);

typedef enum CUdriverProcAddress_flags_enum {
  CU_GET_PROC_ADDRESS_DEFAULT = 0,
  CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1 << 0,
  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 1 << 1
} CUdriverProcAddress_flags;

typedef enum CUdriverProcAddressQueryResult_enum {
  CU_GET_PROC_ADDRESS_SUCCESS = 0,
  CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
  CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2
} CUdriverProcAddressQueryResult;

#endif /* CUEMU_DRIVER_IDS_TYPES_H */
