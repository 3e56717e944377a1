/*
 * cuemu_texture_api.h: CUDA's runtime calls for arrays, texture objects and
 * surface objects (cudaMallocArray, cudaMalloc3DArray, mipmapped arrays,
 * the copies to, from and between arrays, cudaMemcpy3D, cudaMalloc3D,
 * cudaMemset3D, cudaCreateTextureObject, cudaCreateSurfaceObject, ...),
 * with CUDA 13's signatures and default arguments. Each forwards to
 * libcuemu's cuemu_rt_* function (<cuemu/cuemu_rt_texture.h>, which says
 * what they do). As with every copy, an ...Async form is done when it
 * returns. It also brings the device functions (cuemu_texture.h,
 * cuemu_surface.h), the channel descriptors and make_cudaExtent & co.
 */
#ifndef CUEMU_TEXTURE_API_H
#define CUEMU_TEXTURE_API_H

#include <cuemu/cuemu_device.h> /* CUEMU_AT_CALLER */
#include <cuemu/cuemu_rt_array_async.h>
#include <cuemu/cuemu_rt_texture.h>
#include <cuemu/cuemu_runtime_graph.h>

#include "channel_descriptor.h"
#include "driver_functions.h"
#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"

/* CUDA marks the one-dimensional array copies deprecated unless
 * CUDA_ENABLE_DEPRECATED is defined. */
#if defined(CUDA_ENABLE_DEPRECATED)
#define CUEMU_RT_DEPRECATED_
#else
#define CUEMU_RT_DEPRECATED_ __attribute__((deprecated))
#endif

/* ---- Arrays ------------------------------------------------------------------ */

/* The allocations record their caller's line (CUEMU_AT_CALLER), which
 * initcheck's reports of an array name. */
CUEMU_AT_CALLER inline cudaError_t cudaMallocArray(cudaArray_t *array,
                                   const struct cudaChannelFormatDesc *desc,
                                   size_t width, size_t height = 0,
                                   unsigned int flags = 0) {
  return static_cast<cudaError_t>(
      cuemu_rt_malloc_array(array, desc, width, height, flags));
}

CUEMU_AT_CALLER inline cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                                     const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent,
                                     unsigned int flags = 0) {
  return static_cast<cudaError_t>(
      cuemu_rt_malloc_3d_array(array, desc, extent, flags));
}

CUEMU_AT_CALLER inline cudaError_t cudaMallocMipmappedArray(
    cudaMipmappedArray_t *mipmappedArray,
    const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
    unsigned int numLevels, unsigned int flags = 0) {
  return static_cast<cudaError_t>(cuemu_rt_malloc_mipmapped_array(
      mipmappedArray, desc, extent, numLevels, flags));
}

inline cudaError_t cudaGetMipmappedArrayLevel(
    cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray,
    unsigned int level) {
  return static_cast<cudaError_t>(
      cuemu_rt_get_mipmapped_array_level(levelArray, mipmappedArray, level));
}

inline cudaError_t cudaFreeArray(cudaArray_t array) {
  return static_cast<cudaError_t>(cuemu_rt_free_array(array));
}

inline cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
  return static_cast<cudaError_t>(
      cuemu_rt_free_mipmapped_array(mipmappedArray));
}

inline cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
                                    struct cudaExtent *extent,
                                    unsigned int *flags, cudaArray_t array) {
  return static_cast<cudaError_t>(
      cuemu_rt_array_get_info(desc, extent, flags, array));
}

inline cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
                                      cudaArray_const_t array) {
  return static_cast<cudaError_t>(cuemu_rt_get_channel_desc(desc, array));
}

/* ---- Copies ------------------------------------------------------------------ */

inline cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
                                       size_t hOffset, const void *src,
                                       size_t spitch, size_t width,
                                       size_t height, cudaMemcpyKind kind) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_2d_to_array(
      dst, wOffset, hOffset, src, spitch, width, height, kind));
}

inline cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset,
                                            size_t hOffset, const void *src,
                                            size_t spitch, size_t width,
                                            size_t height, cudaMemcpyKind kind,
                                            cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_2d_array_async(
      dst, wOffset, hOffset, nullptr, 0, nullptr, 0, 0, src, spitch, width,
      height, kind, stream));
}

inline cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch,
                                         cudaArray_const_t src, size_t wOffset,
                                         size_t hOffset, size_t width,
                                         size_t height, cudaMemcpyKind kind) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_2d_from_array(
      dst, dpitch, src, wOffset, hOffset, width, height, kind));
}

