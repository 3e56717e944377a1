/*
 * cuda.h: CUDA's driver API. Each call forwards to libcuemu's cuemu_drv_*
 * function (<cuemu/cuemu_driver_api.h>, which documents what they do), or
 * to the runtime's cuemu_rt_* function where the runtime has the same call;
 * the driver and the runtime share the devices, the memory, the streams,
 * the events and the sticky errors. Each function refers to its symbol of
 * the driver library (CUEMU_DRV_SYMBOL), so that a program that calls the
 * driver API links with -lcuda, as with CUDA. The types are CUDA 13's (cuCtxCreate is cuCtxCreate_v4,
 * CUdeviceptr is 64 bits); docs/driver-api.md lists the calls that exist.
 *
 * Modules are cuemu modules: what cuemu-nvcc -ptx, -cubin and -fatbin
 * write, and what NVRTC (nvrtc.h) gives.
 *
 * Kernels sometimes include this header only for its types; it brings the
 * runtime API too, as it always has here.
 */
/* In a C file: the C view, the driver's types and NVIDIA's prototypes of
 * the symbols of cuemu's libcuda.so.1 (cuemu_driver_c_decls.h, generated
 * by scripts/driver_c_view.py), no inline function. */
#ifndef __cplusplus
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__
#define CUDA_VERSION 13000
#include "cuemu_driver_c_decls.h"
#endif
#else
/* Whether a part of the driver API was read first (the entry-point table
 * is then not made: cuemu_driver_ids_api.h). */
#ifndef CUEMU_CUDA_H
#include "cuemu_driver_entry_guards.h"
#endif
/* As CUDA's: cuMemAlloc is cuMemAlloc_v2, and so on (before any function). */
#include "cuemu_driver_names.h"

#ifndef CUEMU_CUDA_H
#define CUEMU_CUDA_H
/* CUDA's own include guard: code tests it to know the header is in (the
   samples' helpers define checkCudaErrors for the driver API under it). */
#define __cuda_cuda_h__

#include "cuda_runtime.h"

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_driver_graph.h>

#include <cstdint>
#include <cstring>
#include <time.h>

#include "cuemu_driver_types.h"

#define CUDA_VERSION 13000
#include "cuemu_driver_core_types.h"

/* The start of a call built on a runtime function: cuInit and a current
 * context, then the runtime's answer as a driver code (the runtime's last
 * error is left as it was). */
#define CUEMU_DRV_FORWARD(call)                                                \
  do {                                                                         \
    int cuemu_check_ = cuemu_drv_check_context();                              \
    if (cuemu_check_)                                                          \
      return static_cast<CUresult>(cuemu_check_);                              \
    int cuemu_saved_ = cuemu_drv_enter();                                      \
    return static_cast<CUresult>(cuemu_drv_result((call), cuemu_saved_));      \
  } while (0)

/* The driver library's symbol of a function of this header (the newest
 * ABI version's name, cuemu_driver_names.h): the function's code refers to
 * it, so that a program that calls the function links only with the driver
 * library named (-lcuda; CUDA::cuda_driver; the toolkit's
 * lib64/stubs/libcuda.so), whose libcuda.so.1 exports it, as a program of
 * CUDA's cuda.h, whose calls are that symbol: without the library, the
 * link fails with "undefined reference to `cuInit'". The reference is the
 * symbol's address in a section of its own, which the link keeps (R: not
 * collected by --gc-sections) and the program never reads; the call
 * itself stays the inline function's. (A relocation of type NONE in the
 * code would name the calling function in the linker's message, but ld
 * refuses one against a shared library's symbol.) Taking the function's
 * address makes the function's code, and so refers to the symbol too, as
 * in CUDA. */
#define CUEMU_DRV_SYMBOL(name) CUEMU_DRV_SYMBOL_(name)
#define CUEMU_DRV_SYMBOL_(symbol)                                              \
  __asm__ volatile(".pushsection .data.rel.ro.cuemu_driver_symbols,"           \
                   "\"awR\",@progbits\n.balign 8\n.quad " #symbol        \
                   "\n.popsection")

/* Initialisation, versions, errors. */

inline CUresult cuInit(unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuInit);
  return static_cast<CUresult>(cuemu_drv_init(Flags));
}

inline CUresult cuDriverGetVersion(int *driverVersion) {
  CUEMU_DRV_SYMBOL(cuDriverGetVersion);
  return static_cast<CUresult>(cuemu_drv_driver_get_version(driverVersion));
}

inline CUresult cuGetErrorName(CUresult error, const char **pStr) {
  CUEMU_DRV_SYMBOL(cuGetErrorName);
  return static_cast<CUresult>(cuemu_drv_get_error_name(error, pStr));
}

inline CUresult cuGetErrorString(CUresult error, const char **pStr) {
  CUEMU_DRV_SYMBOL(cuGetErrorString);
  return static_cast<CUresult>(cuemu_drv_get_error_string(error, pStr));
}

/* Devices. */

inline CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  CUEMU_DRV_SYMBOL(cuDeviceGet);
  return static_cast<CUresult>(cuemu_drv_device_get(device, ordinal));
}

inline CUresult cuDeviceGetCount(int *count) {
  CUEMU_DRV_SYMBOL(cuDeviceGetCount);
  return static_cast<CUresult>(cuemu_drv_device_get_count(count));
}

/* The runtime's (cuemu_pci_api.h), after cuInit. */
inline CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetPCIBusId);
  int count = 0;
  int e = cuemu_drv_device_get_count(&count);
  if (e)
    return static_cast<CUresult>(e);
  if (dev < 0 || dev >= count)
    return CUDA_ERROR_INVALID_DEVICE;
  int saved = cuemu_drv_enter();
  return static_cast<CUresult>(
      cuemu_drv_result(cudaDeviceGetPCIBusId(pciBusId, len, dev), saved));
}

