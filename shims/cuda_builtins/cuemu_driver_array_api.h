/*
 * cuemu_driver_array_api.h: the driver API's CUDA arrays and texture and
 * surface objects (cuArrayCreate, cuArray3DCreate, cuArrayDestroy, their
 * descriptors, the 1-D copies to and from arrays, cuTexObjectCreate,
 * cuSurfObjectCreate and their queries), in CUDA 13's signatures. A CUarray
 * is the runtime's cudaArray_t, a CUtexObject/CUsurfObject the runtime's
 * object, and every call converts its descriptors and runs the runtime's
 * function (cuemu_texture_api.h): one implementation, the runtime's checks
 * and errors. The eight integer and float formats, half and the normalized
 * UNORM/SNORM ones and 10-10-10-2 are emulated; block-compressed, NV12 and
 * the other YUV formats are CUDA_ERROR_NOT_SUPPORTED with a message naming
 * the format. Mipmapped arrays and the texture and view queries are
 * in cuemu_driver_mipmap_api.h. Included at the end of
 * cuemu_driver_graph_nodes_api.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_ARRAY_API_H
#define CUEMU_DRIVER_ARRAY_API_H

#include "cuemu_driver_graph_api.h"
#include "cuemu_texture_api.h"

#include "cuemu_driver_array_types.h"

namespace cuemu {
namespace drv {

/* CUDA's name of a format that cuemu does not emulate, or nullptr. */
inline const char *refused_format_name(CUarray_format format) {
  switch (format) {
#define CUEMU_DRV_FORMAT_NAME(f) case f: return #f;
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_NV12)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC1_UNORM)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC1_UNORM_SRGB)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC2_UNORM)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC2_UNORM_SRGB)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC3_UNORM)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC3_UNORM_SRGB)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC4_UNORM)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC4_SNORM)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC5_UNORM)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC5_SNORM)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC6H_UF16)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC6H_SF16)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC7_UNORM)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_BC7_UNORM_SRGB)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_P010)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_P016)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_NV16)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_P210)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_P216)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_YUY2)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_Y210)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_Y216)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_AYUV)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_Y410)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_Y416)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_Y444_PLANAR8)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_Y444_PLANAR10)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_YUV444_8bit_SemiPlanar)
    CUEMU_DRV_FORMAT_NAME(CU_AD_FORMAT_YUV444_16bit_SemiPlanar)
#undef CUEMU_DRV_FORMAT_NAME
  default:
    return nullptr;
  }
}

/* An array format and channel count as the runtime's channel description;
 * 0 or a driver error. The UNORM/SNORM formats name their channel count,
 * which NumChannels must repeat. */
