/*
 * cuemu_pool_ipc_api.h: memory pools shared between processes
 * (cudaMemPoolExportToShareableHandle, cudaMemPoolImportFromShareableHandle,
 * cudaMemPoolExportPointer, cudaMemPoolImportPointer): a pool made with
 * handleTypes cudaMemHandleTypePosixFileDescriptor is shared through a file
 * descriptor (cuemu/cuemu_pool_ipc.h says how). Included at the end of
 * cuemu_mempool_api.h.
 */
#ifndef CUEMU_POOL_IPC_API_H
#define CUEMU_POOL_IPC_API_H

#include "cuemu_mempool_api.h"

#include <cuemu/cuemu_pool_ipc.h>

#include "cuemu_peer_types.h"

inline cudaError_t
cudaMemPoolExportToShareableHandle(void *shareableHandle, cudaMemPool_t memPool,
                                   enum cudaMemAllocationHandleType handleType,
                                   unsigned int flags) {
  return static_cast<cudaError_t>(cuemu_rt_mem_pool_export_to_shareable_handle(
      shareableHandle, memPool, handleType, flags));
}

inline cudaError_t cudaMemPoolImportFromShareableHandle(
    cudaMemPool_t *memPool, void *shareableHandle,
    enum cudaMemAllocationHandleType handleType, unsigned int flags) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_pool_import_from_shareable_handle(memPool, shareableHandle,
                                                     handleType, flags));
}

inline cudaError_t
cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData,
                         void *ptr) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_pool_export_pointer(exportData, ptr));
}

inline cudaError_t
cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool,
                         struct cudaMemPoolPtrExportData *exportData) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_pool_import_pointer(ptr, memPool, exportData));
}

#endif /* CUEMU_POOL_IPC_API_H */