inline CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId) {
  CUEMU_DRV_SYMBOL(cuDeviceGetByPCIBusId);
  int count = 0;
  int e = cuemu_drv_device_get_count(&count);
  if (e)
    return static_cast<CUresult>(e);
  int saved = cuemu_drv_enter();
  return static_cast<CUresult>(
      cuemu_drv_result(cudaDeviceGetByPCIBusId(dev, pciBusId), saved));
}

inline CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetName);
  return static_cast<CUresult>(cuemu_drv_device_get_name(name, len, dev));
}

/* Async notifications: never sent (no memory budget on a device whose
 * memory is the host's); a callback is kept until unregistered. */
inline CUresult cuDeviceRegisterAsyncNotification(CUdevice device,
                                                  CUasyncCallback callbackFunc,
                                                  void *userData,
                                                  CUasyncCallbackHandle *callback) {
  CUEMU_DRV_SYMBOL(cuDeviceRegisterAsyncNotification);
  void *handle = nullptr;
  int e = cuemu_drv_device_register_async_notification(
      device, reinterpret_cast<void *>(callbackFunc), userData,
      callback ? &handle : nullptr);
  if (!e)
    *callback = static_cast<CUasyncCallbackHandle>(handle);
  return static_cast<CUresult>(e);
}

inline CUresult cuDeviceUnregisterAsyncNotification(CUdevice device,
                                                    CUasyncCallbackHandle callback) {
  CUEMU_DRV_SYMBOL(cuDeviceUnregisterAsyncNotification);
  return static_cast<CUresult>(
      cuemu_drv_device_unregister_async_notification(device, callback));
}

/* The driver's error log (CUDA 12.9), shared with the runtime's
 * cudaLogs* calls: the messages of the errors cuemu reports. */
inline CUresult cuLogsRegisterCallback(CUlogsCallback callbackFunc,
                                       void *userData,
                                       CUlogsCallbackHandle *callback_out) {
  CUEMU_DRV_SYMBOL(cuLogsRegisterCallback);
  void *handle = nullptr;
  /* CUlogLevel is passed as the int it is. */
  int e = cuemu_rt_logs_register_callback(
      reinterpret_cast<cuemu_rt_logs_callback>(callbackFunc), userData,
      &handle);
  if (!e && callback_out)
    *callback_out = static_cast<CUlogsCallbackHandle>(handle);
  return static_cast<CUresult>(e);
}

inline CUresult cuLogsUnregisterCallback(CUlogsCallbackHandle callback) {
  CUEMU_DRV_SYMBOL(cuLogsUnregisterCallback);
  return static_cast<CUresult>(cuemu_rt_logs_unregister_callback(callback));
}

inline CUresult cuLogsCurrent(CUlogIterator *iterator_out, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuLogsCurrent);
  return static_cast<CUresult>(cuemu_rt_logs_current(iterator_out, flags));
}

inline CUresult cuLogsDumpToFile(CUlogIterator *iterator, const char *pathToFile,
                                 unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuLogsDumpToFile);
  return static_cast<CUresult>(
      cuemu_rt_logs_dump_to_file(iterator, pathToFile, flags));
}

inline CUresult cuLogsDumpToMemory(CUlogIterator *iterator, char *buffer,
                                   size_t *size, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuLogsDumpToMemory);
  return static_cast<CUresult>(
      cuemu_rt_logs_dump_to_memory(iterator, buffer, size, flags));
}

inline CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib,
                                     CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetAttribute);
  return static_cast<CUresult>(
      cuemu_drv_device_get_attribute(pi, attrib, dev));
}

inline CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDeviceTotalMem);
  return static_cast<CUresult>(cuemu_drv_device_total_mem(bytes, dev));
}

inline CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetUuid);
  return static_cast<CUresult>(
      cuemu_drv_device_get_uuid(uuid ? uuid->bytes : nullptr, dev));
}

/* Deprecated in CUDA, still used by samples. */
inline CUresult cuDeviceComputeCapability(int *major, int *minor,
                                          CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDeviceComputeCapability);
  return static_cast<CUresult>(
      cuemu_drv_device_compute_capability(major, minor, dev));
}

inline CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev,
                                      CUdevice peerDev) {
  CUEMU_DRV_SYMBOL(cuDeviceCanAccessPeer);
  return static_cast<CUresult>(
      cuemu_drv_device_can_access_peer(canAccessPeer, dev, peerDev));
}

inline CUresult cuDeviceGetP2PAttribute(int *value,
                                        CUdevice_P2PAttribute attrib,
                                        CUdevice srcDevice,
                                        CUdevice dstDevice) {
  CUEMU_DRV_SYMBOL(cuDeviceGetP2PAttribute);
  return static_cast<CUresult>(cuemu_drv_device_get_p2p_attribute(
      value, static_cast<int>(attrib), srcDevice, dstDevice));
}

/* Every form of every operation is native between emulated devices
 * (cudaDeviceGetP2PAtomicCapabilities's answers). */
inline CUresult cuDeviceGetP2PAtomicCapabilities(
    unsigned int *capabilities, const CUatomicOperation *operations,
    unsigned int count, CUdevice srcDevice, CUdevice dstDevice) {
  CUEMU_DRV_SYMBOL(cuDeviceGetP2PAtomicCapabilities);
  return static_cast<CUresult>(cuemu_drv_device_get_p2p_atomic_capabilities(
      capabilities, reinterpret_cast<const int *>(operations), count,
      srcDevice, dstDevice));
}

/* The host shares the device's memory
 * (cudaDeviceGetHostAtomicCapabilities's answers). */
inline CUresult cuDeviceGetHostAtomicCapabilities(
    unsigned int *capabilities, const CUatomicOperation *operations,
    unsigned int count, CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetHostAtomicCapabilities);
  return static_cast<CUresult>(cuemu_drv_device_get_host_atomic_capabilities(
      capabilities, reinterpret_cast<const int *>(operations), count, dev));
}

/* Contexts. */

