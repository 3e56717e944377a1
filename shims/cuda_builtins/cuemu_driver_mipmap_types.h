/*
 * cuemu_driver_mipmap_types.h: the types of the driver API's sparse arrays'
 * properties and memory requirements (the runtime's structures under the
 * driver's names), in CUDA 13's layout. C reads them too: cuda.h's C view
 * (cuemu_driver_c_decls.h, written by scripts/driver_c_view.py) includes
 * this header where cuemu_driver_mipmap_api.h reads it.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_MIPMAP_TYPES_H
#define CUEMU_DRIVER_MIPMAP_TYPES_H

#define CU_ARRAY_SPARSE_PROPERTIES_SINGLE_MIPTAIL 0x1

/* The driver's structures are the runtime's (the same fields). */
typedef struct cudaArraySparseProperties CUDA_ARRAY_SPARSE_PROPERTIES_v1;
typedef CUDA_ARRAY_SPARSE_PROPERTIES_v1 CUDA_ARRAY_SPARSE_PROPERTIES;
typedef struct cudaArrayMemoryRequirements CUDA_ARRAY_MEMORY_REQUIREMENTS_v1;
typedef CUDA_ARRAY_MEMORY_REQUIREMENTS_v1 CUDA_ARRAY_MEMORY_REQUIREMENTS;

#endif /* CUEMU_DRIVER_MIPMAP_TYPES_H */
