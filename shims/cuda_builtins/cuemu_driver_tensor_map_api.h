/*
 * cuemu_driver_tensor_map_api.h: tensor maps (TMA descriptors, CUDA 12):
 * cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col,
 * cuTensorMapEncodeIm2colWide and cuTensorMapReplaceAddress, with every
 * argument check CUDA documents (CUDA_ERROR_INVALID_VALUE). The 128-byte
 * CUtensorMap holds what was encoded (a tag, the address, the type, rank,
 * layout and each dimension, stride, box and element stride), which the
 * tensor copies of kernels read (cp.async.bulk.tensor in tile mode:
 * cuemu_ptx_tensor.h decodes these words; docs/ptx.md). Im2col maps are
 * encoded and validated only (docs/driver-api.md). Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_TENSOR_MAP_API_H
#define CUEMU_DRIVER_TENSOR_MAP_API_H

#include "cuemu_driver_tensor_map_types.h"

namespace cuemu {
namespace drv {
/* The tag of an encoded map's first word, and its kind. */
constexpr cuuint64_t __cuemu_tmap_tag = 0x70614d726f736e54ull; /* "TnsorMap" */
enum { __cuemu_tmap_tiled = 1, __cuemu_tmap_im2col = 2, __cuemu_tmap_wide = 3 };

/* The bits of one element (packed types: of one U4/U6 value as laid out,
 * the ALIGN16B forms taking a byte each). */
inline unsigned __cuemu_tmap_element_bits(int __cuemu_t) {
  static const unsigned char __cuemu_bits[] = {8,  16, 32, 32, 64, 64, 16, 32,
                                               64, 16, 32, 32, 32, 4,  8,  8};
  return __cuemu_bits[__cuemu_t];
}

inline bool __cuemu_tmap_float(int __cuemu_t) {
  return __cuemu_t >= CU_TENSOR_MAP_DATA_TYPE_FLOAT16 &&
         __cuemu_t <= CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ;
}

/* The checks every encode shares, then the map written; `inner` is the
 * bounding box's inner extent in elements (boxDim[0], or channelsPerPixel
 * for the im2col forms). CUDA_SUCCESS or CUDA_ERROR_INVALID_VALUE. */