inline CUresult cuCtxCreate(CUcontext *pctx,
                            CUctxCreateParams *ctxCreateParams,
                            unsigned int flags, CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuCtxCreate);
  if (ctxCreateParams && (ctxCreateParams->execAffinityParams ||
                          ctxCreateParams->numExecAffinityParams ||
                          ctxCreateParams->cigParams))
    return CUDA_ERROR_NOT_SUPPORTED;
  return static_cast<CUresult>(cuemu_drv_ctx_create(
      reinterpret_cast<void **>(pctx), flags, dev));
}

inline CUresult cuCtxDestroy(CUcontext ctx) {
  CUEMU_DRV_SYMBOL(cuCtxDestroy);
  return static_cast<CUresult>(cuemu_drv_ctx_destroy(ctx));
}

inline CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDevicePrimaryCtxRetain);
  return static_cast<CUresult>(
      cuemu_drv_primary_ctx_retain(reinterpret_cast<void **>(pctx), dev));
}

inline CUresult cuDevicePrimaryCtxRelease(CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDevicePrimaryCtxRelease);
  return static_cast<CUresult>(cuemu_drv_primary_ctx_release(dev));
}

inline CUresult cuDevicePrimaryCtxReset(CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuDevicePrimaryCtxReset);
  return static_cast<CUresult>(cuemu_drv_primary_ctx_reset(dev));
}

inline CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags,
                                           int *active) {
  CUEMU_DRV_SYMBOL(cuDevicePrimaryCtxGetState);
  return static_cast<CUresult>(
      cuemu_drv_primary_ctx_get_state(dev, flags, active));
}

inline CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuDevicePrimaryCtxSetFlags);
  return static_cast<CUresult>(cuemu_drv_primary_ctx_set_flags(dev, flags));
}

inline CUresult cuCtxSetCurrent(CUcontext ctx) {
  CUEMU_DRV_SYMBOL(cuCtxSetCurrent);
  return static_cast<CUresult>(cuemu_drv_ctx_set_current(ctx));
}

inline CUresult cuCtxGetCurrent(CUcontext *pctx) {
  CUEMU_DRV_SYMBOL(cuCtxGetCurrent);
  return static_cast<CUresult>(
      cuemu_drv_ctx_get_current(reinterpret_cast<void **>(pctx)));
}

inline CUresult cuCtxPushCurrent(CUcontext ctx) {
  CUEMU_DRV_SYMBOL(cuCtxPushCurrent);
  return static_cast<CUresult>(cuemu_drv_ctx_push_current(ctx));
}

inline CUresult cuCtxPopCurrent(CUcontext *pctx) {
  CUEMU_DRV_SYMBOL(cuCtxPopCurrent);
  return static_cast<CUresult>(
      cuemu_drv_ctx_pop_current(reinterpret_cast<void **>(pctx)));
}

inline CUresult cuCtxGetDevice(CUdevice *device) {
  CUEMU_DRV_SYMBOL(cuCtxGetDevice);
  return static_cast<CUresult>(cuemu_drv_ctx_get_device(device));
}

inline CUresult cuCtxGetFlags(unsigned int *flags) {
  CUEMU_DRV_SYMBOL(cuCtxGetFlags);
  return static_cast<CUresult>(cuemu_drv_ctx_get_flags(flags));
}

inline CUresult cuCtxSetFlags(unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuCtxSetFlags);
  return static_cast<CUresult>(cuemu_drv_ctx_set_flags(flags));
}

/* The event captures the work of every stream of the context; the host
 * waits for that work first (docs/driver-api.md). */
inline CUresult cuCtxRecordEvent(CUcontext __cuemu_hCtx, CUevent __cuemu_hEvent) {
  CUEMU_DRV_SYMBOL(cuCtxRecordEvent);
  return static_cast<CUresult>(cuemu_drv_ctx_record_event(__cuemu_hCtx, __cuemu_hEvent));
}

/* Later work of the context waits for the event's work: the host waits for
 * it first. */
inline CUresult cuCtxWaitEvent(CUcontext __cuemu_hCtx, CUevent __cuemu_hEvent) {
  CUEMU_DRV_SYMBOL(cuCtxWaitEvent);
  return static_cast<CUresult>(cuemu_drv_ctx_wait_event(__cuemu_hCtx, __cuemu_hEvent));
}

inline CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version) {
  CUEMU_DRV_SYMBOL(cuCtxGetApiVersion);
  return static_cast<CUresult>(cuemu_drv_ctx_get_api_version(ctx, version));
}

inline CUresult cuCtxSynchronize(void) {
  CUEMU_DRV_SYMBOL(cuCtxSynchronize);
  return static_cast<CUresult>(cuemu_drv_ctx_synchronize());
}

/* Remote writes land in host memory, ordered for every scope: the flush
 * checks its arguments and does nothing. */
inline CUresult cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
                                           CUflushGPUDirectRDMAWritesScope scope) {
  CUEMU_DRV_SYMBOL(cuFlushGPUDirectRDMAWrites);
  CUEMU_DRV_FORWARD(cuemu_rt_device_flush_rdma_writes(target, scope));
}

inline CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
  CUEMU_DRV_SYMBOL(cuCtxSetLimit);
  CUEMU_DRV_FORWARD(cuemu_rt_device_set_limit(limit, value));
}

inline CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit) {
  CUEMU_DRV_SYMBOL(cuCtxGetLimit);
  CUEMU_DRV_FORWARD(cuemu_rt_device_get_limit(pvalue, limit));
}

inline CUresult cuCtxGetStreamPriorityRange(int *leastPriority,
                                            int *greatestPriority) {
  CUEMU_DRV_SYMBOL(cuCtxGetStreamPriorityRange);
  CUEMU_DRV_FORWARD(
      cuemu_rt_device_stream_priority_range(leastPriority, greatestPriority));
}

