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

typedef unsigned long long CUmemGenericAllocationHandle_v1;
typedef CUmemGenericAllocationHandle_v1 CUmemGenericAllocationHandle;

typedef enum CUmemAllocationGranularity_flags_enum {
  CU_MEM_ALLOC_GRANULARITY_MINIMUM = 0x0,
  CU_MEM_ALLOC_GRANULARITY_RECOMMENDED = 0x1
} CUmemAllocationGranularity_flags;

typedef enum CUmemAllocationCompType_enum {
  CU_MEM_ALLOCATION_COMP_NONE = 0x0,
  CU_MEM_ALLOCATION_COMP_GENERIC = 0x1
} CUmemAllocationCompType;

#define CU_MEM_CREATE_USAGE_TILE_POOL 0x1
#define CU_MEM_CREATE_USAGE_HW_DECOMPRESS 0x2

typedef struct CUmemAllocationProp_st {
  CUmemAllocationType type;
  CUmemAllocationHandleType requestedHandleTypes;
  CUmemLocation location;
  void *win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
    unsigned char reserved[4];
  } allocFlags;
} CUmemAllocationProp_v1;
typedef CUmemAllocationProp_v1 CUmemAllocationProp;

/* Sparse and mipmapped arrays' mappings (cuMemMapArrayAsync, refused). */
typedef enum CUarraySparseSubresourceType_enum {
  CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_SPARSE_LEVEL = 0,
  CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_MIPTAIL = 1
} CUarraySparseSubresourceType;

typedef enum CUmemOperationType_enum {
  CU_MEM_OPERATION_TYPE_MAP = 1,
  CU_MEM_OPERATION_TYPE_UNMAP = 2
} CUmemOperationType;

typedef enum CUmemHandleType_enum {
  CU_MEM_HANDLE_TYPE_GENERIC = 0
} CUmemHandleType;

typedef struct CUarrayMapInfo_st {
  CUresourcetype resourceType;
  union {
    CUmipmappedArray mipmap;
    CUarray array;
  } resource;
  CUarraySparseSubresourceType subresourceType;
  union {
    struct {
      unsigned int level, layer, offsetX, offsetY, offsetZ;
      unsigned int extentWidth, extentHeight, extentDepth;
    } sparseLevel;
    struct {
      unsigned int layer;
      unsigned long long offset;
      unsigned long long size;
    } miptail;
  } subresource;
  CUmemOperationType memOperationType;
  CUmemHandleType memHandleType;
  union {
    CUmemGenericAllocationHandle memHandle;
  } memHandle;
  unsigned long long offset;
  unsigned int deviceBitMask;
  unsigned int flags;
  unsigned int reserved[2];
} CUarrayMapInfo_v1;
typedef CUarrayMapInfo_v1 CUarrayMapInfo;

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
  return static_cast<CUresult>(cuemu_vmm_granularity(
      granularity, cuemu::vmm::prop(prop), static_cast<int>(option)));
}

inline CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
                            const CUmemAllocationProp *prop,
                            unsigned long long flags) {
  return static_cast<CUresult>(
      cuemu_vmm_create(handle, size, cuemu::vmm::prop(prop), flags));
}

inline CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
  return static_cast<CUresult>(cuemu_vmm_release(handle));
}

inline CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size,
                                    size_t alignment, CUdeviceptr addr,
                                    unsigned long long flags) {
  unsigned long long p = 0;
  CUresult __cuemu_r = static_cast<CUresult>(
      cuemu_vmm_address_reserve(&p, size, alignment, addr, flags));
  if (__cuemu_r == CUDA_SUCCESS)
    *ptr = static_cast<CUdeviceptr>(p);
  return __cuemu_r;
}

inline CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  return static_cast<CUresult>(cuemu_vmm_address_free(ptr, size));
}

inline CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                         CUmemGenericAllocationHandle handle,
                         unsigned long long flags) {
  return static_cast<CUresult>(cuemu_vmm_map(ptr, size, offset, handle, flags));
}

inline CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
  return static_cast<CUresult>(cuemu_vmm_unmap(ptr, size));
}

inline CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size,
                               const CUmemAccessDesc *desc, size_t count) {
  return static_cast<CUresult>(cuemu_vmm_set_access(
      ptr, size, reinterpret_cast<const cuemu_vmm_access *>(desc), count));
}

inline CUresult cuMemGetAccess(unsigned long long *flags,
                               const CUmemLocation *location, CUdeviceptr ptr) {
  return static_cast<CUresult>(cuemu_vmm_get_access(flags, location, ptr));
}

inline CUresult cuMemExportToShareableHandle(
    void *shareableHandle, CUmemGenericAllocationHandle handle,
    CUmemAllocationHandleType handleType, unsigned long long flags) {
  return static_cast<CUresult>(cuemu_vmm_export(
      shareableHandle, handle, static_cast<int>(handleType), flags));
}

inline CUresult cuMemImportFromShareableHandle(
    CUmemGenericAllocationHandle *handle, void *osHandle,
    CUmemAllocationHandleType shHandleType) {
  return static_cast<CUresult>(
      cuemu_vmm_import(handle, osHandle, static_cast<int>(shHandleType)));
}

inline CUresult cuMemRetainAllocationHandle(
    CUmemGenericAllocationHandle *handle, void *addr) {
  return static_cast<CUresult>(cuemu_vmm_retain(handle, addr));
}

inline CUresult cuMemGetAllocationPropertiesFromHandle(
    CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle) {
  return static_cast<CUresult>(cuemu_vmm_properties(
      reinterpret_cast<cuemu_vmm_prop *>(prop), handle));
}

/* Sparse arrays do not exist in the emulator
 * (CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED is 0). */
/* cuemu-status: refused (sparse CUDA arrays are not emulated) */
inline CUresult cuMemMapArrayAsync(CUarrayMapInfo *mapInfoList,
                                   unsigned int count, CUstream hStream) {
  return static_cast<CUresult>(
      cuemu_vmm_map_array(mapInfoList, count, hStream));
}

#endif /* CUEMU_DRIVER_VMM_API_H */