inline int channel_desc(CUarray_format format, unsigned channels,
                        cudaChannelFormatDesc *d) {
  int __cuemu_bits;
  cudaChannelFormatKind kind;
  if (format >= CU_AD_FORMAT_UNORM_INT8X1 && format <= CU_AD_FORMAT_SNORM_INT16X4) {
    /* In the runtime's order: unsigned 8X1, 8X2, 8X4, 16X1, 16X2, 16X4,
     * then signed. */
    const int __cuemu_k = format - CU_AD_FORMAT_UNORM_INT8X1;
    static const unsigned counts[3] = {1, 2, 4};
    if (channels != counts[__cuemu_k % 3])
      return CUDA_ERROR_INVALID_VALUE;
    __cuemu_bits = __cuemu_k % 6 < 3 ? 8 : 16;
    *d = cudaCreateChannelDesc(
        __cuemu_bits, channels > 1 ? __cuemu_bits : 0, channels > 2 ? __cuemu_bits : 0,
        channels > 3 ? __cuemu_bits : 0,
        static_cast<cudaChannelFormatKind>(cudaChannelFormatKindUnsignedNormalized8X1 + __cuemu_k));
    return 0;
  }
  if (format == CU_AD_FORMAT_UNORM_INT_101010_2) {
    /* One packed 32-bit word of four channels. */
    if (channels != 4)
      return CUDA_ERROR_INVALID_VALUE;
    *d = cudaCreateChannelDesc(10, 10, 10, 2, cudaChannelFormatKindUnsignedNormalized1010102);
    return 0;
  }
  if (const char *name = refused_format_name(format))
    return cuemu_rt_texture_refuse(name, CUDA_ERROR_NOT_SUPPORTED);
  switch (format) {
  case CU_AD_FORMAT_UNSIGNED_INT8: __cuemu_bits = 8; kind = cudaChannelFormatKindUnsigned; break;
  case CU_AD_FORMAT_UNSIGNED_INT16: __cuemu_bits = 16; kind = cudaChannelFormatKindUnsigned; break;
  case CU_AD_FORMAT_UNSIGNED_INT32: __cuemu_bits = 32; kind = cudaChannelFormatKindUnsigned; break;
  case CU_AD_FORMAT_SIGNED_INT8: __cuemu_bits = 8; kind = cudaChannelFormatKindSigned; break;
  case CU_AD_FORMAT_SIGNED_INT16: __cuemu_bits = 16; kind = cudaChannelFormatKindSigned; break;
  case CU_AD_FORMAT_SIGNED_INT32: __cuemu_bits = 32; kind = cudaChannelFormatKindSigned; break;
  case CU_AD_FORMAT_HALF: __cuemu_bits = 16; kind = cudaChannelFormatKindFloat; break;
  case CU_AD_FORMAT_FLOAT: __cuemu_bits = 32; kind = cudaChannelFormatKindFloat; break;
  default: return CUDA_ERROR_INVALID_VALUE; /* no format of CUDA 13 */
  }
  if (channels != 1 && channels != 2 && channels != 4)
    return CUDA_ERROR_INVALID_VALUE;
  *d = cudaCreateChannelDesc(__cuemu_bits, channels > 1 ? __cuemu_bits : 0,
                             channels > 2 ? __cuemu_bits : 0, channels > 3 ? __cuemu_bits : 0,
                             kind);
  return 0;
}

/* The reverse: a runtime channel description as a format and a count. */
inline void array_format(const cudaChannelFormatDesc &d, CUarray_format *format,
                         unsigned *channels) {
  *channels = (d.x != 0) + (d.y != 0) + (d.z != 0) + (d.w != 0);
  if (d.f >= cudaChannelFormatKindUnsignedNormalized8X1 &&
      d.f <= cudaChannelFormatKindSignedNormalized16X4) {
    const int __cuemu_k = d.f - cudaChannelFormatKindUnsignedNormalized8X1;
    static const unsigned counts[3] = {1, 2, 4};
    *format = static_cast<CUarray_format>(CU_AD_FORMAT_UNORM_INT8X1 + __cuemu_k);
    *channels = counts[__cuemu_k % 3];
    return;
  }
  if (d.f == cudaChannelFormatKindUnsignedNormalized1010102) {
    *format = CU_AD_FORMAT_UNORM_INT_101010_2;
    *channels = 4;
    return;
  }
  const bool is_signed = d.f == cudaChannelFormatKindSigned;
  switch (d.x) {
  case 8: *format = is_signed ? CU_AD_FORMAT_SIGNED_INT8 : CU_AD_FORMAT_UNSIGNED_INT8; break;
  case 16:
    *format = d.f == cudaChannelFormatKindFloat
                  ? CU_AD_FORMAT_HALF
                  : is_signed ? CU_AD_FORMAT_SIGNED_INT16 : CU_AD_FORMAT_UNSIGNED_INT16;
    break;
  default:
    *format = d.f == cudaChannelFormatKindFloat
                  ? CU_AD_FORMAT_FLOAT
                  : is_signed ? CU_AD_FORMAT_SIGNED_INT32 : CU_AD_FORMAT_UNSIGNED_INT32;
    break;
  }
}