inline CUresult cuCtxEnablePeerAccess(CUcontext peerContext,
                                      unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuCtxEnablePeerAccess);
  return static_cast<CUresult>(
      cuemu_drv_ctx_enable_peer_access(peerContext, Flags));
}

inline CUresult cuCtxDisablePeerAccess(CUcontext peerContext) {
  CUEMU_DRV_SYMBOL(cuCtxDisablePeerAccess);
  return static_cast<CUresult>(
      cuemu_drv_ctx_disable_peer_access(peerContext));
}

/* Modules and functions. */

inline CUresult cuModuleLoad(CUmodule *module, const char *fname) {
  CUEMU_DRV_SYMBOL(cuModuleLoad);
  return static_cast<CUresult>(
      cuemu_drv_module_load(reinterpret_cast<void **>(module), fname));
}

inline CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  CUEMU_DRV_SYMBOL(cuModuleLoadData);
  return static_cast<CUresult>(
      cuemu_drv_module_load_data(reinterpret_cast<void **>(module), image));
}

namespace cuemu {
namespace drv {

/* The output JIT options of cuModuleLoadDataEx and cuLinkCreate, as
 * cuda.h documents them: CU_JIT_WALL_TIME is overwritten with the
 * milliseconds spent loading (a float written through the pointer-sized
 * slot), CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES and
 * CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES (in: the buffer's size, an unsigned
 * int) with the bytes of the buffer filled, terminator included (0 for an
 * empty log). */
struct __cuemu_jit_outputs {
  void **__cuemu_wall_time = nullptr;   /* the options' slots, or null */
  void **__cuemu_info_size = nullptr, **error_size = nullptr;
  char *__cuemu_info_log = nullptr, *error_log = nullptr;
  unsigned __cuemu_info_capacity = 0, __cuemu_error_capacity = 0;
  float ms = 0.0f; /* accumulated (a link state's, until destroyed) */
};

/* Milliseconds on the monotonic clock. */
inline double __cuemu_jit_clock_ms() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Reads the options into *out and empties the log buffers; INVALID_VALUE
 * when the arrays are missing. */
inline CUresult __cuemu_jit_options_read(unsigned n, const CUjit_option *options,
                                 void **values, __cuemu_jit_outputs *__cuemu_out) {
  if (n && (!options || !values))
    return CUDA_ERROR_INVALID_VALUE;
  for (unsigned __cuemu_i = 0; __cuemu_i < n; ++__cuemu_i) {
    unsigned size = (unsigned)reinterpret_cast<uintptr_t>(values[__cuemu_i]);
    switch (options[__cuemu_i]) {
    case CU_JIT_WALL_TIME: __cuemu_out->__cuemu_wall_time = &values[__cuemu_i]; break;
    case CU_JIT_INFO_LOG_BUFFER:
      __cuemu_out->__cuemu_info_log = static_cast<char *>(values[__cuemu_i]);
      break;
    case CU_JIT_ERROR_LOG_BUFFER:
      __cuemu_out->error_log = static_cast<char *>(values[__cuemu_i]);
      break;
    case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
      __cuemu_out->__cuemu_info_size = &values[__cuemu_i];
      __cuemu_out->__cuemu_info_capacity = size;
      break;
    case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
      __cuemu_out->error_size = &values[__cuemu_i];
      __cuemu_out->__cuemu_error_capacity = size;
      break;
    default: break;
    }
  }
  if (__cuemu_out->__cuemu_info_log && __cuemu_out->__cuemu_info_capacity)
    __cuemu_out->__cuemu_info_log[0] = '\0';
  if (__cuemu_out->error_log && __cuemu_out->__cuemu_error_capacity)
    __cuemu_out->error_log[0] = '\0';
  return CUDA_SUCCESS;
}

/* Writes `text` (truncated) into a log buffer of `capacity` bytes. */
inline void __cuemu_jit_log_write(char *log, unsigned capacity, const char *text) {
  if (!log || !capacity || !text)
    return;
  size_t n = std::strlen(text);
  if (n >= capacity)
    n = capacity - 1;
  std::memcpy(log, text, n);
  log[n] = '\0';
}

/* Adds `ms` to the wall time and writes the outputs into the slots. */
inline void __cuemu_jit_options_write(__cuemu_jit_outputs *__cuemu_out, double ms) {
  __cuemu_out->ms += (float)ms;
  if (__cuemu_out->__cuemu_wall_time)
    std::memcpy(__cuemu_out->__cuemu_wall_time, &__cuemu_out->ms, sizeof __cuemu_out->ms);
  if (__cuemu_out->__cuemu_info_size) {
    size_t n = __cuemu_out->__cuemu_info_log && __cuemu_out->__cuemu_info_capacity && __cuemu_out->__cuemu_info_log[0]
                   ? std::strlen(__cuemu_out->__cuemu_info_log) + 1 : 0;
    *__cuemu_out->__cuemu_info_size = reinterpret_cast<void *>((uintptr_t)n);
  }
  if (__cuemu_out->error_size) {
    size_t n = __cuemu_out->error_log && __cuemu_out->__cuemu_error_capacity && __cuemu_out->error_log[0]
                   ? std::strlen(__cuemu_out->error_log) + 1 : 0;
    *__cuemu_out->error_size = reinterpret_cast<void *>((uintptr_t)n);
  }
}

} // namespace drv
} // namespace cuemu

/* The compiling JIT options change nothing (the module is compiled
 * already); CU_JIT_WALL_TIME gets the milliseconds of the load, the error
 * log the reason of a failure and the info log nothing. */
