/*
 * cuemu_driver_mipmap_api.h: the driver API's mipmapped arrays
 * (cuMipmappedArrayCreate, cuMipmappedArrayGetLevel,
 * cuMipmappedArrayDestroy), the queries of sparse, deferred-mapping and
 * multi-planar arrays (cuArrayGetPlane, cuArrayGetSparseProperties,
 * cuMipmappedArrayGetSparseProperties, cuArrayGetMemoryRequirements,
 * cuMipmappedArrayGetMemoryRequirements: cuemu makes no such arrays, so these
 * give CUDA_ERROR_INVALID_VALUE for every live handle, see
 * cuemu_array_queries_api.h) and the texture object queries
 * cuTexObjectGetTextureDesc and cuTexObjectGetResourceViewDesc, in CUDA 13's
 * signatures, over the runtime's functions (cuemu_texture_api.h), as the
 * rest of cuemu_driver_array_api.h, which includes this file at its end.
 */
#ifndef CUEMU_DRIVER_MIPMAP_API_H
#define CUEMU_DRIVER_MIPMAP_API_H

#include "cuemu_driver_array_api.h"

namespace cuemu {
namespace drv {

/* The runtime's texture description as the driver's: the flags from the
 * runtime's fields, and CU_TRSF_READ_AS_INTEGER where an 8- or 16-bit
 * integer resource is read as integers (the driver's default is to
 * normalize them). */
inline void texture_desc_out(const cudaTextureDesc &t, const cudaResourceDesc &__cuemu_r,
                             CUDA_TEXTURE_DESC *p) {
  *p = CUDA_TEXTURE_DESC();
  for (int __cuemu_i = 0; __cuemu_i < 3; ++__cuemu_i)
    p->addressMode[__cuemu_i] = static_cast<CUaddress_mode>(t.addressMode[__cuemu_i]);
  p->filterMode = static_cast<CUfilter_mode>(t.filterMode);
  const cudaChannelFormatDesc d = resource_channels(__cuemu_r);
  const bool narrow_int = (d.f == cudaChannelFormatKindSigned ||
                           d.f == cudaChannelFormatKindUnsigned) &&
                          d.x < 32;
  if (narrow_int && t.readMode == cudaReadModeElementType)
    p->flags |= CU_TRSF_READ_AS_INTEGER;
  if (t.normalizedCoords)
    p->flags |= CU_TRSF_NORMALIZED_COORDINATES;
  if (t.sRGB)
    p->flags |= CU_TRSF_SRGB;
  if (t.disableTrilinearOptimization)
    p->flags |= CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
  if (t.seamlessCubemap)
    p->flags |= CU_TRSF_SEAMLESS_CUBEMAP;
  p->maxAnisotropy = t.maxAnisotropy;
  p->mipmapFilterMode = static_cast<CUfilter_mode>(t.mipmapFilterMode);
  p->mipmapLevelBias = t.mipmapLevelBias;
  p->minMipmapLevelClamp = t.minMipmapLevelClamp;
  p->maxMipmapLevelClamp = t.maxMipmapLevelClamp;
  for (int __cuemu_i = 0; __cuemu_i < 4; ++__cuemu_i)
    p->borderColor[__cuemu_i] = t.borderColor[__cuemu_i];
}

/* A query of an object into `out`: the context and a null `out` checked,
 * then `query(saved)` (saved: cuemu_drv_enter()'s value) gives the driver
 * result. */
template <class Query> inline CUresult object_query(const void *__cuemu_out, Query query) {
  int checked = cuemu_drv_check_context();
  if (checked)
    return static_cast<CUresult>(checked);
  if (!__cuemu_out)
    return CUDA_ERROR_INVALID_VALUE;
  return static_cast<CUresult>(query(cuemu_drv_enter()));
}

} // namespace drv
} // namespace cuemu

inline CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle,
                                       const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                       unsigned int numMipmapLevels) {
  CUEMU_DRV_SYMBOL(cuMipmappedArrayCreate);
  cudaChannelFormatDesc d;
  CUEMU_DRV_CONVERTED(
      pHandle && pMipmappedArrayDesc
          ? cuemu::drv::channel_desc(pMipmappedArrayDesc->Format,
                                     pMipmappedArrayDesc->NumChannels, &d)
          : static_cast<int>(CUDA_ERROR_INVALID_VALUE),
      cudaMallocMipmappedArray(reinterpret_cast<cudaMipmappedArray_t *>(pHandle), &d,
                               make_cudaExtent(pMipmappedArrayDesc->Width,
                                               pMipmappedArrayDesc->Height,
                                               pMipmappedArrayDesc->Depth),
                               numMipmapLevels, pMipmappedArrayDesc->Flags));
}