/* A driver resource description as the runtime's; 0 or a driver error. */
inline int resource_desc(const CUDA_RESOURCE_DESC *p, cudaResourceDesc *__cuemu_r) {
  *__cuemu_r = cudaResourceDesc();
  if (!p || p->flags)
    return CUDA_ERROR_INVALID_VALUE;
  switch (p->resType) {
  case CU_RESOURCE_TYPE_ARRAY:
    __cuemu_r->resType = cudaResourceTypeArray;
    __cuemu_r->res.array.array = reinterpret_cast<cudaArray_t>(p->res.array.hArray);
    return 0;
  case CU_RESOURCE_TYPE_LINEAR:
    __cuemu_r->resType = cudaResourceTypeLinear;
    __cuemu_r->res.linear.devPtr = reinterpret_cast<void *>(p->res.linear.devPtr);
    __cuemu_r->res.linear.sizeInBytes = p->res.linear.sizeInBytes;
    return channel_desc(p->res.linear.format, p->res.linear.numChannels,
                        &__cuemu_r->res.linear.desc);
  case CU_RESOURCE_TYPE_PITCH2D:
    __cuemu_r->resType = cudaResourceTypePitch2D;
    __cuemu_r->res.pitch2D.devPtr = reinterpret_cast<void *>(p->res.pitch2D.devPtr);
    __cuemu_r->res.pitch2D.width = p->res.pitch2D.width;
    __cuemu_r->res.pitch2D.height = p->res.pitch2D.height;
    __cuemu_r->res.pitch2D.pitchInBytes = p->res.pitch2D.pitchInBytes;
    return channel_desc(p->res.pitch2D.format, p->res.pitch2D.numChannels,
                        &__cuemu_r->res.pitch2D.desc);
  case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
    __cuemu_r->resType = cudaResourceTypeMipmappedArray;
    __cuemu_r->res.mipmap.mipmap =
        reinterpret_cast<cudaMipmappedArray_t>(p->res.mipmap.hMipmappedArray);
    return 0;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

/* The runtime's resource description as the driver's. */
inline void resource_desc_out(const cudaResourceDesc &__cuemu_r, CUDA_RESOURCE_DESC *p) {
  *p = CUDA_RESOURCE_DESC();
  switch (__cuemu_r.resType) {
  case cudaResourceTypeArray:
    p->resType = CU_RESOURCE_TYPE_ARRAY;
    p->res.array.hArray = reinterpret_cast<CUarray>(__cuemu_r.res.array.array);
    break;
  case cudaResourceTypeMipmappedArray:
    p->resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    p->res.mipmap.hMipmappedArray =
        reinterpret_cast<CUmipmappedArray>(__cuemu_r.res.mipmap.mipmap);
    break;
  case cudaResourceTypeLinear:
    p->resType = CU_RESOURCE_TYPE_LINEAR;
    p->res.linear.devPtr = reinterpret_cast<CUdeviceptr>(__cuemu_r.res.linear.devPtr);
    p->res.linear.sizeInBytes = __cuemu_r.res.linear.sizeInBytes;
    array_format(__cuemu_r.res.linear.desc, &p->res.linear.format, &p->res.linear.numChannels);
    break;
  default:
    p->resType = CU_RESOURCE_TYPE_PITCH2D;
    p->res.pitch2D.devPtr = reinterpret_cast<CUdeviceptr>(__cuemu_r.res.pitch2D.devPtr);
    p->res.pitch2D.width = __cuemu_r.res.pitch2D.width;
    p->res.pitch2D.height = __cuemu_r.res.pitch2D.height;
    p->res.pitch2D.pitchInBytes = __cuemu_r.res.pitch2D.pitchInBytes;
    array_format(__cuemu_r.res.pitch2D.desc, &p->res.pitch2D.format,
                 &p->res.pitch2D.numChannels);
    break;
  }
}

/* The resource description of a texture or surface object, asked of the
 * runtime by `query`, as the driver's. */
inline CUresult resource_desc_of(CUDA_RESOURCE_DESC *p, unsigned long long object,
                                 cudaError_t (*query)(cudaResourceDesc *,
                                                      unsigned long long)) {
  int checked = cuemu_drv_check_context();
  if (checked)
    return static_cast<CUresult>(checked);
  if (!p)
    return CUDA_ERROR_INVALID_VALUE;
  cudaResourceDesc __cuemu_r;
  int saved = cuemu_drv_enter();
  int e = cuemu_drv_result(query(&__cuemu_r, object), saved);
  if (!e)
    resource_desc_out(__cuemu_r, p);
  return static_cast<CUresult>(e);
}

/* The channel description of the resource a texture reads. */
inline cudaChannelFormatDesc resource_channels(const cudaResourceDesc &__cuemu_r) {
  cudaChannelFormatDesc d = cudaChannelFormatDesc();
  cudaExtent extent;
  unsigned flags;
  cudaArray_t level0;
  if (__cuemu_r.resType == cudaResourceTypeArray)
    cudaArrayGetInfo(&d, &extent, &flags, __cuemu_r.res.array.array);
  else if (__cuemu_r.resType == cudaResourceTypeMipmappedArray &&
           cuemu_rt_get_mipmapped_array_level(&level0, __cuemu_r.res.mipmap.mipmap, 0) == 0)
    cudaArrayGetInfo(&d, &extent, &flags, level0);
  else if (__cuemu_r.resType == cudaResourceTypeLinear)
    d = __cuemu_r.res.linear.desc;
  else
    d = __cuemu_r.res.pitch2D.desc;
  return d;
}

/* A driver texture description as the runtime's. The driver reads 8- and
 * 16-bit integers as normalized floats unless CU_TRSF_READ_AS_INTEGER
 * says otherwise; 32-bit integers and floats are read as they are. */
inline void texture_desc(const CUDA_TEXTURE_DESC *p, const cudaResourceDesc &__cuemu_r,
                         cudaTextureDesc *t) {
  *t = cudaTextureDesc();
  for (int __cuemu_i = 0; __cuemu_i < 3; ++__cuemu_i)
    t->addressMode[__cuemu_i] = static_cast<cudaTextureAddressMode>(p->addressMode[__cuemu_i]);
  t->filterMode = static_cast<cudaTextureFilterMode>(p->filterMode);
  const cudaChannelFormatDesc d = resource_channels(__cuemu_r);
  const bool narrow_int = d.f != cudaChannelFormatKindFloat && d.x < 32;
  t->readMode = narrow_int && !(p->flags & CU_TRSF_READ_AS_INTEGER)
                    ? cudaReadModeNormalizedFloat
                    : cudaReadModeElementType;
  t->normalizedCoords = (p->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
  t->sRGB = (p->flags & CU_TRSF_SRGB) != 0;
  t->seamlessCubemap = (p->flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
  t->disableTrilinearOptimization =
      (p->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) != 0;
  t->maxAnisotropy = p->maxAnisotropy;
  t->mipmapFilterMode = static_cast<cudaTextureFilterMode>(p->mipmapFilterMode);
  t->mipmapLevelBias = p->mipmapLevelBias;
  t->minMipmapLevelClamp = p->minMipmapLevelClamp;
  t->maxMipmapLevelClamp = p->maxMipmapLevelClamp;
  for (int __cuemu_i = 0; __cuemu_i < 4; ++__cuemu_i)
    t->borderColor[__cuemu_i] = p->borderColor[__cuemu_i];
}

/* A 1-D copy of `bytes` bytes at byte `offset` of an array, which is taken
 * row after row (an array of rows of `width` elements): each row's part is
 * one runtime copy. `to_array` says the direction; `memory` is the other
 * side (host or device memory). With `async`, the copies are the runtime's
 * ...Async ones, in `stream`'s order. */
inline cudaError_t array_linear_copy(cudaArray_t array, size_t offset,
                                     void *memory, size_t bytes,
                                     bool to_array, bool async = false,
                                     cudaStream_t stream = nullptr) {
  cudaChannelFormatDesc d;
  cudaExtent extent;
  unsigned flags;
  cudaError_t e = cudaArrayGetInfo(&d, &extent, &flags, array);
  if (e != cudaSuccess)
    return e;
  const size_t row = extent.width * static_cast<size_t>(d.x + d.y + d.z + d.w) / 8;
  if (!row)
    return cudaErrorInvalidValue;
  char *mem = static_cast<char *>(memory);
  while (bytes && e == cudaSuccess) {
    const size_t x = offset % row, y = offset / row;
    const size_t n = bytes < row - x ? bytes : row - x;
    if (to_array)
      e = async ? cudaMemcpy2DToArrayAsync(array, x, y, mem, n, n, 1,
                                           cudaMemcpyDefault, stream)
                : cudaMemcpy2DToArray(array, x, y, mem, n, n, 1, cudaMemcpyDefault);
    else
      e = async ? cudaMemcpy2DFromArrayAsync(mem, n, array, x, y, n, 1,
                                             cudaMemcpyDefault, stream)
                : cudaMemcpy2DFromArray(mem, n, array, x, y, n, 1, cudaMemcpyDefault);
    offset += n;
    mem += n;
    bytes -= n;
  }
  return e;
}

/* cuMemcpyAtoA: both arrays' elements must have one size, which the count
 * is a multiple of (CUDA's rule); the bytes go through host memory. */
inline cudaError_t __cuemu_array_to_array_copy(cudaArray_t __cuemu_dst, size_t __cuemu_dst_offset,
                                       cudaArray_t __cuemu_src, size_t __cuemu_src_offset,
                                       size_t __cuemu_bytes) {
  cudaChannelFormatDesc __cuemu_dd, __cuemu_sd;
  cudaExtent __cuemu_extent;
  unsigned __cuemu_flags;
  cudaError_t e = cudaArrayGetInfo(&__cuemu_dd, &__cuemu_extent, &__cuemu_flags, __cuemu_dst);
  if (e == cudaSuccess)
    e = cudaArrayGetInfo(&__cuemu_sd, &__cuemu_extent, &__cuemu_flags, __cuemu_src);
  if (e != cudaSuccess)
    return e;
  const size_t __cuemu_element = static_cast<size_t>(__cuemu_dd.x + __cuemu_dd.y + __cuemu_dd.z + __cuemu_dd.w) / 8;
  if (!__cuemu_element || __cuemu_element != static_cast<size_t>(__cuemu_sd.x + __cuemu_sd.y + __cuemu_sd.z + __cuemu_sd.w) / 8 ||
      __cuemu_bytes % __cuemu_element)
    return cudaErrorInvalidValue;
  if (!__cuemu_bytes)
    return cudaSuccess;
  void *__cuemu_staging = std::malloc(__cuemu_bytes);
  if (!__cuemu_staging)
    return cudaErrorMemoryAllocation;
  e = array_linear_copy(__cuemu_src, __cuemu_src_offset, __cuemu_staging, __cuemu_bytes, false);
  if (e == cudaSuccess)
    e = array_linear_copy(__cuemu_dst, __cuemu_dst_offset, __cuemu_staging, __cuemu_bytes, true);
  std::free(__cuemu_staging);
  return e;
}

} // namespace drv
} // namespace cuemu

inline CUresult cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray) {
  CUEMU_DRV_SYMBOL(cuArrayCreate);
  cudaChannelFormatDesc d;
  CUEMU_DRV_CONVERTED(
      pHandle && pAllocateArray
          ? cuemu::drv::channel_desc(pAllocateArray->Format, pAllocateArray->NumChannels, &d)
          : static_cast<int>(CUDA_ERROR_INVALID_VALUE),
      cudaMallocArray(reinterpret_cast<cudaArray_t *>(pHandle), &d,
                      pAllocateArray->Width, pAllocateArray->Height, 0));
}

inline CUresult cuArray3DCreate(CUarray *pHandle,
                                const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray) {
  CUEMU_DRV_SYMBOL(cuArray3DCreate);
  cudaChannelFormatDesc d;
  CUEMU_DRV_CONVERTED(
      pHandle && pAllocateArray
          ? cuemu::drv::channel_desc(pAllocateArray->Format, pAllocateArray->NumChannels, &d)
          : static_cast<int>(CUDA_ERROR_INVALID_VALUE),
      cudaMalloc3DArray(reinterpret_cast<cudaArray_t *>(pHandle), &d,
                        make_cudaExtent(pAllocateArray->Width, pAllocateArray->Height,
                                        pAllocateArray->Depth),
                        pAllocateArray->Flags));
}

inline CUresult cuArrayDestroy(CUarray hArray) {
  CUEMU_DRV_SYMBOL(cuArrayDestroy);
  CUEMU_DRV_FORWARD(cudaFreeArray(reinterpret_cast<cudaArray_t>(hArray)));
}

inline CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor,
                                       CUarray hArray) {
  CUEMU_DRV_SYMBOL(cuArray3DGetDescriptor);
  int checked = cuemu_drv_check_context();
  if (checked)
    return static_cast<CUresult>(checked);
  if (!pArrayDescriptor)
    return CUDA_ERROR_INVALID_VALUE;
  cudaChannelFormatDesc d;
  cudaExtent extent;
  unsigned flags;
  int saved = cuemu_drv_enter();
  int e = cuemu_drv_result(
      cudaArrayGetInfo(&d, &extent, &flags, reinterpret_cast<cudaArray_t>(hArray)), saved);
  if (e)
    return static_cast<CUresult>(e);
  *pArrayDescriptor = CUDA_ARRAY3D_DESCRIPTOR();
  pArrayDescriptor->Width = extent.width;
  pArrayDescriptor->Height = extent.height;
  pArrayDescriptor->Depth = extent.depth;
  pArrayDescriptor->Flags = flags;
  cuemu::drv::array_format(d, &pArrayDescriptor->Format, &pArrayDescriptor->NumChannels);
  return CUDA_SUCCESS;
}