inline CUresult __cuemu_tmap_encode(CUtensorMap *__cuemu_map, int __cuemu_kind,
                            CUtensorMapDataType __cuemu_type,
                            cuuint32_t __cuemu_rank, void *__cuemu_address,
                            const cuuint64_t *__cuemu_dims,
                            const cuuint64_t *__cuemu_strides,
                            const cuuint32_t *__cuemu_box,
                            cuuint32_t __cuemu_inner,
                            const cuuint32_t *__cuemu_element_strides,
                            CUtensorMapInterleave __cuemu_interleave,
                            CUtensorMapSwizzle __cuemu_swizzle,
                            CUtensorMapL2promotion __cuemu_l2,
                            CUtensorMapFloatOOBfill __cuemu_oob,
                            cuuint64_t __cuemu_extra) {
  const int __cuemu_t = static_cast<int>(__cuemu_type);
  const cuuint32_t __cuemu_least = __cuemu_kind == __cuemu_tmap_tiled ? 1 : 3;
  if (!__cuemu_map || reinterpret_cast<uintptr_t>(__cuemu_map) % 64 ||
      __cuemu_t < 0 || __cuemu_t > CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B ||
      __cuemu_rank < __cuemu_least || __cuemu_rank > 5 || !__cuemu_dims ||
      (__cuemu_rank > 1 && !__cuemu_strides) || !__cuemu_element_strides ||
      __cuemu_interleave < CU_TENSOR_MAP_INTERLEAVE_NONE ||
      __cuemu_interleave > CU_TENSOR_MAP_INTERLEAVE_32B ||
      __cuemu_swizzle < CU_TENSOR_MAP_SWIZZLE_NONE ||
      __cuemu_swizzle > CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B ||
      __cuemu_l2 < CU_TENSOR_MAP_L2_PROMOTION_NONE ||
      __cuemu_l2 > CU_TENSOR_MAP_L2_PROMOTION_L2_256B ||
      __cuemu_oob < CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE ||
      __cuemu_oob > CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
    return CUDA_ERROR_INVALID_VALUE;
  const bool __cuemu_i32 = __cuemu_interleave == CU_TENSOR_MAP_INTERLEAVE_32B;
  const bool __cuemu_a16 = __cuemu_t == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B ||
                           __cuemu_t == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
  /* Interleaved layouts need rank 3 or more and the 32-byte swizzle for
   * 32-byte interleave; NaN fill needs a floating-point type. */
  if ((__cuemu_interleave != CU_TENSOR_MAP_INTERLEAVE_NONE && __cuemu_rank < 3) ||
      (__cuemu_i32 && __cuemu_swizzle != CU_TENSOR_MAP_SWIZZLE_32B) ||
      (__cuemu_oob == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA &&
       !__cuemu_tmap_float(__cuemu_t)))
    return CUDA_ERROR_INVALID_VALUE;
  const uintptr_t __cuemu_align = (__cuemu_i32 || __cuemu_a16) ? 32 : 16;
  if (!__cuemu_address ||
      reinterpret_cast<uintptr_t>(__cuemu_address) % __cuemu_align)
    return CUDA_ERROR_INVALID_VALUE;
  for (cuuint32_t __cuemu_i = 0; __cuemu_i < __cuemu_rank; ++__cuemu_i) {
    if (__cuemu_dims[__cuemu_i] == 0 || __cuemu_dims[__cuemu_i] > (1ull << 32) ||
        __cuemu_element_strides[__cuemu_i] == 0 ||
        __cuemu_element_strides[__cuemu_i] > 8)
      return CUDA_ERROR_INVALID_VALUE;
    if (__cuemu_box && (__cuemu_box[__cuemu_i] == 0 || __cuemu_box[__cuemu_i] > 256))
      return CUDA_ERROR_INVALID_VALUE;
  }
  if ((__cuemu_a16 && __cuemu_dims[0] % 128) ||
      (__cuemu_t == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B && __cuemu_dims[0] % 2))
    return CUDA_ERROR_INVALID_VALUE;
  const cuuint64_t __cuemu_stride_unit = (__cuemu_i32 || __cuemu_a16) ? 32 : 16;
  for (cuuint32_t __cuemu_i = 0; __cuemu_i + 1 < __cuemu_rank; ++__cuemu_i)
    if (__cuemu_strides[__cuemu_i] % __cuemu_stride_unit ||
        __cuemu_strides[__cuemu_i] >= (1ull << 40))
      return CUDA_ERROR_INVALID_VALUE;
  /* The box's inner extent: a multiple of 16 bytes without interleave,
   * and within the swizzle's span. */
  const cuuint64_t __cuemu_inner_bits =
      static_cast<cuuint64_t>(__cuemu_inner) * __cuemu_tmap_element_bits(__cuemu_t);
  if (__cuemu_interleave == CU_TENSOR_MAP_INTERLEAVE_NONE) {
    if (__cuemu_inner_bits % 128)
      return CUDA_ERROR_INVALID_VALUE;
    const unsigned __cuemu_span = __cuemu_swizzle == CU_TENSOR_MAP_SWIZZLE_NONE ? 0
                                  : __cuemu_swizzle == CU_TENSOR_MAP_SWIZZLE_32B ? 32
                                  : __cuemu_swizzle == CU_TENSOR_MAP_SWIZZLE_64B ? 64
                                                                                 : 128;
    if (__cuemu_span && __cuemu_inner_bits > 8ull * __cuemu_span)
      return CUDA_ERROR_INVALID_VALUE;
  }
  cuuint64_t *__cuemu_w = __cuemu_map->opaque;
  for (int __cuemu_i = 0; __cuemu_i < CU_TENSOR_MAP_NUM_QWORDS; ++__cuemu_i)
    __cuemu_w[__cuemu_i] = 0;
  __cuemu_w[0] = __cuemu_tmap_tag;
  __cuemu_w[1] = reinterpret_cast<uintptr_t>(__cuemu_address);
  __cuemu_w[2] = static_cast<cuuint64_t>(__cuemu_kind) |
                 static_cast<cuuint64_t>(__cuemu_t) << 8 |
                 static_cast<cuuint64_t>(__cuemu_rank) << 16 |
                 static_cast<cuuint64_t>(__cuemu_interleave) << 24 |
                 static_cast<cuuint64_t>(__cuemu_swizzle) << 32 |
                 static_cast<cuuint64_t>(__cuemu_l2) << 40 |
                 static_cast<cuuint64_t>(__cuemu_oob) << 48;
  for (cuuint32_t __cuemu_i = 0; __cuemu_i < __cuemu_rank; ++__cuemu_i) {
    __cuemu_w[3 + __cuemu_i] = __cuemu_dims[__cuemu_i];
    if (__cuemu_i + 1 < __cuemu_rank)
      __cuemu_w[8 + __cuemu_i] = __cuemu_strides[__cuemu_i];
    if (__cuemu_box)
      __cuemu_w[12 + __cuemu_i / 4] |= static_cast<cuuint64_t>(__cuemu_box[__cuemu_i])
                                       << (16 * (__cuemu_i % 4));
    __cuemu_w[14] |= static_cast<cuuint64_t>(__cuemu_element_strides[__cuemu_i])
                     << (8 * __cuemu_i);
  }
  __cuemu_w[15] = __cuemu_extra;
  return CUDA_SUCCESS;
}
} // namespace drv
} // namespace cuemu

