/*
 * cuemu_array_queries_api.h: the runtime API's queries of sparse,
 * deferred-mapping and multi-planar CUDA arrays (cudaArrayGetPlane,
 * cudaArrayGetSparseProperties, cudaMipmappedArrayGetSparseProperties,
 * cudaArrayGetMemoryRequirements, cudaMipmappedArrayGetMemoryRequirements)
 * and their types, as CUDA 13 declares them. cuemu refuses to make such
 * arrays (cudaArraySparse, cudaArrayDeferredMapping and the NV12 format are
 * refused at allocation, see docs/textures.md), so every array these calls
 * can be given is one for which CUDA documents cudaErrorInvalidValue: a live
 * handle gets it, a handle that is no live array
 * cudaErrorInvalidResourceHandle. Included by cuda_runtime_api.h.
 */
#ifndef CUEMU_ARRAY_QUERIES_API_H
#define CUEMU_ARRAY_QUERIES_API_H

#include "cuda_runtime_api.h"

#include "cuemu_array_query_types.h"

namespace cuemu {
namespace arrays {

/* The answer for an array handle or (is_mipmap) a mipmapped one:
 * cudaErrorInvalidValue for a null output or a live handle (never sparse,
 * deferred or multi-planar in cuemu), else the handle's error. The error is
 * the calling thread's last error, as every runtime call's. */
inline cudaError_t not_special(const void *__cuemu_out, bool is_mipmap, cudaArray_t array,
                               cudaMipmappedArray_const_t mipmap) {
  if (!__cuemu_out)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  cudaError_t e;
  if (!is_mipmap) {
    cudaChannelFormatDesc d;
    cudaExtent extent;
    unsigned flags;
    e = static_cast<cudaError_t>(cuemu_rt_array_get_info(&d, &extent, &flags, array));
  } else {
    cudaArray_t level0;
    e = static_cast<cudaError_t>(cuemu_rt_get_mipmapped_array_level(&level0, mipmap, 0));
  }
  return e != cudaSuccess ? e
                          : static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
}

} // namespace arrays
} // namespace cuemu

inline cudaError_t cudaArrayGetPlane(cudaArray_t *pPlaneArray, cudaArray_t hArray,
                                     unsigned int planeIdx) {
  (void)planeIdx;
  return cuemu::arrays::not_special(pPlaneArray, false, hArray, nullptr);
}

inline cudaError_t cudaArrayGetSparseProperties(
    struct cudaArraySparseProperties *sparseProperties, cudaArray_t array) {
  return cuemu::arrays::not_special(sparseProperties, false, array, nullptr);
}

inline cudaError_t cudaMipmappedArrayGetSparseProperties(
    struct cudaArraySparseProperties *sparseProperties, cudaMipmappedArray_t mipmap) {
  return cuemu::arrays::not_special(sparseProperties, true, nullptr, mipmap);
}

inline cudaError_t cudaArrayGetMemoryRequirements(
    struct cudaArrayMemoryRequirements *memoryRequirements, cudaArray_t array, int device) {
  (void)device;
  return cuemu::arrays::not_special(memoryRequirements, false, array, nullptr);
}

inline cudaError_t cudaMipmappedArrayGetMemoryRequirements(
    struct cudaArrayMemoryRequirements *memoryRequirements, cudaMipmappedArray_t mipmap,
    int device) {
  (void)device;
  return cuemu::arrays::not_special(memoryRequirements, true, nullptr, mipmap);
}

#endif /* CUEMU_ARRAY_QUERIES_API_H */
