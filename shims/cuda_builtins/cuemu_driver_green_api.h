/*
 * cuemu_driver_green_api.h: green contexts (CUDA 12.4): a device's SMs as
 * a resource, split into groups, joined into a descriptor and given to a
 * green context, which has streams and events of its own
 * (emulator/runtime/cuemu_drv_green.c). The partition is recorded and
 * reported, not enforced: kernels of a green context run on the whole
 * emulated device (docs/driver-api.md). cuda.h's types and layouts.
 * Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_GREEN_API_H
#define CUEMU_DRIVER_GREEN_API_H

#include "cuemu_driver_green_types.h"

inline CUresult cuDeviceGetDevResource(CUdevice __cuemu_device,
                                       CUdevResource *__cuemu_resource,
                                       CUdevResourceType __cuemu_type) {
  CUEMU_DRV_SYMBOL(cuDeviceGetDevResource);
  return static_cast<CUresult>(cuemu_drv_device_get_dev_resource(
      __cuemu_device, __cuemu_resource, __cuemu_type));
}

inline CUresult cuCtxGetDevResource(CUcontext __cuemu_hCtx,
                                    CUdevResource *__cuemu_resource,
                                    CUdevResourceType __cuemu_type) {
  CUEMU_DRV_SYMBOL(cuCtxGetDevResource);
  return static_cast<CUresult>(cuemu_drv_ctx_get_dev_resource(
      __cuemu_hCtx, __cuemu_resource, __cuemu_type));
}

inline CUresult cuGreenCtxGetDevResource(CUgreenCtx __cuemu_hCtx,
                                         CUdevResource *__cuemu_resource,
                                         CUdevResourceType __cuemu_type) {
  CUEMU_DRV_SYMBOL(cuGreenCtxGetDevResource);
  return static_cast<CUresult>(cuemu_drv_green_ctx_get_dev_resource(
      __cuemu_hCtx, __cuemu_resource, __cuemu_type));
}

inline CUresult cuDevSmResourceSplitByCount(CUdevResource *__cuemu_result,
                                            unsigned int *__cuemu_nbGroups,
                                            const CUdevResource *__cuemu_input,
                                            CUdevResource *__cuemu_remaining,
                                            unsigned int __cuemu_useFlags,
                                            unsigned int __cuemu_minCount) {
  CUEMU_DRV_SYMBOL(cuDevSmResourceSplitByCount);
  return static_cast<CUresult>(cuemu_drv_dev_sm_resource_split_by_count(
      __cuemu_result, __cuemu_nbGroups, __cuemu_input, __cuemu_remaining,
      __cuemu_useFlags, __cuemu_minCount));
}

inline CUresult cuDevResourceGenerateDesc(CUdevResourceDesc *__cuemu_phDesc,
                                          CUdevResource *__cuemu_resources,
                                          unsigned int __cuemu_nbResources) {
  CUEMU_DRV_SYMBOL(cuDevResourceGenerateDesc);
  return static_cast<CUresult>(cuemu_drv_dev_resource_generate_desc(
      reinterpret_cast<void **>(__cuemu_phDesc), __cuemu_resources,
      __cuemu_nbResources));
}

inline CUresult cuGreenCtxCreate(CUgreenCtx *__cuemu_phCtx,
                                 CUdevResourceDesc __cuemu_desc,
                                 CUdevice __cuemu_dev,
                                 unsigned int __cuemu_flags) {
  CUEMU_DRV_SYMBOL(cuGreenCtxCreate);
  return static_cast<CUresult>(cuemu_drv_green_ctx_create(
      reinterpret_cast<void **>(__cuemu_phCtx), __cuemu_desc, __cuemu_dev,
      __cuemu_flags));
}

inline CUresult cuGreenCtxDestroy(CUgreenCtx __cuemu_hCtx) {
  CUEMU_DRV_SYMBOL(cuGreenCtxDestroy);
  return static_cast<CUresult>(cuemu_drv_green_ctx_destroy(__cuemu_hCtx));
}

inline CUresult cuCtxFromGreenCtx(CUcontext *__cuemu_pContext,
                                  CUgreenCtx __cuemu_hCtx) {
  CUEMU_DRV_SYMBOL(cuCtxFromGreenCtx);
  return static_cast<CUresult>(cuemu_drv_ctx_from_green_ctx(
      reinterpret_cast<void **>(__cuemu_pContext), __cuemu_hCtx));
}

inline CUresult cuGreenCtxStreamCreate(CUstream *__cuemu_phStream,
                                       CUgreenCtx __cuemu_greenCtx,
                                       unsigned int __cuemu_flags,
                                       int __cuemu_priority) {
  CUEMU_DRV_SYMBOL(cuGreenCtxStreamCreate);
  return static_cast<CUresult>(cuemu_drv_green_ctx_stream_create(
      reinterpret_cast<void **>(__cuemu_phStream), __cuemu_greenCtx,
      __cuemu_flags, __cuemu_priority));
}

inline CUresult cuStreamGetGreenCtx(CUstream __cuemu_hStream,
                                    CUgreenCtx *__cuemu_phCtx) {
  CUEMU_DRV_SYMBOL(cuStreamGetGreenCtx);
  return static_cast<CUresult>(cuemu_drv_stream_get_green_ctx(
      __cuemu_hStream, reinterpret_cast<void **>(__cuemu_phCtx)));
}

/* As cuCtxRecordEvent and cuCtxWaitEvent on the green context's context
 * (the host waits for the work first). */
inline CUresult cuGreenCtxRecordEvent(CUgreenCtx __cuemu_hCtx,
                                      CUevent __cuemu_hEvent) {
  CUEMU_DRV_SYMBOL(cuGreenCtxRecordEvent);
  CUcontext __cuemu_ctx = nullptr;
  CUresult __cuemu_e = cuCtxFromGreenCtx(&__cuemu_ctx, __cuemu_hCtx);
  return __cuemu_e != CUDA_SUCCESS ? __cuemu_e
                                   : cuCtxRecordEvent(__cuemu_ctx, __cuemu_hEvent);
}

inline CUresult cuGreenCtxWaitEvent(CUgreenCtx __cuemu_hCtx,
                                    CUevent __cuemu_hEvent) {
  CUEMU_DRV_SYMBOL(cuGreenCtxWaitEvent);
  CUcontext __cuemu_ctx = nullptr;
  CUresult __cuemu_e = cuCtxFromGreenCtx(&__cuemu_ctx, __cuemu_hCtx);
  return __cuemu_e != CUDA_SUCCESS ? __cuemu_e
                                   : cuCtxWaitEvent(__cuemu_ctx, __cuemu_hEvent);
}

/* Its context's identifier (cuCtxGetId): unique in the process. */
inline CUresult cuGreenCtxGetId(CUgreenCtx __cuemu_greenCtx,
                                unsigned long long *__cuemu_greenCtxId) {
  CUEMU_DRV_SYMBOL(cuGreenCtxGetId);
  CUcontext __cuemu_ctx = nullptr;
  CUresult __cuemu_e = cuCtxFromGreenCtx(&__cuemu_ctx, __cuemu_greenCtx);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  if (!__cuemu_greenCtxId)
    return CUDA_ERROR_INVALID_VALUE;
  return static_cast<CUresult>(
      cuemu_drv_ctx_get_id(__cuemu_ctx, __cuemu_greenCtxId));
}

#endif /* CUEMU_DRIVER_GREEN_API_H */