inline CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                   unsigned int numOptions,
                                   CUjit_option *options,
                                   void **optionValues) {
  CUEMU_DRV_SYMBOL(cuModuleLoadDataEx);
  cuemu::drv::__cuemu_jit_outputs __cuemu_out;
  CUresult e = cuemu::drv::__cuemu_jit_options_read(numOptions, options, optionValues,
                                            &__cuemu_out);
  if (e)
    return e;
  double start = cuemu::drv::__cuemu_jit_clock_ms();
  e = cuModuleLoadData(module, image);
  if (e != CUDA_SUCCESS)
    cuemu::drv::__cuemu_jit_log_write(__cuemu_out.error_log, __cuemu_out.__cuemu_error_capacity,
                              cuemu_last_message());
  cuemu::drv::__cuemu_jit_options_write(&__cuemu_out, cuemu::drv::__cuemu_jit_clock_ms() - start);
  return e;
}

inline CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin) {
  CUEMU_DRV_SYMBOL(cuModuleLoadFatBinary);
  return cuModuleLoadData(module, fatCubin);
}

inline CUresult cuModuleUnload(CUmodule hmod) {
  CUEMU_DRV_SYMBOL(cuModuleUnload);
  return static_cast<CUresult>(cuemu_drv_module_unload(hmod));
}

inline CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
                                    const char *name) {
  CUEMU_DRV_SYMBOL(cuModuleGetFunction);
  return static_cast<CUresult>(cuemu_drv_module_get_function(
      reinterpret_cast<void **>(hfunc), hmod, name));
}

inline CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes,
                                  CUmodule hmod, const char *name) {
  CUEMU_DRV_SYMBOL(cuModuleGetGlobal);
  return static_cast<CUresult>(
      cuemu_drv_module_get_global(dptr, bytes, hmod, name));
}

inline CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod) {
  CUEMU_DRV_SYMBOL(cuModuleGetFunctionCount);
  return static_cast<CUresult>(cuemu_drv_module_get_function_count(count, mod));
}

inline CUresult cuModuleEnumerateFunctions(CUfunction *functions,
                                           unsigned int numFunctions,
                                           CUmodule mod) {
  CUEMU_DRV_SYMBOL(cuModuleEnumerateFunctions);
  return static_cast<CUresult>(cuemu_drv_module_enumerate_functions(
      reinterpret_cast<void **>(functions), numFunctions, mod));
}

inline CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc) {
  CUEMU_DRV_SYMBOL(cuFuncGetModule);
  return static_cast<CUresult>(
      cuemu_drv_func_get_module(reinterpret_cast<void **>(hmod), hfunc));
}

inline CUresult cuFuncIsLoaded(CUfunctionLoadingState *state,
                               CUfunction function) {
  CUEMU_DRV_SYMBOL(cuFuncIsLoaded);
  int s = 0;
  CUresult e = static_cast<CUresult>(
      cuemu_drv_func_is_loaded(state ? &s : nullptr, function));
  if (e == CUDA_SUCCESS)
    *state = static_cast<CUfunctionLoadingState>(s);
  return e;
}

/* Modules load eagerly: a function of a live module is loaded. */
inline CUresult cuFuncLoad(CUfunction function) {
  CUEMU_DRV_SYMBOL(cuFuncLoad);
  CUfunctionLoadingState state;
  return cuFuncIsLoaded(&state, function);
}

inline CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode) {
  CUEMU_DRV_SYMBOL(cuModuleGetLoadingMode);
  if (!mode)
    return CUDA_ERROR_INVALID_VALUE;
  *mode = CU_MODULE_EAGER_LOADING;
  return CUDA_SUCCESS;
}

inline CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib,
                                   CUfunction hfunc) {
  CUEMU_DRV_SYMBOL(cuFuncGetAttribute);
  return static_cast<CUresult>(
      cuemu_drv_func_get_attribute(pi, attrib, hfunc));
}

inline CUresult cuFuncSetAttribute(CUfunction hfunc,
                                   CUfunction_attribute attrib, int value) {
  CUEMU_DRV_SYMBOL(cuFuncSetAttribute);
  return static_cast<CUresult>(
      cuemu_drv_func_set_attribute(hfunc, attrib, value));
}

inline CUresult cuFuncGetName(const char **name, CUfunction hfunc) {
  CUEMU_DRV_SYMBOL(cuFuncGetName);
  return static_cast<CUresult>(cuemu_drv_func_get_name(name, hfunc));
}

inline CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex,
                                   size_t *paramOffset, size_t *paramSize) {
  CUEMU_DRV_SYMBOL(cuFuncGetParamInfo);
  return static_cast<CUresult>(
      cuemu_drv_func_get_param_info(func, paramIndex, paramOffset, paramSize));
}

/* Accepted and recorded nowhere: the emulated caches have no
 * configuration. */
inline CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
  CUEMU_DRV_SYMBOL(cuFuncSetCacheConfig);
  int e = cuemu_drv_check_context();
  if (e)
    return static_cast<CUresult>(e);
  if (!hfunc)
    return CUDA_ERROR_INVALID_HANDLE;
  return config >= CU_FUNC_CACHE_PREFER_NONE &&
                 config <= CU_FUNC_CACHE_PREFER_EQUAL
             ? CUDA_SUCCESS
             : CUDA_ERROR_INVALID_VALUE;
}

inline CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
                               unsigned int gridDimY, unsigned int gridDimZ,
                               unsigned int blockDimX, unsigned int blockDimY,
                               unsigned int blockDimZ,
                               unsigned int sharedMemBytes, CUstream hStream,
                               void **kernelParams, void **extra) {
  CUEMU_DRV_SYMBOL(cuLaunchKernel);
  return static_cast<CUresult>(cuemu_drv_launch_kernel(
      f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
      sharedMemBytes, hStream, kernelParams, extra, 0));
}

inline CUresult cuLaunchCooperativeKernel(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams) {
  CUEMU_DRV_SYMBOL(cuLaunchCooperativeKernel);
  return static_cast<CUresult>(cuemu_drv_launch_kernel(
      f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
      sharedMemBytes, hStream, kernelParams, nullptr, 1));
}

inline CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize) {
  CUEMU_DRV_SYMBOL(cuOccupancyMaxActiveBlocksPerMultiprocessor);
  return static_cast<CUresult>(cuemu_drv_occupancy_max_active_blocks(
      numBlocks, func, blockSize, dynamicSMemSize));
}