inline CUresult cuTensorMapEncodeTiled(
    CUtensorMap *__cuemu_tensorMap, CUtensorMapDataType __cuemu_tensorDataType,
    cuuint32_t __cuemu_tensorRank, void *__cuemu_globalAddress, const cuuint64_t *__cuemu_globalDim,
    const cuuint64_t *__cuemu_globalStrides, const cuuint32_t *__cuemu_boxDim,
    const cuuint32_t *__cuemu_elementStrides, CUtensorMapInterleave __cuemu_interleave,
    CUtensorMapSwizzle __cuemu_swizzle, CUtensorMapL2promotion __cuemu_l2Promotion,
    CUtensorMapFloatOOBfill __cuemu_oobFill) {
  CUEMU_DRV_SYMBOL(cuTensorMapEncodeTiled);
  if (!__cuemu_boxDim)
    return CUDA_ERROR_INVALID_VALUE;
  return cuemu::drv::__cuemu_tmap_encode(
      __cuemu_tensorMap, cuemu::drv::__cuemu_tmap_tiled, __cuemu_tensorDataType, __cuemu_tensorRank,
      __cuemu_globalAddress, __cuemu_globalDim, __cuemu_globalStrides, __cuemu_boxDim, __cuemu_boxDim[0],
      __cuemu_elementStrides, __cuemu_interleave, __cuemu_swizzle, __cuemu_l2Promotion, __cuemu_oobFill, 0);
}

