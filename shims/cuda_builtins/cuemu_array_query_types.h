/*
 * cuemu_array_query_types.h: what cudaArrayGetSparseProperties and
 * cudaArrayGetMemoryRequirements fill (CUDA's driver_types.h). C and C++
 * (cuemu_array_queries_api.h).
 */
#ifndef CUEMU_ARRAY_QUERY_TYPES_H
#define CUEMU_ARRAY_QUERY_TYPES_H

#include <stddef.h>

#define cudaArraySparsePropertiesSingleMipTail 0x1

struct cudaArraySparseProperties {
  struct {
    unsigned int width;
    unsigned int height;
    unsigned int depth;
  } tileExtent;
  unsigned int miptailFirstLevel;
  unsigned long long miptailSize;
  unsigned int flags;
  unsigned int reserved[4];
};

struct cudaArrayMemoryRequirements {
  size_t size;
  size_t alignment;
  unsigned int reserved[4];
};

#endif /* CUEMU_ARRAY_QUERY_TYPES_H */