inline cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch,
                                              cudaArray_const_t src,
                                              size_t wOffset, size_t hOffset,
                                              size_t width, size_t height,
                                              cudaMemcpyKind kind,
                                              cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_2d_array_async(
      nullptr, 0, 0, dst, dpitch, src, wOffset, hOffset, nullptr, 0, width,
      height, kind, stream));
}

inline cudaError_t cudaMemcpy2DArrayToArray(
    cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
    size_t height, cudaMemcpyKind kind = cudaMemcpyDeviceToDevice) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_2d_array_to_array(
      dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height,
      kind));
}

CUEMU_RT_DEPRECATED_ inline cudaError_t
cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                  const void *src, size_t count, cudaMemcpyKind kind) {
  return static_cast<cudaError_t>(
      cuemu_rt_memcpy_to_array(dst, wOffset, hOffset, src, count, kind));
}

CUEMU_RT_DEPRECATED_ inline cudaError_t
cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                    size_t hOffset, size_t count, cudaMemcpyKind kind) {
  return static_cast<cudaError_t>(
      cuemu_rt_memcpy_from_array(dst, src, wOffset, hOffset, count, kind));
}

CUEMU_RT_DEPRECATED_ inline cudaError_t cudaMemcpyArrayToArray(
    cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t count,
    cudaMemcpyKind kind = cudaMemcpyDeviceToDevice) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_array_to_array(
      dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind));
}

CUEMU_RT_DEPRECATED_ inline cudaError_t
cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                       const void *src, size_t count, cudaMemcpyKind kind,
                       cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_to_array_async(
      dst, wOffset, hOffset, src, count, kind, stream));
}

CUEMU_RT_DEPRECATED_ inline cudaError_t
cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                         size_t hOffset, size_t count, cudaMemcpyKind kind,
                         cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_from_array_async(
      dst, src, wOffset, hOffset, count, kind, stream));
}

inline cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_3d(p));
}

inline cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
                                     cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_3d_async(p, stream));
}

inline cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
                                struct cudaExtent extent) {
  return static_cast<cudaError_t>(cuemu_rt_malloc_3d(pitchedDevPtr, extent));
}

inline cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
                                struct cudaExtent extent) {
  return static_cast<cudaError_t>(
      cuemu_rt_memset_3d(pitchedDevPtr, value, extent));
}

inline cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr,
                                     int value, struct cudaExtent extent,
                                     cudaStream_t stream = 0) {
  (void)stream;
  return cudaMemset3D(pitchedDevPtr, value, extent);
}

/* ---- Texture and surface objects --------------------------------------------- */

inline cudaError_t cudaCreateTextureObject(
    cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
    const struct cudaTextureDesc *pTexDesc,
    const struct cudaResourceViewDesc *pResViewDesc) {
  return static_cast<cudaError_t>(cuemu_rt_create_texture_object(
      pTexObject, pResDesc, pTexDesc, pResViewDesc));
}

inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  return static_cast<cudaError_t>(cuemu_rt_destroy_texture_object(texObject));
}

inline cudaError_t cudaGetTextureObjectResourceDesc(
    struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject) {
  return static_cast<cudaError_t>(
      cuemu_rt_get_texture_object_resource_desc(pResDesc, texObject));
}

inline cudaError_t cudaGetTextureObjectTextureDesc(
    struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject) {
  return static_cast<cudaError_t>(
      cuemu_rt_get_texture_object_texture_desc(pTexDesc, texObject));
}

inline cudaError_t cudaGetTextureObjectResourceViewDesc(
    struct cudaResourceViewDesc *pResViewDesc, cudaTextureObject_t texObject) {
  return static_cast<cudaError_t>(
      cuemu_rt_get_texture_object_resource_view_desc(pResViewDesc, texObject));
}

inline cudaError_t cudaCreateSurfaceObject(
    cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc) {
  return static_cast<cudaError_t>(
      cuemu_rt_create_surface_object(pSurfObject, pResDesc));
}

inline cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  return static_cast<cudaError_t>(cuemu_rt_destroy_surface_object(surfObject));
}

inline cudaError_t cudaGetSurfaceObjectResourceDesc(
    struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject) {
  return static_cast<cudaError_t>(
      cuemu_rt_get_surface_object_resource_desc(pResDesc, surfObject));
}

#undef CUEMU_RT_DEPRECATED_

/* The device functions. */
#include "cuemu_texture.h"
#include "cuemu_surface.h"

#endif /* CUEMU_TEXTURE_API_H */