inline CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor,
                                     CUarray hArray) {
  CUEMU_DRV_SYMBOL(cuArrayGetDescriptor);
  if (!pArrayDescriptor)
    return CUDA_ERROR_INVALID_VALUE;
  CUDA_ARRAY3D_DESCRIPTOR d3;
  CUresult e = cuArray3DGetDescriptor(&d3, hArray);
  if (e != CUDA_SUCCESS)
    return e;
  pArrayDescriptor->Width = d3.Width;
  pArrayDescriptor->Height = d3.Height;
  pArrayDescriptor->Format = d3.Format;
  pArrayDescriptor->NumChannels = d3.NumChannels;
  return CUDA_SUCCESS;
}

inline CUresult cuMemcpyHtoA(CUarray dstArray, size_t dstOffset, const void *srcHost,
                             size_t ByteCount) {
  CUEMU_DRV_SYMBOL(cuMemcpyHtoA);
  CUEMU_DRV_FORWARD(cuemu::drv::array_linear_copy(
      reinterpret_cast<cudaArray_t>(dstArray), dstOffset, const_cast<void *>(srcHost),
      ByteCount, true));
}

inline CUresult cuMemcpyAtoH(void *dstHost, CUarray srcArray, size_t srcOffset,
                             size_t ByteCount) {
  CUEMU_DRV_SYMBOL(cuMemcpyAtoH);
  CUEMU_DRV_FORWARD(cuemu::drv::array_linear_copy(
      reinterpret_cast<cudaArray_t>(srcArray), srcOffset, dstHost, ByteCount,
      false));
}