inline CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray,
                                         CUmipmappedArray hMipmappedArray,
                                         unsigned int level) {
  CUEMU_DRV_SYMBOL(cuMipmappedArrayGetLevel);
  CUEMU_DRV_FORWARD(cudaGetMipmappedArrayLevel(
      reinterpret_cast<cudaArray_t *>(pLevelArray),
      reinterpret_cast<cudaMipmappedArray_const_t>(hMipmappedArray), level));
}

inline CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray) {
  CUEMU_DRV_SYMBOL(cuMipmappedArrayDestroy);
  CUEMU_DRV_FORWARD(
      cudaFreeMipmappedArray(reinterpret_cast<cudaMipmappedArray_t>(hMipmappedArray)));
}

#include "cuemu_driver_mipmap_types.h"

inline CUresult cuArrayGetPlane(CUarray *pPlaneArray, CUarray hArray, unsigned int planeIdx) {
  CUEMU_DRV_SYMBOL(cuArrayGetPlane);
  CUEMU_DRV_FORWARD(cudaArrayGetPlane(reinterpret_cast<cudaArray_t *>(pPlaneArray),
                                      reinterpret_cast<cudaArray_t>(hArray), planeIdx));
}

inline CUresult cuArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties,
                                           CUarray array) {
  CUEMU_DRV_SYMBOL(cuArrayGetSparseProperties);
  CUEMU_DRV_FORWARD(cudaArrayGetSparseProperties(
      sparseProperties,
      reinterpret_cast<cudaArray_t>(array)));
}

inline CUresult cuMipmappedArrayGetSparseProperties(
    CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties, CUmipmappedArray mipmap) {
  CUEMU_DRV_SYMBOL(cuMipmappedArrayGetSparseProperties);
  CUEMU_DRV_FORWARD(cudaMipmappedArrayGetSparseProperties(
      sparseProperties,
      reinterpret_cast<cudaMipmappedArray_t>(mipmap)));
}

inline CUresult cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements,
                                             CUarray array, CUdevice device) {
  CUEMU_DRV_SYMBOL(cuArrayGetMemoryRequirements);
  CUEMU_DRV_FORWARD(cudaArrayGetMemoryRequirements(
      memoryRequirements,
      reinterpret_cast<cudaArray_t>(array), static_cast<int>(device)));
}

inline CUresult cuMipmappedArrayGetMemoryRequirements(
    CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements, CUmipmappedArray mipmap,
    CUdevice device) {
  CUEMU_DRV_SYMBOL(cuMipmappedArrayGetMemoryRequirements);
  CUEMU_DRV_FORWARD(cudaMipmappedArrayGetMemoryRequirements(
      memoryRequirements,
      reinterpret_cast<cudaMipmappedArray_t>(mipmap), static_cast<int>(device)));
}

inline CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc,
                                          CUtexObject texObject) {
  CUEMU_DRV_SYMBOL(cuTexObjectGetTextureDesc);
  return cuemu::drv::object_query(pTexDesc, [&](int saved) {
    cudaTextureDesc t;
    cudaResourceDesc __cuemu_r;
    int e = cuemu_drv_result(cudaGetTextureObjectTextureDesc(&t, texObject), saved);
    if (!e)
      e = cuemu_drv_result(cudaGetTextureObjectResourceDesc(&__cuemu_r, texObject), saved);
    if (!e)
      cuemu::drv::texture_desc_out(t, __cuemu_r, pTexDesc);
    return e;
  });
}

inline CUresult cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc,
                                               CUtexObject texObject) {
  CUEMU_DRV_SYMBOL(cuTexObjectGetResourceViewDesc);
  return cuemu::drv::object_query(pResViewDesc, [&](int saved) {
    cudaResourceViewDesc v;
    int e = cuemu_drv_result(cudaGetTextureObjectResourceViewDesc(&v, texObject), saved);
    if (e)
      return e;
    *pResViewDesc = CUDA_RESOURCE_VIEW_DESC();
    pResViewDesc->format = static_cast<CUresourceViewFormat>(v.format);
    pResViewDesc->width = v.width;
    pResViewDesc->height = v.height;
    pResViewDesc->depth = v.depth;
    pResViewDesc->firstMipmapLevel = v.firstMipmapLevel;
    pResViewDesc->lastMipmapLevel = v.lastMipmapLevel;
    pResViewDesc->firstLayer = v.firstLayer;
    pResViewDesc->lastLayer = v.lastLayer;
    return 0;
  });
}

#endif /* CUEMU_DRIVER_MIPMAP_API_H */
