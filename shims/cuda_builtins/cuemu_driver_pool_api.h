/*
 * cuemu_driver_pool_api.h: the driver API's stream-ordered allocation and
 * memory pools (cuMemAllocAsync, cuMemFreeAsync, cuMemAllocFromPoolAsync,
 * cuMemPool*, cuDeviceGetDefaultMemPool, ...) and unified-memory hints
 * (cuMemPrefetchAsync, cuMemAdvise, cuMemRangeGetAttribute(s),
 * cuStreamAttachMemAsync), in CUDA 13's signatures, over the runtime's
 * (cuemu_mempool_api.h, cuemu_managed_api.h): one implementation, so that a
 * CUmemoryPool is a cudaMemPool_t and memory of either API serves the
 * other's calls; pools are shared between processes as the runtime's
 * (cuemu/cuemu_pool_ipc.h). Included at the end of cuemu_driver_graph_nodes_api.h, whose
 * types (CUmemPoolProps, CUmemLocation) it shares.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_POOL_API_H
#define CUEMU_DRIVER_POOL_API_H

#include "cuemu_driver_graph_nodes_api.h"

#include "cuemu_driver_pool_types.h"

namespace cuemu {
namespace drv {
/* The driver's pool structures are the runtime's, member for member. */
static_assert(sizeof(CUmemPoolProps) == sizeof(cudaMemPoolProps), "");
static_assert(sizeof(CUmemLocation) == sizeof(cudaMemLocation), "");
static_assert(sizeof(CUmemAccessDesc) == sizeof(cudaMemAccessDesc), "");
inline cudaMemLocation location(CUmemLocation l) {
  cudaMemLocation __cuemu_r;
  __cuemu_r.type = static_cast<cudaMemLocationType>(l.type);
  __cuemu_r.id = l.id;
  return __cuemu_r;
}
inline void *ptr(CUdeviceptr p) { return reinterpret_cast<void *>(p); }
} // namespace drv
} // namespace cuemu

/* ---- Stream-ordered allocation ---------------------------------------------------- */

CUEMU_AT_CALLER inline CUresult
cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemAllocAsync);
  CUEMU_DRV_FORWARD(cudaMallocAsync(reinterpret_cast<void **>(dptr), bytesize,
                                    hStream));
}

CUEMU_AT_CALLER inline CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr,
                                                        size_t bytesize,
                                                        CUmemoryPool pool,
                                                        CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemAllocFromPoolAsync);
  CUEMU_DRV_FORWARD(cudaMallocFromPoolAsync(reinterpret_cast<void **>(dptr),
                                            bytesize, pool, hStream));
}

CUEMU_AT_CALLER inline CUresult cuMemFreeAsync(CUdeviceptr dptr,
                                               CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemFreeAsync);
  CUEMU_DRV_FORWARD(cudaFreeAsync(cuemu::drv::ptr(dptr), hStream));
}

/* ---- Pools ---------------------------------------------------------------------- */

inline CUresult cuMemPoolCreate(CUmemoryPool *pool,
                                const CUmemPoolProps *poolProps) {
  CUEMU_DRV_SYMBOL(cuMemPoolCreate);
  CUEMU_DRV_FORWARD(cudaMemPoolCreate(
      pool, reinterpret_cast<const cudaMemPoolProps *>(poolProps)));
}

inline CUresult cuMemPoolDestroy(CUmemoryPool pool) {
  CUEMU_DRV_SYMBOL(cuMemPoolDestroy);
  CUEMU_DRV_FORWARD(cudaMemPoolDestroy(pool));
}

inline CUresult cuMemPoolSetAttribute(CUmemoryPool pool,
                                      CUmemPool_attribute attr, void *value) {
  CUEMU_DRV_SYMBOL(cuMemPoolSetAttribute);
  CUEMU_DRV_FORWARD(
      cudaMemPoolSetAttribute(pool, static_cast<cudaMemPoolAttr>(attr), value));
}

inline CUresult cuMemPoolGetAttribute(CUmemoryPool pool,
                                      CUmemPool_attribute attr, void *value) {
  CUEMU_DRV_SYMBOL(cuMemPoolGetAttribute);
  CUEMU_DRV_FORWARD(
      cudaMemPoolGetAttribute(pool, static_cast<cudaMemPoolAttr>(attr), value));
}

inline CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep) {
  CUEMU_DRV_SYMBOL(cuMemPoolTrimTo);
  CUEMU_DRV_FORWARD(cudaMemPoolTrimTo(pool, minBytesToKeep));
}

inline CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map,
                                   size_t count) {
  CUEMU_DRV_SYMBOL(cuMemPoolSetAccess);
  CUEMU_DRV_FORWARD(cudaMemPoolSetAccess(
      pool, reinterpret_cast<const cudaMemAccessDesc *>(map), count));
}

inline CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags,
                                   CUmemoryPool memPool,
                                   CUmemLocation *location) {
  CUEMU_DRV_SYMBOL(cuMemPoolGetAccess);
  CUEMU_DRV_FORWARD(cudaMemPoolGetAccess(
      reinterpret_cast<cudaMemAccessFlags *>(flags), memPool,
      reinterpret_cast<cudaMemLocation *>(location)));
}

inline CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out,
                                          CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetDefaultMemPool);
  CUEMU_DRV_FORWARD(cudaDeviceGetDefaultMemPool(pool_out, dev));
}