inline CUresult cuMemcpyDtoA(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                             size_t ByteCount) {
  CUEMU_DRV_SYMBOL(cuMemcpyDtoA);
  CUEMU_DRV_FORWARD(cuemu::drv::array_linear_copy(
      reinterpret_cast<cudaArray_t>(dstArray), dstOffset,
      reinterpret_cast<void *>(srcDevice), ByteCount, true));
}

inline CUresult cuMemcpyAtoD(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                             size_t ByteCount) {
  CUEMU_DRV_SYMBOL(cuMemcpyAtoD);
  CUEMU_DRV_FORWARD(cuemu::drv::array_linear_copy(
      reinterpret_cast<cudaArray_t>(srcArray), srcOffset,
      reinterpret_cast<void *>(dstDevice), ByteCount, false));
}

inline CUresult cuMemcpyAtoA(CUarray dstArray, size_t dstOffset, CUarray srcArray,
                             size_t srcOffset, size_t ByteCount) {
  CUEMU_DRV_SYMBOL(cuMemcpyAtoA);
  CUEMU_DRV_FORWARD(cuemu::drv::__cuemu_array_to_array_copy(
      reinterpret_cast<cudaArray_t>(dstArray), dstOffset,
      reinterpret_cast<cudaArray_t>(srcArray), srcOffset, ByteCount));
}