inline CUresult cuTensorMapEncodeIm2col(
    CUtensorMap *__cuemu_tensorMap, CUtensorMapDataType __cuemu_tensorDataType,
    cuuint32_t __cuemu_tensorRank, void *__cuemu_globalAddress, const cuuint64_t *__cuemu_globalDim,
    const cuuint64_t *__cuemu_globalStrides, const int *__cuemu_pixelBoxLowerCorner,
    const int *__cuemu_pixelBoxUpperCorner, cuuint32_t __cuemu_channelsPerPixel,
    cuuint32_t __cuemu_pixelsPerColumn, const cuuint32_t *__cuemu_elementStrides,
    CUtensorMapInterleave __cuemu_interleave, CUtensorMapSwizzle __cuemu_swizzle,
    CUtensorMapL2promotion __cuemu_l2Promotion, CUtensorMapFloatOOBfill __cuemu_oobFill) {
  CUEMU_DRV_SYMBOL(cuTensorMapEncodeIm2col);
  if (!__cuemu_pixelBoxLowerCorner || !__cuemu_pixelBoxUpperCorner || __cuemu_channelsPerPixel == 0 ||
      __cuemu_channelsPerPixel > 256 || __cuemu_pixelsPerColumn == 0 || __cuemu_pixelsPerColumn > 1024 ||
      __cuemu_tensorRank < 3 || __cuemu_tensorRank > 5)
    return CUDA_ERROR_INVALID_VALUE;
  /* The corners' range narrows with the spatial dimensions: 16, 8 and 5
   * bits for ranks 3, 4 and 5 (W; HW; DHW). */
  const int __cuemu_bits = __cuemu_tensorRank == 3 ? 16 : __cuemu_tensorRank == 4 ? 8 : 5;
  const int __cuemu_lo = -(1 << (__cuemu_bits - 1)), __cuemu_hi = (1 << (__cuemu_bits - 1)) - 1;
  cuuint64_t __cuemu_corners = 0;
  for (cuuint32_t __cuemu_i = 0; __cuemu_i + 2 < __cuemu_tensorRank; ++__cuemu_i) {
    if (__cuemu_pixelBoxLowerCorner[__cuemu_i] < __cuemu_lo ||
        __cuemu_pixelBoxLowerCorner[__cuemu_i] > __cuemu_hi ||
        __cuemu_pixelBoxUpperCorner[__cuemu_i] < __cuemu_lo ||
        __cuemu_pixelBoxUpperCorner[__cuemu_i] > __cuemu_hi)
      return CUDA_ERROR_INVALID_VALUE;
    __cuemu_corners |=
        (static_cast<cuuint64_t>(static_cast<uint16_t>(__cuemu_pixelBoxLowerCorner[__cuemu_i])) |
         static_cast<cuuint64_t>(static_cast<uint16_t>(__cuemu_pixelBoxUpperCorner[__cuemu_i]))
             << 16)
        << (32 * (__cuemu_i % 2));
  }
  CUresult __cuemu_e = cuemu::drv::__cuemu_tmap_encode(
      __cuemu_tensorMap, cuemu::drv::__cuemu_tmap_im2col, __cuemu_tensorDataType, __cuemu_tensorRank,
      __cuemu_globalAddress, __cuemu_globalDim, __cuemu_globalStrides, nullptr, __cuemu_channelsPerPixel,
      __cuemu_elementStrides, __cuemu_interleave, __cuemu_swizzle, __cuemu_l2Promotion, __cuemu_oobFill,
      static_cast<cuuint64_t>(__cuemu_channelsPerPixel) | static_cast<cuuint64_t>(__cuemu_pixelsPerColumn) << 16);
  if (__cuemu_e == CUDA_SUCCESS)
    __cuemu_tensorMap->opaque[13] = __cuemu_corners;
  return __cuemu_e;
}

