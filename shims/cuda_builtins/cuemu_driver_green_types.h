/*
 * cuemu_driver_green_types.h: the types of the driver API's green contexts
 * and device resources (CUdevResource and its descriptors), in CUDA 13's
 * layout. C reads them too: cuda.h's C view (cuemu_driver_c_decls.h,
 * written by scripts/driver_c_view.py) includes this header where
 * cuemu_driver_green_api.h reads it.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_GREEN_TYPES_H
#define CUEMU_DRIVER_GREEN_TYPES_H

typedef struct CUdevResourceDesc_st *CUdevResourceDesc;

typedef enum {
  CU_GREEN_CTX_DEFAULT_STREAM = 0x1
} CUgreenCtxCreate_flags;

typedef enum {
  CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING = 0x1,
  CU_DEV_SM_RESOURCE_SPLIT_MAX_POTENTIAL_CLUSTER_SIZE = 0x2
} CUdevSmResourceSplit_flags;

#define RESOURCE_ABI_VERSION 1
#define RESOURCE_ABI_EXTERNAL_BYTES 48

typedef enum {
  CU_DEV_RESOURCE_TYPE_INVALID = 0,
  CU_DEV_RESOURCE_TYPE_SM = 1
} CUdevResourceType;

typedef struct CUdevSmResource_st {
  unsigned int smCount;
  unsigned int minSmPartitionSize;
  unsigned int smCoscheduledAlignment;
} CUdevSmResource;

typedef struct CUdevResource_st {
  CUdevResourceType type;
  unsigned char _internal_padding[92];
  union {
    CUdevSmResource sm;
    unsigned char _oversize[RESOURCE_ABI_EXTERNAL_BYTES];
  };
} CUdevResource_v1;
typedef CUdevResource_v1 CUdevResource;

#endif /* CUEMU_DRIVER_GREEN_TYPES_H */
