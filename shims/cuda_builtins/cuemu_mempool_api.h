/*
 * cuemu_mempool_api.h: stream-ordered allocation (cudaMallocAsync,
 * cudaMallocFromPoolAsync, cudaFreeAsync) and memory pools of the CUDA 13
 * runtime API, with CUDA's C++ overloads. Each call forwards to libcuemu
 * (cuemu/cuemu_runtime_host.h: operations run when issued, so memory is
 * allocated and freed at once; a use after cudaFreeAsync is caught as one
 * after cudaFree). Included by cuemu_host_api.h.
 */
#ifndef CUEMU_MEMPOOL_API_H
#define CUEMU_MEMPOOL_API_H

#include <cstddef>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_host.h>

#include "driver_types.h"

CUEMU_AT_CALLER inline cudaError_t cudaMallocAsync(void **devPtr, size_t size,
                                                   cudaStream_t hStream) {
  return static_cast<cudaError_t>(
      cuemu_rt_malloc_async(devPtr, size, nullptr, hStream));
}

CUEMU_AT_CALLER inline cudaError_t
cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                        cudaStream_t stream) {
  if (!memPool)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  return static_cast<cudaError_t>(
      cuemu_rt_malloc_async(ptr, size, memPool, stream));
}

CUEMU_AT_CALLER inline cudaError_t cudaMallocAsync(void **ptr, size_t size,
                                                   cudaMemPool_t memPool,
                                                   cudaStream_t stream) {
  return cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}

template <class T>
CUEMU_AT_CALLER inline cudaError_t cudaMallocAsync(T **ptr, size_t size,
                                                   cudaMemPool_t memPool,
                                                   cudaStream_t stream) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void **>(ptr), size,
                                 memPool, stream);
}

template <class T>
CUEMU_AT_CALLER inline cudaError_t cudaMallocAsync(T **ptr, size_t size,
                                                   cudaStream_t stream) {
  return cudaMallocAsync(reinterpret_cast<void **>(ptr), size, stream);
}

template <class T>
CUEMU_AT_CALLER inline cudaError_t
cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool,
                        cudaStream_t stream) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void **>(ptr), size,
                                 memPool, stream);
}

CUEMU_AT_CALLER inline cudaError_t cudaFreeAsync(void *devPtr,
                                                 cudaStream_t hStream) {
  return static_cast<cudaError_t>(cuemu_rt_free_async(devPtr, hStream));
}

inline cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
                                     const struct cudaMemPoolProps *poolProps) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_pool_create(memPool, poolProps));
}

inline cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  return static_cast<cudaError_t>(cuemu_rt_mem_pool_destroy(memPool));
}

inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool,
                                           enum cudaMemPoolAttr attr,
                                           void *value) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_pool_set_attribute(memPool, attr, value));
}

inline cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool,
                                           enum cudaMemPoolAttr attr,
                                           void *value) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_pool_get_attribute(memPool, attr, value));
}

inline cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool,
                                     size_t minBytesToKeep) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_pool_trim_to(memPool, minBytesToKeep));
}

inline cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool,
                                        const struct cudaMemAccessDesc *descList,
                                        size_t count) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_pool_set_access(memPool, descList, count));
}

inline cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags,
                                        cudaMemPool_t memPool,
                                        struct cudaMemLocation *location) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_pool_get_access(flags, memPool, location));
}

inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool,
                                               int device) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_get_default_mem_pool(memPool, device));
}

inline cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_set_mem_pool(device, memPool));
}

inline cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_get_mem_pool(memPool, device));
}

inline cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool,
                                            struct cudaMemLocation *location,
                                            enum cudaMemAllocationType type) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_get_default_pool(memPool, location, type));
}

inline cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool,
                                     struct cudaMemLocation *location,
                                     enum cudaMemAllocationType type) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_get_pool(memPool, location, type));
}

inline cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location,
                                     enum cudaMemAllocationType type,
                                     cudaMemPool_t memPool) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_set_pool(location, type, memPool));
}

/* Pools shared between processes. */
#include "cuemu_pool_ipc_api.h"

#endif /* CUEMU_MEMPOOL_API_H */