inline CUresult cuTensorMapEncodeIm2colWide(
    CUtensorMap *__cuemu_tensorMap, CUtensorMapDataType __cuemu_tensorDataType,
    cuuint32_t __cuemu_tensorRank, void *__cuemu_globalAddress, const cuuint64_t *__cuemu_globalDim,
    const cuuint64_t *__cuemu_globalStrides, int __cuemu_pixelBoxLowerCornerWidth,
    int __cuemu_pixelBoxUpperCornerWidth, cuuint32_t __cuemu_channelsPerPixel,
    cuuint32_t __cuemu_pixelsPerColumn, const cuuint32_t *__cuemu_elementStrides,
    CUtensorMapInterleave __cuemu_interleave, CUtensorMapIm2ColWideMode __cuemu_mode,
    CUtensorMapSwizzle __cuemu_swizzle, CUtensorMapL2promotion __cuemu_l2Promotion,
    CUtensorMapFloatOOBfill __cuemu_oobFill) {
  CUEMU_DRV_SYMBOL(cuTensorMapEncodeIm2colWide);
  const bool __cuemu_a16 = __cuemu_tensorDataType == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B ||
                           __cuemu_tensorDataType == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
  if (__cuemu_pixelBoxLowerCornerWidth < -32768 || __cuemu_pixelBoxLowerCornerWidth > 32767 ||
      __cuemu_pixelBoxUpperCornerWidth < -32768 || __cuemu_pixelBoxUpperCornerWidth > 32767 ||
      __cuemu_channelsPerPixel == 0 || __cuemu_channelsPerPixel > 256 ||
      (__cuemu_a16 && __cuemu_channelsPerPixel != 128) || __cuemu_pixelsPerColumn == 0 ||
      __cuemu_pixelsPerColumn > 1024 || __cuemu_mode < CU_TENSOR_MAP_IM2COL_WIDE_MODE_W ||
      __cuemu_mode > CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128)
    return CUDA_ERROR_INVALID_VALUE;
  CUresult __cuemu_e = cuemu::drv::__cuemu_tmap_encode(
      __cuemu_tensorMap, cuemu::drv::__cuemu_tmap_wide, __cuemu_tensorDataType, __cuemu_tensorRank,
      __cuemu_globalAddress, __cuemu_globalDim, __cuemu_globalStrides, nullptr, __cuemu_channelsPerPixel,
      __cuemu_elementStrides, __cuemu_interleave, __cuemu_swizzle, __cuemu_l2Promotion, __cuemu_oobFill,
      static_cast<cuuint64_t>(__cuemu_channelsPerPixel) |
          static_cast<cuuint64_t>(__cuemu_pixelsPerColumn) << 16 |
          static_cast<cuuint64_t>(__cuemu_mode) << 32);
  if (__cuemu_e == CUDA_SUCCESS)
    __cuemu_tensorMap->opaque[13] =
        static_cast<cuuint64_t>(static_cast<uint16_t>(__cuemu_pixelBoxLowerCornerWidth)) |
        static_cast<cuuint64_t>(static_cast<uint16_t>(__cuemu_pixelBoxUpperCornerWidth)) << 16;
  return __cuemu_e;
}

/* A map that these calls encoded gets a new address, aligned as its
 * layout needs. */
inline CUresult cuTensorMapReplaceAddress(CUtensorMap *__cuemu_tensorMap,
                                          void *__cuemu_globalAddress) {
  CUEMU_DRV_SYMBOL(cuTensorMapReplaceAddress);
  if (!__cuemu_tensorMap || reinterpret_cast<uintptr_t>(__cuemu_tensorMap) % 64 ||
      __cuemu_tensorMap->opaque[0] != cuemu::drv::__cuemu_tmap_tag || !__cuemu_globalAddress)
    return CUDA_ERROR_INVALID_VALUE;
  const cuuint64_t __cuemu_layout = __cuemu_tensorMap->opaque[2];
  const int __cuemu_t = static_cast<int>((__cuemu_layout >> 8) & 0xff);
  const bool __cuemu_32 =
      ((__cuemu_layout >> 24) & 0xff) == CU_TENSOR_MAP_INTERLEAVE_32B ||
      __cuemu_t == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B ||
      __cuemu_t == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
  if (reinterpret_cast<uintptr_t>(__cuemu_globalAddress) % (__cuemu_32 ? 32 : 16))
    return CUDA_ERROR_INVALID_VALUE;
  __cuemu_tensorMap->opaque[1] = reinterpret_cast<uintptr_t>(__cuemu_globalAddress);
  return CUDA_SUCCESS;
}

#endif /* CUEMU_DRIVER_TENSOR_MAP_API_H */