inline CUresult cuMemcpyHtoAAsync(CUarray dstArray, size_t dstOffset,
                                  const void *srcHost, size_t ByteCount,
                                  CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpyHtoAAsync);
  CUEMU_DRV_FORWARD(cuemu::drv::array_linear_copy(
      reinterpret_cast<cudaArray_t>(dstArray), dstOffset, const_cast<void *>(srcHost),
      ByteCount, true, true, hStream));
}

inline CUresult cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, size_t srcOffset,
                                  size_t ByteCount, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpyAtoHAsync);
  CUEMU_DRV_FORWARD(cuemu::drv::array_linear_copy(
      reinterpret_cast<cudaArray_t>(srcArray), srcOffset, dstHost, ByteCount, false,
      true, hStream));
}

inline CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                  const CUDA_TEXTURE_DESC *pTexDesc,
                                  const CUDA_RESOURCE_VIEW_DESC *pResViewDesc) {
  CUEMU_DRV_SYMBOL(cuTexObjectCreate);
  cudaResourceDesc __cuemu_r;
  cudaTextureDesc t;
  int conv = !pTexObject || !pTexDesc ? static_cast<int>(CUDA_ERROR_INVALID_VALUE)
                                     : cuemu::drv::resource_desc(pResDesc, &__cuemu_r);
  if (!conv)
    cuemu::drv::texture_desc(pTexDesc, __cuemu_r, &t);
  /* The view's fields and values are the runtime's, in the same order. */
  cudaResourceViewDesc v = cudaResourceViewDesc();
  if (pResViewDesc) {
    v.format = static_cast<cudaResourceViewFormat>(pResViewDesc->format);
    v.width = pResViewDesc->width;
    v.height = pResViewDesc->height;
    v.depth = pResViewDesc->depth;
    v.firstMipmapLevel = pResViewDesc->firstMipmapLevel;
    v.lastMipmapLevel = pResViewDesc->lastMipmapLevel;
    v.firstLayer = pResViewDesc->firstLayer;
    v.lastLayer = pResViewDesc->lastLayer;
    for (int __cuemu_i = 0; __cuemu_i < 16; ++__cuemu_i)
      v.reserved[__cuemu_i] = pResViewDesc->reserved[__cuemu_i];
  }
  CUEMU_DRV_CONVERTED(conv, cudaCreateTextureObject(pTexObject, &__cuemu_r, &t,
                                                    pResViewDesc ? &v : nullptr));
}

