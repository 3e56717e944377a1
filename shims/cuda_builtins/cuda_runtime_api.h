/*
 * cuda_runtime_api.h: the CUDA runtime API of whole programs: errors,
 * device management and memory. Each call forwards to libcuemu's
 * cuemu_rt_* function (<cuemu/cuemu_runtime.h>, which documents what they
 * do); the state (last errors, the sticky error, the table of allocations)
 * lives there. The C++ overloads and default arguments are CUDA's.
 *
 * Memory is host memory: a kernel can reach every pointer. Launches run to
 * completion before they return, so a kernel's execution error is known at
 * once; as on a GPU it is "sticky": every call that works with the device
 * returns it from then on, until cudaDeviceReset().
 */
#ifndef CUEMU_CUDA_RUNTIME_API_H
#define CUEMU_CUDA_RUNTIME_API_H
/* CUDA's own include guard: code tests it to know the header is in (the
   samples' helpers test it to pick their error checks). */
#define __CUDA_RUNTIME_API_H__

/* In a C file: the C view, NVIDIA's prototypes of libcuemu_cudart.so's
 * symbols over the same types (C and C++ headers), no inline function,
 * overload or default argument. */
#ifndef __cplusplus
#include <stddef.h>

#include "driver_types.h"
#include "driver_functions.h"
#include "library_types.h"
#include "surface_types.h"
#include "texture_types.h"
#include "vector_types.h"
#include "cuemu_stream_types.h"
#include "cuemu_launch_types.h"
#include "cuemu_library_types.h"
#include "cuemu_ids_types.h"
#include "cuemu_peer_types.h"
#include "cuemu_array_query_types.h"
#include <cuemu/cuemu_rt_memcpy_batch.h>
#include "cuemu_graph_types.h"
#include "cuemu_external_types.h"
#include "cuemu_graphics_types.h"
#include "cuda_profiler_api.h"

#define CUDART_VERSION 13000

#include "cuemu_runtime_c_decls.h"
#else
/* C++ linkage, also where a header includes this one inside extern "C"
 * (cuDNN's cudnn.h does, as NVIDIA's runtime API is C): its overloads and
 * templates need it. */