inline CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetMemPool);
  CUEMU_DRV_FORWARD(cudaDeviceGetMemPool(pool, dev));
}

inline CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) {
  CUEMU_DRV_SYMBOL(cuDeviceSetMemPool);
  CUEMU_DRV_FORWARD(cudaDeviceSetMemPool(dev, pool));
}

/* CUDA 13's pools by location and allocation type (pinned or managed
 * memory of a device, the host, or no location: docs/pools.md). */
inline CUresult cuMemGetDefaultMemPool(CUmemoryPool *pool_out,
                                       CUmemLocation *location,
                                       CUmemAllocationType type) {
  CUEMU_DRV_SYMBOL(cuMemGetDefaultMemPool);
  CUEMU_DRV_FORWARD(cudaMemGetDefaultMemPool(
      pool_out, reinterpret_cast<cudaMemLocation *>(location),
      static_cast<cudaMemAllocationType>(type)));
}

inline CUresult cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location,
                                CUmemAllocationType type) {
  CUEMU_DRV_SYMBOL(cuMemGetMemPool);
  CUEMU_DRV_FORWARD(cudaMemGetMemPool(
      pool, reinterpret_cast<cudaMemLocation *>(location),
      static_cast<cudaMemAllocationType>(type)));
}

inline CUresult cuMemSetMemPool(CUmemLocation *location,
                                CUmemAllocationType type, CUmemoryPool pool) {
  CUEMU_DRV_SYMBOL(cuMemSetMemPool);
  CUEMU_DRV_FORWARD(cudaMemSetMemPool(
      reinterpret_cast<cudaMemLocation *>(location),
      static_cast<cudaMemAllocationType>(type), pool));
}

/* ---- Unified-memory hints ------------------------------------------------------- */

inline CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count,
                                   CUmemLocation location, unsigned int flags,
                                   CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemPrefetchAsync);
  CUEMU_DRV_FORWARD(cudaMemPrefetchAsync(cuemu::drv::ptr(devPtr), count,
                                         cuemu::drv::location(location), flags,
                                         hStream));
}

inline CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count,
                            CUmem_advise advice, CUmemLocation location) {
  CUEMU_DRV_SYMBOL(cuMemAdvise);
  CUEMU_DRV_FORWARD(cudaMemAdvise(cuemu::drv::ptr(devPtr), count,
                                  static_cast<cudaMemoryAdvise>(advice),
                                  cuemu::drv::location(location)));
}

inline CUresult cuMemRangeGetAttribute(void *data, size_t dataSize,
                                       CUmem_range_attribute attribute,
                                       CUdeviceptr devPtr, size_t count) {
  CUEMU_DRV_SYMBOL(cuMemRangeGetAttribute);
  CUEMU_DRV_FORWARD(cudaMemRangeGetAttribute(
      data, dataSize, static_cast<cudaMemRangeAttribute>(attribute),
      cuemu::drv::ptr(devPtr), count));
}

inline CUresult cuMemRangeGetAttributes(void **data, size_t *dataSizes,
                                        CUmem_range_attribute *attributes,
                                        size_t numAttributes,
                                        CUdeviceptr devPtr, size_t count) {
  CUEMU_DRV_SYMBOL(cuMemRangeGetAttributes);
  CUEMU_DRV_FORWARD(cudaMemRangeGetAttributes(
      data, dataSizes, reinterpret_cast<cudaMemRangeAttribute *>(attributes),
      numAttributes, cuemu::drv::ptr(devPtr), count));
}

inline CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr,
                                       size_t length, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuStreamAttachMemAsync);
  CUEMU_DRV_FORWARD(
      cudaStreamAttachMemAsync(hStream, cuemu::drv::ptr(dptr), length, flags));
}

/* ---- Sharing pools between processes ------------------------------------------- */

inline CUresult cuMemPoolExportToShareableHandle(
    void *handle_out, CUmemoryPool pool, CUmemAllocationHandleType handleType,
    unsigned long long flags) {
  CUEMU_DRV_SYMBOL(cuMemPoolExportToShareableHandle);
  CUEMU_DRV_FORWARD(cuemu_rt_mem_pool_export_to_shareable_handle(
      handle_out, pool, handleType, flags));
}

inline CUresult cuMemPoolImportFromShareableHandle(
    CUmemoryPool *pool_out, void *handle, CUmemAllocationHandleType handleType,
    unsigned long long flags) {
  CUEMU_DRV_SYMBOL(cuMemPoolImportFromShareableHandle);
  CUEMU_DRV_FORWARD(cuemu_rt_mem_pool_import_from_shareable_handle(
      pool_out, handle, handleType, flags));
}

inline CUresult cuMemPoolExportPointer(CUmemPoolPtrExportData *shareData_out,
                                       CUdeviceptr ptr) {
  CUEMU_DRV_SYMBOL(cuMemPoolExportPointer);
  CUEMU_DRV_FORWARD(
      cuemu_rt_mem_pool_export_pointer(shareData_out, cuemu::drv::ptr(ptr)));
}

inline CUresult cuMemPoolImportPointer(CUdeviceptr *ptr_out, CUmemoryPool pool,
                                       CUmemPoolPtrExportData *shareData) {
  CUEMU_DRV_SYMBOL(cuMemPoolImportPointer);
  CUEMU_DRV_FORWARD(cuemu_rt_mem_pool_import_pointer(
      reinterpret_cast<void **>(ptr_out), pool, shareData));
}

#endif /* CUEMU_DRIVER_POOL_API_H */
