/*
 * cuemu_device_extras_api.h: the runtime's rarer device queries, in CUDA
 * 13's signatures, as the driver's (cuemu_driver_device_extras_api.h):
 * cudaDeviceGetTexture1DLinearMaxWidth gives the emulated device's
 * documented limit (2^28 elements, its cudaDevAttrMaxTexture1DLinearWidth,
 * for every element format a linear texture can have);
 * cudaDeviceGetNvSciSyncAttributes is refused with cudaErrorNotSupported
 * (NvSciSync is a Tegra/DRIVE library, absent here) and cudaGetExportTable
 * with cudaErrorSymbolNotFound and a NULL table (the driver's
 * CUDA_ERROR_NOT_FOUND: cuemu has none of NVIDIA's private tables), each
 * after CUDA's argument checks. Included at
 * the end of cuda_runtime_api.h.
 */
#ifndef CUEMU_DEVICE_EXTRAS_API_H
#define CUEMU_DEVICE_EXTRAS_API_H

#include "cuda_runtime_api.h"

#ifndef cudaNvSciSyncAttrSignal
#define cudaNvSciSyncAttrSignal 0x1
#endif
#ifndef cudaNvSciSyncAttrWait
#define cudaNvSciSyncAttrWait 0x2
#endif

namespace cuemu {
namespace rt {
/* Whether a 1D linear texture can have elements of `d`: 1, 2 or 4
 * channels of one width (8, 16 or 32 bits; 16 or 32 for floats), signed,
 * unsigned or float. */
inline bool __cuemu_linear_format(const cudaChannelFormatDesc &d) {
  int x = d.x;
  bool width = x == 8 || x == 16 || x == 32;
  bool kind = d.f == cudaChannelFormatKindSigned ||
              d.f == cudaChannelFormatKindUnsigned ||
              (d.f == cudaChannelFormatKindFloat && x != 8);
  bool channels = (d.y == 0 && d.z == 0 && d.w == 0) ||
                  (d.y == x && d.z == 0 && d.w == 0) ||
                  (d.y == x && d.z == x && d.w == x);
  return width && kind && channels;
}
} // namespace rt
} // namespace cuemu

inline cudaError_t
cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                     const struct cudaChannelFormatDesc *fmtDesc,
                                     int device) {
  int width = 0;
  cudaError_t e = cudaDeviceGetAttribute(
      &width, cudaDevAttrMaxTexture1DLinearWidth, device);
  if (e != cudaSuccess)
    return e;
  if (!maxWidthInElements || !fmtDesc ||
      !cuemu::rt::__cuemu_linear_format(*fmtDesc))
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  *maxWidthInElements = static_cast<size_t>(width);
  return cudaSuccess;
}

/* cuemu-status: refused (NvSciSync is a Tegra/DRIVE library) */
inline cudaError_t cudaDeviceGetNvSciSyncAttributes(void *nvSciSyncAttrList,
                                                    int device, int flags) {
  int major = 0;
  cudaError_t e =
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (e != cudaSuccess)
    return e;
  const int known = cudaNvSciSyncAttrSignal | cudaNvSciSyncAttrWait;
  if (!nvSciSyncAttrList)
    return static_cast<cudaError_t>(
        cuemu_rt_error(cudaErrorInvalidResourceHandle));
  if (!(flags & known) || (flags & ~known))
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorNotSupported));
}

/* cuemu-status: refused (NVIDIA's private tables, keyed by undocumented UUIDs) */
inline cudaError_t cudaGetExportTable(const void **ppExportTable,
                                      const cudaUUID_t *pExportTableId) {
  if (!ppExportTable || !pExportTableId)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  *ppExportTable = nullptr;
  return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorSymbolNotFound));
}

#endif /* CUEMU_DEVICE_EXTRAS_API_H */