extern "C++" {

#include <cstddef>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_status.h>

#include "driver_types.h"
#include "cuda_profiler_api.h"

#define CUDART_VERSION 13000

/* The calling convention CUDA's headers name in declarations (CCCL uses
 * it); empty, as on Linux. */
#ifndef CUDARTAPI
#define CUDARTAPI
#endif

/* Records the outcome of a launch (a cuemu status): configuration errors
 * are returned by cudaGetLastError(); execution errors become sticky. */
inline void cuemu_rt_record_launch(int status) {
  cuemu_rt_record_launch_status(status);
}

/* The CUDA error a cuemu status becomes. */
inline cudaError_t cuemu_rt_error_of(int status) {
  return static_cast<cudaError_t>(
      cuemu_status_cuda_error(static_cast<cuemu_status>(status)));
}

/* Records e as this thread's last error and returns it. */
inline cudaError_t cuemu_rt_fail(cudaError_t e) {
  return static_cast<cudaError_t>(cuemu_rt_error(e));
}

/* Errors. */

inline cudaError_t cudaGetLastError(void) {
  return static_cast<cudaError_t>(cuemu_rt_get_last_error());
}

inline cudaError_t cudaPeekAtLastError(void) {
  return static_cast<cudaError_t>(cuemu_rt_peek_last_error());
}

inline const char *cudaGetErrorName(cudaError_t error) {
  return cuemu_rt_error_name(error);
}

inline const char *cudaGetErrorString(cudaError_t error) {
  return cuemu_rt_error_string(error);
}

/* The driver's error log (CUDA 12.9): the messages of the errors cuemu
 * reports (cuemu_rt_logs_* in <cuemu/cuemu_runtime.h>). */
inline cudaError_t cudaLogsRegisterCallback(cudaLogsCallback_t __cuemu_callbackFunc,
                                            void *__cuemu_userData,
                                            cudaLogsCallbackHandle *__cuemu_callback_out) {
  void *__cuemu_handle = nullptr;
  /* cudaLogLevel is passed as the int it is. */
  int e = cuemu_rt_logs_register_callback(
      reinterpret_cast<cuemu_rt_logs_callback>(__cuemu_callbackFunc), __cuemu_userData,
      &__cuemu_handle);
  if (!e && __cuemu_callback_out)
    *__cuemu_callback_out = static_cast<cudaLogsCallbackHandle>(__cuemu_handle);
  return cuemu_rt_fail(static_cast<cudaError_t>(e));
}

inline cudaError_t cudaLogsUnregisterCallback(cudaLogsCallbackHandle __cuemu_callback) {
  return cuemu_rt_fail(
      static_cast<cudaError_t>(cuemu_rt_logs_unregister_callback(__cuemu_callback)));
}

inline cudaError_t cudaLogsCurrent(cudaLogIterator *__cuemu_iterator_out,
                                   unsigned int __cuemu_flags) {
  return cuemu_rt_fail(
      static_cast<cudaError_t>(cuemu_rt_logs_current(__cuemu_iterator_out, __cuemu_flags)));
}

inline cudaError_t cudaLogsDumpToFile(cudaLogIterator *__cuemu_iterator,
                                      const char *__cuemu_pathToFile,
                                      unsigned int __cuemu_flags) {
  return cuemu_rt_fail(static_cast<cudaError_t>(
      cuemu_rt_logs_dump_to_file(__cuemu_iterator, __cuemu_pathToFile, __cuemu_flags)));
}

inline cudaError_t cudaLogsDumpToMemory(cudaLogIterator *__cuemu_iterator,
                                        char *__cuemu_buffer, size_t *__cuemu_size,
                                        unsigned int __cuemu_flags) {
  return cuemu_rt_fail(static_cast<cudaError_t>(
      cuemu_rt_logs_dump_to_memory(__cuemu_iterator, __cuemu_buffer, __cuemu_size, __cuemu_flags)));
}

/* Device management. */

inline cudaError_t cudaGetDeviceCount(int *count) {
  return static_cast<cudaError_t>(cuemu_rt_get_device_count(count));
}

inline cudaError_t cudaSetDevice(int device) {
  return static_cast<cudaError_t>(cuemu_rt_set_device(device));
}

inline cudaError_t cudaGetDevice(int *device) {
  return static_cast<cudaError_t>(cuemu_rt_get_device(device));
}

inline cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  return static_cast<cudaError_t>(cuemu_rt_set_device_flags(flags));
}

inline cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  return static_cast<cudaError_t>(cuemu_rt_get_device_flags(flags));
}

inline cudaError_t cudaDeviceReset(void) {
  return static_cast<cudaError_t>(cuemu_rt_device_reset());
}

inline cudaError_t cudaDeviceSynchronize(void) {
  return static_cast<cudaError_t>(cuemu_rt_device_synchronize());
}

inline cudaError_t
cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTarget target,
                                   cudaFlushGPUDirectRDMAWritesScope scope) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_flush_rdma_writes(target, scope));
}

/* The devices that a thread which has chosen none uses, in order: the
 * first, as every emulated device works. */
inline cudaError_t cudaSetValidDevices(int *__cuemu_device_arr, int __cuemu_len) {
  return static_cast<cudaError_t>(
      cuemu_rt_set_valid_devices(__cuemu_device_arr, __cuemu_len));
}

/* Async notifications: a device whose memory is the host's never goes over
 * a budget, so a callback is kept and never called. */
inline cudaError_t
cudaDeviceRegisterAsyncNotification(int device, cudaAsyncCallback callbackFunc,
                                    void *userData,
                                    cudaAsyncCallbackHandle_t *callback) {
  void *handle = nullptr;
  int e = cuemu_rt_device_register_async_notification(
      device, reinterpret_cast<void *>(callbackFunc), userData,
      callback ? &handle : nullptr);
  if (!e)
    *callback = static_cast<cudaAsyncCallbackHandle_t>(handle);
  return cuemu_rt_fail(static_cast<cudaError_t>(e));
}

