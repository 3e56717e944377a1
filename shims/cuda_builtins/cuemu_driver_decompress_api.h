/*
 * cuemu_driver_decompress_api.h: cuMemBatchDecompressAsync, in CUDA 13's
 * signature. Decompression runs on a copy engine that Blackwell devices
 * have; the emulated device (compute capability 9.0) has none, its
 * CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK is 0, so the call is
 * refused with CUDA_ERROR_NOT_SUPPORTED after CUDA's argument checks, and
 * `*errorIndex` is SIZE_MAX (the error is not one operation's). Included
 * by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_DECOMPRESS_API_H
#define CUEMU_DRIVER_DECOMPRESS_API_H

#include <cstdint>

typedef struct CUmemDecompressParams_st {
  size_t srcNumBytes;
  size_t dstNumBytes;
  cuuint32_t *dstActBytes;
  const void *src;
  void *dst;
  CUmemDecompressAlgorithm algo;
  unsigned char padding[20];
} CUmemDecompressParams;

/* cuemu-status: refused (the emulated device has no decompression engine) */
inline CUresult cuMemBatchDecompressAsync(CUmemDecompressParams *paramsArray,
                                          size_t count, unsigned int flags,
                                          size_t *errorIndex,
                                          CUstream stream) {
  CUEMU_DRV_SYMBOL(cuMemBatchDecompressAsync);
  (void)stream;
  if (errorIndex)
    *errorIndex = SIZE_MAX;
  int e = cuemu_drv_check_context();
  if (e)
    return static_cast<CUresult>(e);
  if (!paramsArray || count == 0 || flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_ERROR_NOT_SUPPORTED;
}

#endif /* CUEMU_DRIVER_DECOMPRESS_API_H */
