/*
 * cuemu_driver_vmm_api.h: the driver API's virtual memory management
 * (cuMemCreate, cuMemAddressReserve, cuMemMap, cuMemSetAccess,
 * cuMemExportToShareableHandle, ...) over cuemu/cuemu_vmm.h; docs/vmm.md
 * says what the emulator does and does not do. Included at the end of
 * cuemu_driver_array_api.h, whose types (CUarray, CUmipmappedArray,
 * CUresourcetype) it uses with the pool headers' (CUmemLocation,
 * CUmemAccessDesc, CUmemAllocationHandleType).
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_VMM_API_H
#define CUEMU_DRIVER_VMM_API_H

#include "cuemu_driver_array_api.h"
#include "cuemu_driver_graph_nodes_api.h"

#include <cuemu/cuemu_vmm.h>

#include "cuemu_driver_vmm_types.h"

namespace cuemu {
namespace vmm {
/* cuemu_vmm_prop and cuemu_vmm_access are cuda.h's structures. */
static_assert(sizeof(CUmemAllocationProp) == sizeof(cuemu_vmm_prop), "");
static_assert(sizeof(CUmemAccessDesc) == sizeof(cuemu_vmm_access), "");
inline const cuemu_vmm_prop *prop(const CUmemAllocationProp *p) {
  return reinterpret_cast<const cuemu_vmm_prop *>(p);
}
} // namespace vmm
} // namespace cuemu

inline CUresult cuMemGetAllocationGranularity(
    size_t *granularity, const CUmemAllocationProp *prop,
    CUmemAllocationGranularity_flags option) {
  CUEMU_DRV_SYMBOL(cuMemGetAllocationGranularity);
  return static_cast<CUresult>(cuemu_vmm_granularity(
      granularity, cuemu::vmm::prop(prop), static_cast<int>(option)));
}

inline CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
                            const CUmemAllocationProp *prop,
                            unsigned long long flags) {
  CUEMU_DRV_SYMBOL(cuMemCreate);
  return static_cast<CUresult>(
      cuemu_vmm_create(handle, size, cuemu::vmm::prop(prop), flags));
}

inline CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
  CUEMU_DRV_SYMBOL(cuMemRelease);
  return static_cast<CUresult>(cuemu_vmm_release(handle));
}

inline CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size,
                                    size_t alignment, CUdeviceptr addr,
                                    unsigned long long flags) {
  CUEMU_DRV_SYMBOL(cuMemAddressReserve);
  unsigned long long p = 0;
  CUresult __cuemu_r = static_cast<CUresult>(
      cuemu_vmm_address_reserve(&p, size, alignment, addr, flags));
  if (__cuemu_r == CUDA_SUCCESS)
    *ptr = static_cast<CUdeviceptr>(p);
  return __cuemu_r;
}

inline CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  CUEMU_DRV_SYMBOL(cuMemAddressFree);
  return static_cast<CUresult>(cuemu_vmm_address_free(ptr, size));
}

inline CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                         CUmemGenericAllocationHandle handle,
                         unsigned long long flags) {
  CUEMU_DRV_SYMBOL(cuMemMap);
  return static_cast<CUresult>(cuemu_vmm_map(ptr, size, offset, handle, flags));
}

inline CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
  CUEMU_DRV_SYMBOL(cuMemUnmap);
  return static_cast<CUresult>(cuemu_vmm_unmap(ptr, size));
}

inline CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size,
                               const CUmemAccessDesc *desc, size_t count) {
  CUEMU_DRV_SYMBOL(cuMemSetAccess);
  return static_cast<CUresult>(cuemu_vmm_set_access(
      ptr, size, reinterpret_cast<const cuemu_vmm_access *>(desc), count));
}

inline CUresult cuMemGetAccess(unsigned long long *flags,
                               const CUmemLocation *location, CUdeviceptr ptr) {
  CUEMU_DRV_SYMBOL(cuMemGetAccess);
  return static_cast<CUresult>(cuemu_vmm_get_access(flags, location, ptr));
}

inline CUresult cuMemExportToShareableHandle(
    void *shareableHandle, CUmemGenericAllocationHandle handle,
    CUmemAllocationHandleType handleType, unsigned long long flags) {
  CUEMU_DRV_SYMBOL(cuMemExportToShareableHandle);
  return static_cast<CUresult>(cuemu_vmm_export(
      shareableHandle, handle, static_cast<int>(handleType), flags));
}

inline CUresult cuMemImportFromShareableHandle(
    CUmemGenericAllocationHandle *handle, void *osHandle,
    CUmemAllocationHandleType shHandleType) {
  CUEMU_DRV_SYMBOL(cuMemImportFromShareableHandle);
  return static_cast<CUresult>(
      cuemu_vmm_import(handle, osHandle, static_cast<int>(shHandleType)));
}

inline CUresult cuMemRetainAllocationHandle(
    CUmemGenericAllocationHandle *handle, void *addr) {
  CUEMU_DRV_SYMBOL(cuMemRetainAllocationHandle);
  return static_cast<CUresult>(cuemu_vmm_retain(handle, addr));
}

inline CUresult cuMemGetAllocationPropertiesFromHandle(
    CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle) {
  CUEMU_DRV_SYMBOL(cuMemGetAllocationPropertiesFromHandle);
  return static_cast<CUresult>(cuemu_vmm_properties(
      reinterpret_cast<cuemu_vmm_prop *>(prop), handle));
}

/* Sparse arrays do not exist in the emulator
 * (CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED is 0). */
/* cuemu-status: refused (sparse CUDA arrays are not emulated) */
inline CUresult cuMemMapArrayAsync(CUarrayMapInfo *mapInfoList,
                                   unsigned int count, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemMapArrayAsync);
  return static_cast<CUresult>(
      cuemu_vmm_map_array(mapInfoList, count, hStream));
}

#endif /* CUEMU_DRIVER_VMM_API_H */