/* Memory. */

CUEMU_AT_CALLER inline CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {
  CUEMU_DRV_SYMBOL(cuMemAlloc);
  if (!dptr || bytesize == 0)
    return CUDA_ERROR_INVALID_VALUE;
  void *p = nullptr;
  CUresult __cuemu_r = [&]() CUEMU_AT_CALLER -> CUresult {
    CUEMU_DRV_FORWARD(cuemu_rt_malloc(&p, bytesize));
  }();
  if (__cuemu_r == CUDA_SUCCESS)
    *dptr = reinterpret_cast<CUdeviceptr>(p);
  return __cuemu_r;
}

CUEMU_AT_CALLER inline CUresult
cuMemAllocPitch(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
                size_t Height, unsigned int ElementSizeBytes) {
  CUEMU_DRV_SYMBOL(cuMemAllocPitch);
  if (!dptr || !pPitch || WidthInBytes == 0 || Height == 0 ||
      (ElementSizeBytes != 4 && ElementSizeBytes != 8 &&
       ElementSizeBytes != 16))
    return CUDA_ERROR_INVALID_VALUE;
  void *p = nullptr;
  CUresult __cuemu_r = [&]() CUEMU_AT_CALLER -> CUresult {
    CUEMU_DRV_FORWARD(cuemu_rt_malloc_pitch(&p, pPitch, WidthInBytes, Height));
  }();
  if (__cuemu_r == CUDA_SUCCESS)
    *dptr = reinterpret_cast<CUdeviceptr>(p);
  return __cuemu_r;
}

CUEMU_AT_CALLER inline CUresult
cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuMemAllocManaged);
  if (!dptr || bytesize == 0)
    return CUDA_ERROR_INVALID_VALUE;
  void *p = nullptr;
  CUresult __cuemu_r = [&]() CUEMU_AT_CALLER -> CUresult {
    CUEMU_DRV_FORWARD(cuemu_rt_malloc_managed(&p, bytesize, flags));
  }();
  if (__cuemu_r == CUDA_SUCCESS)
    *dptr = reinterpret_cast<CUdeviceptr>(p);
  return __cuemu_r;
}

CUEMU_AT_CALLER inline CUresult cuMemFree(CUdeviceptr dptr) {
  CUEMU_DRV_SYMBOL(cuMemFree);
  CUEMU_DRV_FORWARD(cuemu_rt_free(reinterpret_cast<void *>(dptr)));
}

CUEMU_AT_CALLER inline CUresult cuMemAllocHost(void **pp, size_t bytesize) {
  CUEMU_DRV_SYMBOL(cuMemAllocHost);
  CUEMU_DRV_FORWARD(cuemu_rt_host_alloc(pp, bytesize, 0));
}

CUEMU_AT_CALLER inline CUresult cuMemHostAlloc(void **pp, size_t bytesize,
                                               unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuMemHostAlloc);
  CUEMU_DRV_FORWARD(cuemu_rt_host_alloc(pp, bytesize, Flags));
}

CUEMU_AT_CALLER inline CUresult cuMemFreeHost(void *p) {
  CUEMU_DRV_SYMBOL(cuMemFreeHost);
  CUEMU_DRV_FORWARD(cuemu_rt_free_host(p));
}

inline CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p,
                                          unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuMemHostGetDevicePointer);
  if (!pdptr)
    return CUDA_ERROR_INVALID_VALUE;
  void *d = nullptr;
  CUresult __cuemu_r = [&]() -> CUresult {
    CUEMU_DRV_FORWARD(cuemu_rt_host_get_device_pointer(&d, p, Flags));
  }();
  if (__cuemu_r == CUDA_SUCCESS)
    *pdptr = reinterpret_cast<CUdeviceptr>(d);
  return __cuemu_r;
}

inline CUresult cuMemHostRegister(void *p, size_t bytesize,
                                  unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuMemHostRegister);
  CUEMU_DRV_FORWARD(cuemu_rt_host_register(p, bytesize, Flags));
}

inline CUresult cuMemHostUnregister(void *p) {
  CUEMU_DRV_SYMBOL(cuMemHostUnregister);
  CUEMU_DRV_FORWARD(cuemu_rt_host_unregister(p));
}

inline CUresult cuMemGetInfo(size_t *free, size_t *total) {
  CUEMU_DRV_SYMBOL(cuMemGetInfo);
  CUEMU_DRV_FORWARD(cuemu_rt_mem_get_info(free, total));
}

inline CUresult cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize,
                                     CUdeviceptr dptr) {
  CUEMU_DRV_SYMBOL(cuMemGetAddressRange);
  return static_cast<CUresult>(
      cuemu_drv_mem_get_address_range(pbase, psize, dptr));
}

inline CUresult cuPointerGetAttribute(void *data,
                                      CUpointer_attribute attribute,
                                      CUdeviceptr ptr) {
  CUEMU_DRV_SYMBOL(cuPointerGetAttribute);
  return static_cast<CUresult>(
      cuemu_drv_pointer_get_attribute(data, attribute, ptr));
}

inline CUresult cuPointerGetAttributes(unsigned int numAttributes,
                                       CUpointer_attribute *attributes,
                                       void **data, CUdeviceptr ptr) {
  CUEMU_DRV_SYMBOL(cuPointerGetAttributes);
  return static_cast<CUresult>(cuemu_drv_pointer_get_attributes(
      numAttributes, reinterpret_cast<const int *>(attributes), data, ptr));
}

/* CU_POINTER_ATTRIBUTE_SYNC_MEMOPS only, as CUDA. */
inline CUresult cuPointerSetAttribute(const void *value,
                                      CUpointer_attribute attribute,
                                      CUdeviceptr ptr) {
  CUEMU_DRV_SYMBOL(cuPointerSetAttribute);
  return static_cast<CUresult>(
      cuemu_drv_pointer_set_attribute(value, attribute, ptr));
}