inline CUresult cuTexObjectDestroy(CUtexObject texObject) {
  CUEMU_DRV_SYMBOL(cuTexObjectDestroy);
  CUEMU_DRV_FORWARD(cudaDestroyTextureObject(texObject));
}

inline CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc,
                                           CUtexObject texObject) {
  CUEMU_DRV_SYMBOL(cuTexObjectGetResourceDesc);
  return cuemu::drv::resource_desc_of(pResDesc, texObject,
                                      cudaGetTextureObjectResourceDesc);
}

inline CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject,
                                   const CUDA_RESOURCE_DESC *pResDesc) {
  CUEMU_DRV_SYMBOL(cuSurfObjectCreate);
  cudaResourceDesc __cuemu_r;
  CUEMU_DRV_CONVERTED(pSurfObject ? cuemu::drv::resource_desc(pResDesc, &__cuemu_r)
                                  : static_cast<int>(CUDA_ERROR_INVALID_VALUE),
                      cudaCreateSurfaceObject(pSurfObject, &__cuemu_r));
}

inline CUresult cuSurfObjectDestroy(CUsurfObject surfObject) {
  CUEMU_DRV_SYMBOL(cuSurfObjectDestroy);
  CUEMU_DRV_FORWARD(cudaDestroySurfaceObject(surfObject));
}

inline CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc,
                                            CUsurfObject surfObject) {
  CUEMU_DRV_SYMBOL(cuSurfObjectGetResourceDesc);
  return cuemu::drv::resource_desc_of(pResDesc, surfObject,
                                      cudaGetSurfaceObjectResourceDesc);
}

#include "cuemu_driver_mipmap_api.h"
#include "cuemu_driver_vmm_api.h"

#endif /* CUEMU_DRIVER_ARRAY_API_H */