inline cudaError_t
cudaDeviceUnregisterAsyncNotification(int device,
                                      cudaAsyncCallbackHandle_t callback) {
  return cuemu_rt_fail(static_cast<cudaError_t>(
      cuemu_rt_device_unregister_async_notification(device, callback)));
}

inline cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  return static_cast<cudaError_t>(cuemu_rt_device_set_limit(limit, value));
}

inline cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit) {
  return static_cast<cudaError_t>(cuemu_rt_device_get_limit(value, limit));
}

/* CUDA 13 removed their old names, cudaThreadSetLimit and
 * cudaThreadGetLimit, with the other cudaThread* calls: they are not
 * declared, so a call is refused as nvcc refuses it, with the note of
 * emulator/compile/cuemu_diag_removed.c. */

inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  return static_cast<cudaError_t>(cuemu_rt_get_device_properties(prop, device));
}

inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr,
                                          int device) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_get_attribute(value, attr, device));
}

inline cudaError_t cudaDriverGetVersion(int *driverVersion) {
  return static_cast<cudaError_t>(cuemu_rt_driver_get_version(driverVersion));
}

inline cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
  return static_cast<cudaError_t>(
      cuemu_rt_runtime_get_version(runtimeVersion));
}

inline cudaError_t cudaMemGetInfo(size_t *free, size_t *total) {
  return static_cast<cudaError_t>(cuemu_rt_mem_get_info(free, total));
}

/* Memory. */

CUEMU_AT_CALLER inline cudaError_t cudaMalloc(void **devPtr, size_t size) {
  return static_cast<cudaError_t>(cuemu_rt_malloc(devPtr, size));
}

template <class T>
CUEMU_AT_CALLER inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return cudaMalloc(reinterpret_cast<void **>(devPtr), size);
}

CUEMU_AT_CALLER inline cudaError_t
cudaMallocManaged(void **devPtr, size_t size,
                  unsigned int flags = cudaMemAttachGlobal) {
  return static_cast<cudaError_t>(
      cuemu_rt_malloc_managed(devPtr, size, flags));
}

template <class T>
CUEMU_AT_CALLER inline cudaError_t
cudaMallocManaged(T **devPtr, size_t size,
                  unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void **>(devPtr), size, flags);
}

CUEMU_AT_CALLER inline cudaError_t
cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
  return static_cast<cudaError_t>(
      cuemu_rt_malloc_pitch(devPtr, pitch, width, height));
}

template <class T>
CUEMU_AT_CALLER inline cudaError_t
cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
  return cudaMallocPitch(reinterpret_cast<void **>(devPtr), pitch, width,
                         height);
}

CUEMU_AT_CALLER inline cudaError_t cudaFree(void *devPtr) {
  return static_cast<cudaError_t>(cuemu_rt_free(devPtr));
}

CUEMU_AT_CALLER inline cudaError_t cudaMallocHost(void **ptr, size_t size) {
  return static_cast<cudaError_t>(
      cuemu_rt_host_alloc(ptr, size, cudaHostAllocDefault));
}

CUEMU_AT_CALLER inline cudaError_t cudaMallocHost(void **ptr, size_t size,
                                                  unsigned int flags) {
  return static_cast<cudaError_t>(cuemu_rt_host_alloc(ptr, size, flags));
}

template <class T>
CUEMU_AT_CALLER inline cudaError_t cudaMallocHost(T **ptr, size_t size,
                                                  unsigned int flags = 0) {
  return cudaMallocHost(reinterpret_cast<void **>(ptr), size, flags);
}

CUEMU_AT_CALLER inline cudaError_t cudaHostAlloc(void **pHost, size_t size,
                                                 unsigned int flags) {
  return static_cast<cudaError_t>(cuemu_rt_host_alloc(pHost, size, flags));
}

