/*
 * tensor_maps.cu: tensor maps as a Hopper GEMM's host code builds them:
 * cuTensorMapEncodeTiled for a row-major float matrix (64 x 32 tiles,
 * 128-byte swizzle) and a bf16 one, cuTensorMapReplaceAddress, the im2col
 * forms for an NHWC activation, and every documented argument error the
 * program can make (a misaligned map or address, rank 0 or 6, a stride
 * that is no multiple of 16, a box of 0 or 257, an inner box that is no
 * multiple of 16 bytes or wider than the swizzle, element strides of 0 or
 * 9, 32-byte interleave without the 32-byte swizzle, NaN fill of integers,
 * im2col corners out of range). cuemu encodes and validates (no TMA copy
 * is emulated). Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>
#include <cstdio>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  const int rows = 256, cols = 128;
  CUdeviceptr a, b;
  CU(cuMemAlloc(&a, rows * cols * sizeof(float)));
  CU(cuMemAlloc(&b, rows * cols * sizeof(float)));
  void *pa = reinterpret_cast<void *>(a), *pb = reinterpret_cast<void *>(b);

  alignas(64) CUtensorMap map;
  CHECK(sizeof(CUtensorMap) == 128 && alignof(CUtensorMap) >= 64);
  cuuint64_t dims[2] = {cols, rows};
  cuuint64_t strides[1] = {cols * sizeof(float)};
  cuuint32_t box[2] = {32, 64}; /* 32 floats: 128 bytes, the swizzle span */
  cuuint32_t ones[5] = {1, 1, 1, 1, 1};
  CU(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, pa, dims,
                            strides, box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
                            CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  CU(cuTensorMapReplaceAddress(&map, pb));
  CHECK(cuTensorMapReplaceAddress(&map, static_cast<char *>(pb) + 8) ==
        CUDA_ERROR_INVALID_VALUE);

  /* bf16, 64-element inner box: 128 bytes. */
  cuuint64_t strides_bf16[1] = {cols * 2};
  cuuint32_t box_bf16[2] = {64, 64};
  CU(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, pa, dims,
                            strides_bf16, box_bf16, ones,
                            CU_TENSOR_MAP_INTERLEAVE_NONE,
                            CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_L2_PROMOTION_NONE,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA));

  /* The errors of the tiled form. */
  auto tiled = [&](CUtensorMap *m, CUtensorMapDataType t, cuuint32_t rank,
                   void *addr, const cuuint64_t *st, const cuuint32_t *bx,
                   const cuuint32_t *es, CUtensorMapInterleave il,
                   CUtensorMapSwizzle sw, CUtensorMapFloatOOBfill oob) {
    return cuTensorMapEncodeTiled(m, t, rank, addr, dims, st, bx, es, il, sw,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, oob);
  };
  const auto F32 = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  const auto NONE = CU_TENSOR_MAP_INTERLEAVE_NONE;
  const auto NOSW = CU_TENSOR_MAP_SWIZZLE_NONE;
  const auto NOFILL = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  CHECK(tiled(&map, F32, 2, pa, strides, box, ones, NONE, NOSW, NOFILL) ==
        CUDA_SUCCESS);
  alignas(64) unsigned char raw[192];
  CUtensorMap *odd = reinterpret_cast<CUtensorMap *>(raw + 32);
  CHECK(tiled(odd, F32, 2, pa, strides, box, ones, NONE, NOSW, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(tiled(&map, F32, 0, pa, strides, box, ones, NONE, NOSW, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(tiled(&map, F32, 6, pa, strides, box, ones, NONE, NOSW, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(tiled(&map, F32, 2, static_cast<char *>(pa) + 4, strides, box, ones,
              NONE, NOSW, NOFILL) == CUDA_ERROR_INVALID_VALUE);
  cuuint64_t bad_stride[1] = {cols * sizeof(float) + 4};
  CHECK(tiled(&map, F32, 2, pa, bad_stride, box, ones, NONE, NOSW, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE);
  cuuint32_t box0[2] = {32, 0}, box257[2] = {32, 257}, box3[2] = {3, 64};
  CHECK(tiled(&map, F32, 2, pa, strides, box0, ones, NONE, NOSW, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(tiled(&map, F32, 2, pa, strides, box257, ones, NONE, NOSW, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(tiled(&map, F32, 2, pa, strides, box3, ones, NONE, NOSW, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE); /* 12 bytes */
  CHECK(tiled(&map, F32, 2, pa, strides, box, ones, NONE,
              CU_TENSOR_MAP_SWIZZLE_64B, NOFILL) == CUDA_ERROR_INVALID_VALUE);
  cuuint32_t es0[2] = {1, 0}, es9[2] = {1, 9};
  CHECK(tiled(&map, F32, 2, pa, strides, box, es0, NONE, NOSW, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(tiled(&map, F32, 2, pa, strides, box, es9, NONE, NOSW, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(tiled(&map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, pa, strides, box, ones,
              NONE, NOSW, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA) ==
        CUDA_ERROR_INVALID_VALUE);
  /* Interleave: rank 3 at least, and 32-byte interleave with the 32-byte
   * swizzle only. */
  cuuint64_t dims3[3] = {8, 16, 16};
  cuuint64_t strides3[2] = {32, 32 * 16};
  cuuint32_t box3d[3] = {8, 16, 4};
  CU(cuTensorMapEncodeTiled(&map, F32, 3, pa, dims3, strides3, box3d, ones,
                            CU_TENSOR_MAP_INTERLEAVE_32B,
                            CU_TENSOR_MAP_SWIZZLE_32B,
                            CU_TENSOR_MAP_L2_PROMOTION_NONE, NOFILL));
  CHECK(cuTensorMapEncodeTiled(&map, F32, 3, pa, dims3, strides3, box3d, ones,
                               CU_TENSOR_MAP_INTERLEAVE_32B, NOSW,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(tiled(&map, F32, 2, pa, strides, box, ones,
              CU_TENSOR_MAP_INTERLEAVE_16B, NOSW, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE);

  /* im2col over an NHWC half tensor: C 64, W 32, H 32, N 4. */
  cuuint64_t nhwc[4] = {64, 32, 32, 4};
  cuuint64_t nhwc_strides[3] = {64 * 2, 64 * 2 * 32, 64 * 2 * 32 * 32};
  int lower[2] = {-1, -1}, upper[2] = {-1, -1};
  CU(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, pa, nhwc,
                             nhwc_strides, lower, upper, 64, 128, ones, NONE,
                             CU_TENSOR_MAP_SWIZZLE_128B,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_128B, NOFILL));
  int far[2] = {-200, 0};
  CHECK(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, pa,
                                nhwc, nhwc_strides, far, upper, 64, 128, ones,
                                NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, NOFILL) ==
        CUDA_ERROR_INVALID_VALUE); /* rank 4: corners within [-128, 127] */
  CHECK(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, pa,
                                nhwc, nhwc_strides, lower, upper, 64, 128, ones,
                                NONE, NOSW, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                NOFILL) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, pa,
                                nhwc, nhwc_strides, lower, upper, 257, 128,
                                ones, NONE, NOSW,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                NOFILL) == CUDA_ERROR_INVALID_VALUE);
  CU(cuTensorMapEncodeIm2colWide(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, pa,
                                 nhwc, nhwc_strides, -1, 1, 64, 32, ones, NONE,
                                 CU_TENSOR_MAP_IM2COL_WIDE_MODE_W,
                                 CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, NOFILL));
  CHECK(cuTensorMapEncodeIm2colWide(
            &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, pa, nhwc, nhwc_strides,
            -40000, 1, 64, 32, ones, NONE, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W,
            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
            NOFILL) == CUDA_ERROR_INVALID_VALUE);

  CU(cuMemFree(a));
  CU(cuMemFree(b));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
