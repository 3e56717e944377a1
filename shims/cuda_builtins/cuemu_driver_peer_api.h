/*
 * cuemu_driver_peer_api.h: the driver API's calls for several devices and
 * processes and for a context's settings, which multi-GPU and IPC programs
 * written against cuda.h use: IPC handles (cuIpc*), stream attributes
 * (cuStreamGetAttribute, cuStreamSetAttribute, cuStreamCopyAttributes),
 * the context's cache and shared-memory configuration,
 * cuEventRecordWithFlags, cuCtxResetPersistingL2Cache and cuMemHostGetFlags.
 * Each is the runtime's call under the driver's name (CUEMU_DRV_FORWARD:
 * cuInit and a current context first, then the runtime's answer as a
 * driver code). Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_PEER_API_H
#define CUEMU_DRIVER_PEER_API_H

#include <cuemu/cuemu_runtime_host.h>
#include <cuemu/cuemu_runtime_peer.h>

namespace cuemu {
namespace drv {

/* CUEMU_DRV_FORWARD for a call whose result the caller then stores: cuInit
 * and a current context first, then `call()`'s runtime code as a driver
 * code. */
template <class F> CUEMU_AT_CALLER inline CUresult forward_call(F &&call) {
  int __cuemu_check = cuemu_drv_check_context();
  if (__cuemu_check)
    return static_cast<CUresult>(__cuemu_check);
  int saved = cuemu_drv_enter();
  return static_cast<CUresult>(cuemu_drv_result(call(), saved));
}

/* The driver's answer to a NULL output argument. */
inline CUresult null_output() {
  return forward_call([] { return cuemu_rt_error(cudaErrorInvalidValue); });
}

} // namespace drv
} // namespace cuemu

/* ---- IPC -------------------------------------------------------------------- */

#include "cuemu_driver_peer_types.h"

/* The runtime's IPC (cuemu/cuemu_runtime_peer.h): a handle names shared
 * memory that another process of the machine maps at the same address. */
inline CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr) {
  CUEMU_DRV_SYMBOL(cuIpcGetMemHandle);
  CUEMU_DRV_FORWARD(
      cuemu_rt_ipc_get_mem_handle(pHandle, reinterpret_cast<void *>(dptr)));
}

CUEMU_AT_CALLER inline CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr,
                                                   CUipcMemHandle handle,
                                                   unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuIpcOpenMemHandle);
  void *p = NULL;
  if (!pdptr)
    return cuemu::drv::null_output();
  CUresult __cuemu_r = cuemu::drv::forward_call([&]() CUEMU_AT_CALLER {
    return cuemu_rt_ipc_open_mem_handle(&p, &handle, Flags);
  });
  if (__cuemu_r == CUDA_SUCCESS)
    *pdptr = reinterpret_cast<CUdeviceptr>(p);
  return __cuemu_r;
}

inline CUresult cuIpcCloseMemHandle(CUdeviceptr dptr) {
  CUEMU_DRV_SYMBOL(cuIpcCloseMemHandle);
  CUEMU_DRV_FORWARD(
      cuemu_rt_ipc_close_mem_handle(reinterpret_cast<void *>(dptr)));
}

inline CUresult cuIpcGetEventHandle(CUipcEventHandle *pHandle, CUevent event) {
  CUEMU_DRV_SYMBOL(cuIpcGetEventHandle);
  CUEMU_DRV_FORWARD(cuemu_rt_ipc_get_event_handle(pHandle, event));
}

inline CUresult cuIpcOpenEventHandle(CUevent *phEvent,
                                     CUipcEventHandle handle) {
  CUEMU_DRV_SYMBOL(cuIpcOpenEventHandle);
  void *event = NULL;
  if (!phEvent)
    return cuemu::drv::null_output();
  CUresult __cuemu_r = cuemu::drv::forward_call(
      [&] { return cuemu_rt_ipc_open_event_handle(&event, &handle); });
  if (__cuemu_r == CUDA_SUCCESS)
    *phEvent = static_cast<CUevent>(event);
  return __cuemu_r;
}

/* ---- Stream attributes ------------------------------------------------------ */

inline CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr,
                                     CUstreamAttrValue *value_out) {
  CUEMU_DRV_SYMBOL(cuStreamGetAttribute);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_get_attribute(hStream, attr, value_out));
}

inline CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr,
                                     const CUstreamAttrValue *value) {
  CUEMU_DRV_SYMBOL(cuStreamSetAttribute);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_set_attribute(hStream, attr, value));
}

inline CUresult cuStreamCopyAttributes(CUstream dst, CUstream src) {
  CUEMU_DRV_SYMBOL(cuStreamCopyAttributes);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_copy_attributes(dst, src));
}

/* ---- The context's settings ------------------------------------------------- */

/* The device's preferred cache configuration, as cudaDeviceSetCacheConfig
 * (every context of a device shares its settings here). */
inline CUresult cuCtxSetCacheConfig(CUfunc_cache config) {
  CUEMU_DRV_SYMBOL(cuCtxSetCacheConfig);
  CUEMU_DRV_FORWARD(cuemu_rt_device_set_cache_config(config));
}

inline CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig) {
  CUEMU_DRV_SYMBOL(cuCtxGetCacheConfig);
  int config = 0;
  if (!pconfig)
    return cuemu::drv::null_output();
  CUresult __cuemu_r = cuemu::drv::forward_call(
      [&] { return cuemu_rt_device_get_cache_config(&config); });
  if (__cuemu_r == CUDA_SUCCESS)
    *pconfig = static_cast<CUfunc_cache>(config);
  return __cuemu_r;
}

/* Deprecated in CUDA 13 (not marked so here: cuGetProcAddress's table takes
 * their addresses). */
/* cuemu-status: no effect (banks are 4 bytes wide from sm_50 on) */
inline CUresult cuCtxSetSharedMemConfig(CUsharedconfig config) {
  CUEMU_DRV_SYMBOL(cuCtxSetSharedMemConfig);
  CUEMU_DRV_FORWARD(cuemu_rt_device_set_shared_mem_config(config));
}

inline CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig) {
  CUEMU_DRV_SYMBOL(cuCtxGetSharedMemConfig);
  int config = 0;
  if (!pConfig)
    return cuemu::drv::null_output();
  CUresult __cuemu_r = cuemu::drv::forward_call(
      [&] { return cuemu_rt_device_get_shared_mem_config(&config); });
  if (__cuemu_r == CUDA_SUCCESS)
    *pConfig = static_cast<CUsharedconfig>(config);
  return __cuemu_r;
}

/* cuemu-status: no effect (there is no L2 cache to reset) */
inline CUresult cuCtxResetPersistingL2Cache(void) {
  CUEMU_DRV_SYMBOL(cuCtxResetPersistingL2Cache);
  CUEMU_DRV_FORWARD(cuemu_rt_ctx_reset_persisting_l2_cache());
}

/* ---- Events ----------------------------------------------------------------- */

inline CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream,
                                       unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuEventRecordWithFlags);
  CUEMU_DRV_FORWARD(cuemu_rt_event_record_with_flags(hEvent, hStream, flags));
}

/* ---- Host memory ------------------------------------------------------------ */

/* The flags of cuMemHostAlloc (cudaHostGetFlags's answer);
 * CUDA_ERROR_INVALID_VALUE for memory it did not allocate. */
inline CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p) {
  CUEMU_DRV_SYMBOL(cuMemHostGetFlags);
  CUEMU_DRV_FORWARD(static_cast<int>(cudaHostGetFlags(pFlags, p)));
}

#endif /* CUEMU_DRIVER_PEER_API_H */