template <class T>
CUEMU_AT_CALLER inline cudaError_t cudaHostAlloc(T **ptr, size_t size,
                                                 unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void **>(ptr), size, flags);
}

CUEMU_AT_CALLER inline cudaError_t cudaFreeHost(void *ptr) {
  return static_cast<cudaError_t>(cuemu_rt_free_host(ptr));
}

inline cudaError_t cudaHostRegister(void *ptr, size_t size,
                                    unsigned int flags) {
  return static_cast<cudaError_t>(cuemu_rt_host_register(ptr, size, flags));
}

inline cudaError_t cudaHostUnregister(void *ptr) {
  return static_cast<cudaError_t>(cuemu_rt_host_unregister(ptr));
}

inline cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost,
                                            unsigned int flags) {
  return static_cast<cudaError_t>(
      cuemu_rt_host_get_device_pointer(pDevice, pHost, flags));
}

template <class T>
inline cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost,
                                            unsigned int flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void **>(pDevice), pHost,
                                  flags);
}

inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                              cudaMemcpyKind kind) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy(dst, src, count, kind));
}

/* The copy runs in the stream's order, after the call returns (one that
 * touches pageable host memory is done when it returns: docs/streams.md);
 * into a capturing stream, it is recorded (cuemu_runtime_graph.h). */
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                   cudaMemcpyKind kind,
                                   cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(
      cuemu_rt_memcpy_async(dst, src, count, kind, stream));
}

inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                                size_t spitch, size_t width, size_t height,
                                cudaMemcpyKind kind) {
  return static_cast<cudaError_t>(
      cuemu_rt_memcpy_2d(dst, dpitch, src, spitch, width, height, kind));
}

inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                     size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind,
                                     cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_2d_async(
      dst, dpitch, src, spitch, width, height, kind, stream));
}

inline cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
  return static_cast<cudaError_t>(cuemu_rt_memset(devPtr, value, count));
}

inline cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                   cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(
      cuemu_rt_memset_async(devPtr, value, count, stream));
}

inline cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value,
                                size_t width, size_t height) {
  return static_cast<cudaError_t>(
      cuemu_rt_memset_2d(devPtr, pitch, value, width, height));
}

inline cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
                                     size_t width, size_t height,
                                     cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(
      cuemu_rt_memset_2d_async(devPtr, pitch, value, width, height, stream));
}

inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *attributes,
                                            const void *ptr) {
  return static_cast<cudaError_t>(
      cuemu_rt_pointer_get_attributes(attributes, ptr));
}

/* Arrays, textures and surfaces. */
#include "cuemu_texture_api.h"
#include "cuemu_array_queries_api.h"
#include "cuemu_address_space.h"

/* Streams, events, launches, functions, occupancy and symbols join here. */
#if __has_include("cuemu_streams_api.h")
#include "cuemu_streams_api.h"
#include "cuemu_default_stream.h"
#include "cuemu_cccl.h"
#endif
/* Stream-ordered memory, unified-memory hints, cudaLaunchKernelEx and the
 * configuration calls. */
#include "cuemu_host_api.h"
/* Launches from kernel code, the device heap, clusters. */
#include "cuemu_device_runtime.h"
/* CUDA Graphs and stream capture. */
#include "cuemu_graph_api.h"
#include "cuemu_graph_cxx_api.h"
#include "cuemu_external_api.h"
#include "cuemu_library_api.h"
/* Several devices: peer access, peer copies, IPC. */
#include "cuemu_peer_api.h"
#include "cuemu_p2p_attribute_api.h"
#include "cuemu_device_choice_api.h"
#include "cuemu_func_info_api.h"
#include "cuemu_memcpy_batch_api.h"
#include "cuemu_pci_api.h"
#include "cuemu_graphics_api.h"
#include "cuemu_device_extras_api.h"

} /* extern "C++" */
#endif /* __cplusplus */
#endif /* CUEMU_CUDA_RUNTIME_API_H */