/* Copies are synchronous: an ...Async copy is done when it returns. */

inline CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  CUEMU_DRV_SYMBOL(cuMemcpy);
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy(reinterpret_cast<void *>(dst),
                                    reinterpret_cast<const void *>(src),
                                    ByteCount, cudaMemcpyDefault));
}

/* The Async copies and sets are recorded as nodes in a capturing stream. */
inline CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
                              size_t ByteCount, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpyAsync);
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy_async(
      reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src),
      ByteCount, cudaMemcpyDefault, hStream));
}

inline CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost,
                             size_t ByteCount) {
  CUEMU_DRV_SYMBOL(cuMemcpyHtoD);
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy(reinterpret_cast<void *>(dstDevice),
                                    srcHost, ByteCount,
                                    cudaMemcpyHostToDevice));
}

inline CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice,
                             size_t ByteCount) {
  CUEMU_DRV_SYMBOL(cuMemcpyDtoH);
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy(dstHost,
                                    reinterpret_cast<const void *>(srcDevice),
                                    ByteCount, cudaMemcpyDeviceToHost));
}

inline CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                             size_t ByteCount) {
  CUEMU_DRV_SYMBOL(cuMemcpyDtoD);
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy(reinterpret_cast<void *>(dstDevice),
                                    reinterpret_cast<const void *>(srcDevice),
                                    ByteCount, cudaMemcpyDeviceToDevice));
}

inline CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost,
                                  size_t ByteCount, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpyHtoDAsync);
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy_async(reinterpret_cast<void *>(dstDevice),
                                          srcHost, ByteCount,
                                          cudaMemcpyHostToDevice, hStream));
}

inline CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice,
                                  size_t ByteCount, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpyDtoHAsync);
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy_async(
      dstHost, reinterpret_cast<const void *>(srcDevice), ByteCount,
      cudaMemcpyDeviceToHost, hStream));
}

inline CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                  size_t ByteCount, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpyDtoDAsync);
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy_async(
      reinterpret_cast<void *>(dstDevice),
      reinterpret_cast<const void *>(srcDevice), ByteCount,
      cudaMemcpyDeviceToDevice, hStream));
}

inline CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext,
                             CUdeviceptr srcDevice, CUcontext srcContext,
                             size_t ByteCount) {
  CUEMU_DRV_SYMBOL(cuMemcpyPeer);
  return static_cast<CUresult>(cuemu_drv_memcpy_peer(
      dstDevice, dstContext, srcDevice, srcContext, ByteCount));
}

inline CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext,
                                  CUdeviceptr srcDevice, CUcontext srcContext,
                                  size_t ByteCount, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpyPeerAsync);
  return static_cast<CUresult>(cuemu_drv_memcpy_peer_async(
      dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream));
}

inline CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc,
                           size_t N) {
  CUEMU_DRV_SYMBOL(cuMemsetD8);
  return static_cast<CUresult>(cuemu_drv_memset(dstDevice, uc, 1, N));
}

inline CUresult cuMemsetD16(CUdeviceptr dstDevice, unsigned short us,
                            size_t N) {
  CUEMU_DRV_SYMBOL(cuMemsetD16);
  return static_cast<CUresult>(cuemu_drv_memset(dstDevice, us, 2, N));
}

inline CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui,
                            size_t N) {
  CUEMU_DRV_SYMBOL(cuMemsetD32);
  return static_cast<CUresult>(cuemu_drv_memset(dstDevice, ui, 4, N));
}

inline CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc,
                                size_t N, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemsetD8Async);
  return static_cast<CUresult>(
      cuemu_drv_memset_async(dstDevice, uc, 1, N, hStream));
}

inline CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us,
                                 size_t N, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemsetD16Async);
  return static_cast<CUresult>(
      cuemu_drv_memset_async(dstDevice, us, 2, N, hStream));
}

inline CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui,
                                 size_t N, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemsetD32Async);
  return static_cast<CUresult>(
      cuemu_drv_memset_async(dstDevice, ui, 4, N, hStream));
}

inline CUresult cuMemsetD2D8(CUdeviceptr dstDevice, size_t dstPitch,
                             unsigned char uc, size_t Width, size_t Height) {
  CUEMU_DRV_SYMBOL(cuMemsetD2D8);
  return static_cast<CUresult>(
      cuemu_drv_memset_2d(dstDevice, dstPitch, uc, 1, Width, Height));
}

inline CUresult cuMemsetD2D16(CUdeviceptr dstDevice, size_t dstPitch,
                              unsigned short us, size_t Width, size_t Height) {
  CUEMU_DRV_SYMBOL(cuMemsetD2D16);
  return static_cast<CUresult>(
      cuemu_drv_memset_2d(dstDevice, dstPitch, us, 2, Width, Height));
}

inline CUresult cuMemsetD2D32(CUdeviceptr dstDevice, size_t dstPitch,
                              unsigned int ui, size_t Width, size_t Height) {
  CUEMU_DRV_SYMBOL(cuMemsetD2D32);
  return static_cast<CUresult>(
      cuemu_drv_memset_2d(dstDevice, dstPitch, ui, 4, Width, Height));
}

/* Streams. */

inline CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuStreamCreate);
  return static_cast<CUresult>(cuemu_drv_stream_create(
      reinterpret_cast<void **>(phStream), Flags, 0));
}

inline CUresult cuStreamCreateWithPriority(CUstream *phStream,
                                           unsigned int flags, int priority) {
  CUEMU_DRV_SYMBOL(cuStreamCreateWithPriority);
  return static_cast<CUresult>(cuemu_drv_stream_create(
      reinterpret_cast<void **>(phStream), flags, priority));
}

/* The context the stream was created in; the special streams give the
 * current context. */
