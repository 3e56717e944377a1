/*
 * cuemu_pool_ipc.h: memory pools shared between processes
 * (cudaMemPoolExportToShareableHandle, cudaMemPoolImportFromShareableHandle,
 * cudaMemPoolExportPointer, cudaMemPoolImportPointer, and the driver's
 * cuMemPool* forms through them). A pool made with handleTypes
 * cudaMemHandleTypePosixFileDescriptor keeps its memory in one anonymous
 * file (memfd); its shareable handle is a descriptor of that file (a dup,
 * the caller's to close), which another process receives (over a Unix
 * socket, or inherited across fork) and imports; an allocation's export
 * data names its place in the file, and importing it maps those bytes as
 * device memory of the importer's current device, so that both processes
 * see one memory. The other handle types cannot work on Linux:
 * cudaErrorNotSupported. Runtime codes. Host code, any thread.
 */
#ifndef CUEMU_POOL_IPC_H
#define CUEMU_POOL_IPC_H

#include <cuemu/cuemu_rt_host_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* handle: an int that receives the descriptor. flags must be 0. A pool
 * made without the descriptor handle type is cudaErrorInvalidValue. */
int cuemu_rt_mem_pool_export_to_shareable_handle(void *handle,
                                                 cudaMemPool_t pool,
                                                 int handle_type,
                                                 unsigned long long flags);
/* handle: the descriptor, as a pointer-sized integer (CUDA's form). The
 * descriptor is duplicated (the caller keeps its own). The imported pool
 * makes no allocations (cudaMallocFromPoolAsync and cudaDeviceSetMemPool:
 * cudaErrorInvalidValue); cudaMemPoolDestroy ends it. */
int cuemu_rt_mem_pool_import_from_shareable_handle(cudaMemPool_t *pool,
                                                   void *handle,
                                                   int handle_type,
                                                   unsigned long long flags);
/* data: 64 bytes (cudaMemPoolPtrExportData). ptr: the start of a live
 * allocation of a shareable pool. */
int cuemu_rt_mem_pool_export_pointer(void *data, void *ptr);
/* The allocation that `data` describes, of the pool that `pool` imported
 * (data of another pool: cudaErrorInvalidValue); freed with cudaFree or
 * cudaFreeAsync, which unmap it. */
int cuemu_rt_mem_pool_import_pointer(void **ptr, cudaMemPool_t pool,
                                     const void *data);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_POOL_IPC_H */
