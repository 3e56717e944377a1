/*
 * cuemu_driver_coredump_api.h: the driver API's GPU coredump settings
 * (cuCoredumpGetAttribute, cuCoredumpSetAttribute and their Global forms:
 * kept and given back, no coredump written; cuemu_drv_coredump.c) and its
 * execution affinity queries (cuDeviceGetExecAffinitySupport: contexts
 * limited to some SMs are not supported, as cuCtxCreate says;
 * cuCtxGetExecAffinity: a context's SMs are its device's). Included by
 * cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_COREDUMP_API_H
#define CUEMU_DRIVER_COREDUMP_API_H

#include "cuemu_driver_coredump_types.h"

inline CUresult cuCoredumpGetAttribute(CUcoredumpSettings __cuemu_attrib,
                                       void *__cuemu_value,
                                       size_t *__cuemu_size) {
  CUEMU_DRV_SYMBOL(cuCoredumpGetAttribute);
  return static_cast<CUresult>(cuemu_drv_coredump_get_attribute(
      0, __cuemu_attrib, __cuemu_value, __cuemu_size));
}

inline CUresult cuCoredumpGetAttributeGlobal(CUcoredumpSettings __cuemu_attrib,
                                             void *__cuemu_value,
                                             size_t *__cuemu_size) {
  CUEMU_DRV_SYMBOL(cuCoredumpGetAttributeGlobal);
  return static_cast<CUresult>(cuemu_drv_coredump_get_attribute(
      1, __cuemu_attrib, __cuemu_value, __cuemu_size));
}

inline CUresult cuCoredumpSetAttribute(CUcoredumpSettings __cuemu_attrib,
                                       void *__cuemu_value,
                                       size_t *__cuemu_size) {
  CUEMU_DRV_SYMBOL(cuCoredumpSetAttribute);
  return static_cast<CUresult>(cuemu_drv_coredump_set_attribute(
      0, __cuemu_attrib, __cuemu_value, __cuemu_size));
}

inline CUresult cuCoredumpSetAttributeGlobal(CUcoredumpSettings __cuemu_attrib,
                                             void *__cuemu_value,
                                             size_t *__cuemu_size) {
  CUEMU_DRV_SYMBOL(cuCoredumpSetAttributeGlobal);
  return static_cast<CUresult>(cuemu_drv_coredump_set_attribute(
      1, __cuemu_attrib, __cuemu_value, __cuemu_size));
}

/* 0: cuCtxCreate takes no execution affinity. */
inline CUresult cuDeviceGetExecAffinitySupport(int *__cuemu_pi,
                                               CUexecAffinityType __cuemu_type,
                                               CUdevice __cuemu_dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetExecAffinitySupport);
  int __cuemu_count = 0;
  CUresult __cuemu_e = cuDeviceGetCount(&__cuemu_count);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  if (!__cuemu_pi || __cuemu_type < CU_EXEC_AFFINITY_TYPE_SM_COUNT ||
      __cuemu_type >= CU_EXEC_AFFINITY_TYPE_MAX)
    return CUDA_ERROR_INVALID_VALUE;
  if (__cuemu_dev < 0 || __cuemu_dev >= __cuemu_count)
    return CUDA_ERROR_INVALID_DEVICE;
  *__cuemu_pi = 0;
  return CUDA_SUCCESS;
}

/* The current context's SMs: all of its device's. */
inline CUresult cuCtxGetExecAffinity(CUexecAffinityParam *__cuemu_p,
                                     CUexecAffinityType __cuemu_type) {
  CUEMU_DRV_SYMBOL(cuCtxGetExecAffinity);
  CUdevice __cuemu_dev = 0;
  CUresult __cuemu_e = cuCtxGetDevice(&__cuemu_dev);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  if (!__cuemu_p)
    return CUDA_ERROR_INVALID_VALUE;
  if (__cuemu_type != CU_EXEC_AFFINITY_TYPE_SM_COUNT)
    return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
  int __cuemu_sms = 0;
  __cuemu_e = cuDeviceGetAttribute(
      &__cuemu_sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, __cuemu_dev);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  __cuemu_p->type = CU_EXEC_AFFINITY_TYPE_SM_COUNT;
  __cuemu_p->param.smCount.val = static_cast<unsigned>(__cuemu_sms);
  return CUDA_SUCCESS;
}

#endif /* CUEMU_DRIVER_COREDUMP_API_H */