inline CUresult cuStreamGetCtx(CUstream __cuemu_hStream, CUcontext *__cuemu_pctx) {
  CUEMU_DRV_SYMBOL(cuStreamGetCtx);
  return static_cast<CUresult>(cuemu_drv_stream_get_ctx(
      __cuemu_hStream, reinterpret_cast<void **>(__cuemu_pctx), nullptr));
}

/* No stream belongs to a green context: *__cuemu_pGreenCtx is NULL. */
inline CUresult cuStreamGetCtx_v2(CUstream __cuemu_hStream, CUcontext *__cuemu_pCtx,
                                  CUgreenCtx *__cuemu_pGreenCtx) {
  return static_cast<CUresult>(cuemu_drv_stream_get_ctx(
      __cuemu_hStream, reinterpret_cast<void **>(__cuemu_pCtx),
      reinterpret_cast<void **>(__cuemu_pGreenCtx)));
}

inline CUresult cuStreamDestroy(CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuStreamDestroy);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_destroy(hStream));
}

inline CUresult cuStreamSynchronize(CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuStreamSynchronize);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_synchronize(hStream));
}

inline CUresult cuStreamQuery(CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuStreamQuery);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_query(hStream));
}

inline CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags) {
  CUEMU_DRV_SYMBOL(cuStreamGetFlags);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_get_flags(hStream, flags));
}

inline CUresult cuStreamGetPriority(CUstream hStream, int *priority) {
  CUEMU_DRV_SYMBOL(cuStreamGetPriority);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_get_priority(hStream, priority));
}

inline CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device) {
  CUEMU_DRV_SYMBOL(cuStreamGetDevice);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_get_device(hStream, device));
}

inline CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
                                  unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuStreamWaitEvent);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_wait_event(hStream, hEvent, Flags));
}

/* Calls a CUstreamCallback with the stream's status as a CUresult. */
inline void cuemu_drv_stream_callback(void *stream, int status,
                                      void *callback, void *data) {
  reinterpret_cast<CUstreamCallback>(callback)(
      static_cast<CUstream>(stream), static_cast<CUresult>(status), data);
}

inline CUresult cuStreamAddCallback(CUstream hStream,
                                    CUstreamCallback callback, void *userData,
                                    unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuStreamAddCallback);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_add_callback(
      hStream, cuemu_drv_stream_callback,
      reinterpret_cast<void *>(callback), userData, flags));
}

inline CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn,
                                 void *userData) {
  CUEMU_DRV_SYMBOL(cuLaunchHostFunc);
  CUEMU_DRV_FORWARD(cuemu_rt_launch_host_func(hStream, fn, userData));
}

/* Events. */

inline CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuEventCreate);
  CUEMU_DRV_FORWARD(
      cuemu_rt_event_create(reinterpret_cast<void **>(phEvent), Flags));
}

inline CUresult cuEventDestroy(CUevent hEvent) {
  CUEMU_DRV_SYMBOL(cuEventDestroy);
  CUEMU_DRV_FORWARD(cuemu_rt_event_destroy(hEvent));
}

inline CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuEventRecord);
  CUEMU_DRV_FORWARD(cuemu_rt_event_record(hEvent, hStream));
}

inline CUresult cuEventSynchronize(CUevent hEvent) {
  CUEMU_DRV_SYMBOL(cuEventSynchronize);
  CUEMU_DRV_FORWARD(cuemu_rt_event_synchronize(hEvent));
}

inline CUresult cuEventQuery(CUevent hEvent) {
  CUEMU_DRV_SYMBOL(cuEventQuery);
  CUEMU_DRV_FORWARD(cuemu_rt_event_query(hEvent));
}

inline CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart,
                                   CUevent hEnd) {
  CUEMU_DRV_SYMBOL(cuEventElapsedTime);
  CUEMU_DRV_FORWARD(
      cuemu_rt_event_elapsed_time(pMilliseconds, hStart, hEnd));
}

/* The profiler (cudaProfiler.h's): nothing to start. */

inline CUresult cuProfilerStart(void) {
  CUEMU_DRV_SYMBOL(cuProfilerStart); return CUDA_SUCCESS; }

inline CUresult cuProfilerStop(void) {
  CUEMU_DRV_SYMBOL(cuProfilerStop); return CUDA_SUCCESS; }

/* Deprecated: CUDA 12.0 and later always answer CUDA_ERROR_NOT_SUPPORTED
 * (cudaProfiler.h). cuemu-status: refused */
inline CUresult cuProfilerInitialize(const char *__cuemu_configFile,
                                     const char *__cuemu_outputFile,
                                     CUoutput_mode __cuemu_outputMode) {
  CUEMU_DRV_SYMBOL(cuProfilerInitialize);
  (void)__cuemu_configFile;
  (void)__cuemu_outputFile;
  (void)__cuemu_outputMode;
  return CUDA_ERROR_NOT_SUPPORTED;
}

#include "cuemu_driver_graph_api.h"
#include "cuemu_driver_library_api.h"
#include "cuemu_driver_link_api.h"
#include "cuemu_driver_external_api.h"
#include "cuemu_driver_batch_api.h"
#include "cuemu_driver_old_abi_api.h"
#include "cuemu_driver_peer_api.h"
#include "cuemu_driver_ptsz_api.h"
#include "cuemu_driver_legacy_launch_api.h"
#include "cuemu_driver_coredump_api.h"
#include "cuemu_driver_green_api.h"
#include "cuemu_driver_tensor_map_api.h"
#include "cuemu_driver_deprecated_api.h"
#include "cuemu_driver_device_extras_api.h"
#include "cuemu_driver_multi_device_api.h"
#include "cuemu_driver_decompress_api.h"
#include "cuemu_driver_multicast_api.h"
#include "cuemu_driver_interop_api.h"
#include "cuemu_driver_texref_api.h"
/* Identifiers, occupancy and the entry points by name: after every other
 * driver function. */
#include "cuemu_driver_ids_api.h"

#endif /* CUEMU_CUDA_H */
#endif /* __cplusplus */
