/*
 * cuemu_driver_device_extras_api.h: the driver's rarer device queries, in
 * CUDA 13's signatures. cuDeviceGetTexture1DLinearMaxWidth gives the
 * emulated device's documented limit (2^28 elements, the device's
 * CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, for every element
 * format a linear texture can have); cuDeviceGetNvSciSyncAttributes is
 * refused with CUDA_ERROR_NOT_SUPPORTED (NvSciSync is a Tegra/DRIVE library,
 * absent here) and cuGetExportTable with CUDA_ERROR_NOT_FOUND and a NULL
 * table (cuemu has none of NVIDIA's private tables), each after CUDA's
 * argument checks. Included at the end of cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_DEVICE_EXTRAS_API_H
#define CUEMU_DRIVER_DEVICE_EXTRAS_API_H

#ifndef CUDA_NVSCISYNC_ATTR_SIGNAL
#define CUDA_NVSCISYNC_ATTR_SIGNAL 0x1
#endif
#ifndef CUDA_NVSCISYNC_ATTR_WAIT
#define CUDA_NVSCISYNC_ATTR_WAIT 0x2
#endif

namespace cuemu {
namespace drv {
/* Whether a 1D linear texture can have elements of `format` with
 * `channels` channels: the plain integer, half and float formats, with 1, 2
 * or 4 channels. */
inline bool __cuemu_linear_format(CUarray_format format, unsigned channels) {
  switch (format) {
  case CU_AD_FORMAT_UNSIGNED_INT8:
  case CU_AD_FORMAT_UNSIGNED_INT16:
  case CU_AD_FORMAT_UNSIGNED_INT32:
  case CU_AD_FORMAT_SIGNED_INT8:
  case CU_AD_FORMAT_SIGNED_INT16:
  case CU_AD_FORMAT_SIGNED_INT32:
  case CU_AD_FORMAT_HALF:
  case CU_AD_FORMAT_FLOAT:
    return channels == 1 || channels == 2 || channels == 4;
  default:
    return false;
  }
}
} // namespace drv
} // namespace cuemu

inline CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                   CUarray_format format,
                                                   unsigned numChannels,
                                                   CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetTexture1DLinearMaxWidth);
  int width = 0;
  CUresult e = cuDeviceGetAttribute(
      &width, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, dev);
  if (e != CUDA_SUCCESS)
    return e;
  if (!maxWidthInElements ||
      !cuemu::drv::__cuemu_linear_format(format, numChannels))
    return CUDA_ERROR_INVALID_VALUE;
  *maxWidthInElements = static_cast<size_t>(width);
  return CUDA_SUCCESS;
}

/* cuemu-status: refused (NvSciSync is a Tegra/DRIVE library) */
inline CUresult cuDeviceGetNvSciSyncAttributes(void *nvSciSyncAttrList,
                                               CUdevice dev, int flags) {
  CUEMU_DRV_SYMBOL(cuDeviceGetNvSciSyncAttributes);
  int major = 0;
  CUresult e = cuDeviceGetAttribute(
      &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  if (e != CUDA_SUCCESS)
    return e;
  if (!nvSciSyncAttrList)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!(flags & (CUDA_NVSCISYNC_ATTR_SIGNAL | CUDA_NVSCISYNC_ATTR_WAIT)) ||
      (flags & ~(CUDA_NVSCISYNC_ATTR_SIGNAL | CUDA_NVSCISYNC_ATTR_WAIT)))
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_ERROR_NOT_SUPPORTED;
}

/* CUDA's own libraries (NVRTC, the runtime, CuPy's) ask the driver for its
 * private tables by id, and fail badly where the function is missing (real
 * NVRTC crashes in nvrtcCompileProgram when LD_LIBRARY_PATH names cuemu's
 * libcuda.so.1). cuemu has none of them: every id is CUDA_ERROR_NOT_FOUND
 * with a NULL table, which those libraries take as an older driver without
 * it. */
/* cuemu-status: refused (NVIDIA's private tables, keyed by undocumented UUIDs) */
inline CUresult cuGetExportTable(const void **ppExportTable,
                                 const CUuuid *pExportTableId) {
  CUEMU_DRV_SYMBOL(cuGetExportTable);
  if (!ppExportTable || !pExportTableId)
    return CUDA_ERROR_INVALID_VALUE;
  *ppExportTable = nullptr;
  return CUDA_ERROR_NOT_FOUND;
}

#endif /* CUEMU_DRIVER_DEVICE_EXTRAS_API_H */
