/*
 * cuemu_driver_multicast_api.h: the driver calls of NVLink multicast
 * objects (cuMulticast*) and of dma-buf export
 * (cuMemGetHandleForAddressRange), which programs of several GPUs (NCCL's
 * kind) name and call only where the device says it supports them: no
 * emulated device does (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED and
 * CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED are 0), so each is refused with
 * CUDA_ERROR_NOT_SUPPORTED, as CUDA refuses them on such a device, after
 * the checks of initialisation and of its outputs. They exist so that such
 * programs compile. Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_MULTICAST_API_H
#define CUEMU_DRIVER_MULTICAST_API_H

/* CUmemRangeHandleType, CUmemRangeFlags and CUmulticastGranularity_flags
 * are in cuemu_driver_types.h. */
typedef struct CUmulticastObjectProp_st {
  unsigned int numDevices;
  size_t size;
  unsigned long long handleTypes;
  unsigned long long flags;
} CUmulticastObjectProp_v1;
typedef CUmulticastObjectProp_v1 CUmulticastObjectProp;

/* CUDA_ERROR_NOT_INITIALIZED before cuInit, CUDA_ERROR_INVALID_VALUE for a
 * NULL output (`__cuemu_has_output` 0), else CUDA_ERROR_NOT_SUPPORTED. */
inline CUresult __cuemu_multicast_refusal(int __cuemu_has_output) {
  int __cuemu_count = 0;
  CUresult __cuemu_e = cuDeviceGetCount(&__cuemu_count);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  return __cuemu_has_output ? CUDA_ERROR_NOT_SUPPORTED
                            : CUDA_ERROR_INVALID_VALUE;
}

/* cuemu-status: refused (no emulated device supports dma-buf export) */
inline CUresult cuMemGetHandleForAddressRange(
    void *__cuemu_handle, CUdeviceptr __cuemu_dptr, size_t __cuemu_size,
    CUmemRangeHandleType __cuemu_type, unsigned long long __cuemu_flags) {
  CUEMU_DRV_SYMBOL(cuMemGetHandleForAddressRange);
  (void)__cuemu_dptr;
  (void)__cuemu_size;
  (void)__cuemu_type;
  (void)__cuemu_flags;
  return __cuemu_multicast_refusal(__cuemu_handle != nullptr);
}

/* cuemu-status: refused (no emulated device supports multicast) */
inline CUresult cuMulticastCreate(CUmemGenericAllocationHandle *__cuemu_mc,
                                  const CUmulticastObjectProp *__cuemu_prop) {
  CUEMU_DRV_SYMBOL(cuMulticastCreate);
  return __cuemu_multicast_refusal(__cuemu_mc != nullptr &&
                                   __cuemu_prop != nullptr);
}

/* cuemu-status: refused (no emulated device supports multicast) */
inline CUresult cuMulticastAddDevice(CUmemGenericAllocationHandle __cuemu_mc,
                                     CUdevice __cuemu_dev) {
  CUEMU_DRV_SYMBOL(cuMulticastAddDevice);
  (void)__cuemu_mc;
  (void)__cuemu_dev;
  return __cuemu_multicast_refusal(1);
}

/* cuemu-status: refused (no emulated device supports multicast) */
inline CUresult cuMulticastBindMem(CUmemGenericAllocationHandle __cuemu_mc,
                                   size_t __cuemu_mc_offset,
                                   CUmemGenericAllocationHandle __cuemu_mem,
                                   size_t __cuemu_mem_offset,
                                   size_t __cuemu_size,
                                   unsigned long long __cuemu_flags) {
  CUEMU_DRV_SYMBOL(cuMulticastBindMem);
  (void)__cuemu_mc;
  (void)__cuemu_mc_offset;
  (void)__cuemu_mem;
  (void)__cuemu_mem_offset;
  (void)__cuemu_size;
  (void)__cuemu_flags;
  return __cuemu_multicast_refusal(1);
}

/* cuemu-status: refused (no emulated device supports multicast) */
inline CUresult cuMulticastBindAddr(CUmemGenericAllocationHandle __cuemu_mc,
                                    size_t __cuemu_mc_offset,
                                    CUdeviceptr __cuemu_memptr,
                                    size_t __cuemu_size,
                                    unsigned long long __cuemu_flags) {
  CUEMU_DRV_SYMBOL(cuMulticastBindAddr);
  (void)__cuemu_mc;
  (void)__cuemu_mc_offset;
  (void)__cuemu_memptr;
  (void)__cuemu_size;
  (void)__cuemu_flags;
  return __cuemu_multicast_refusal(1);
}

/* cuemu-status: refused (no emulated device supports multicast) */
inline CUresult cuMulticastUnbind(CUmemGenericAllocationHandle __cuemu_mc,
                                  CUdevice __cuemu_dev,
                                  size_t __cuemu_mc_offset,
                                  size_t __cuemu_size) {
  CUEMU_DRV_SYMBOL(cuMulticastUnbind);
  (void)__cuemu_mc;
  (void)__cuemu_dev;
  (void)__cuemu_mc_offset;
  (void)__cuemu_size;
  return __cuemu_multicast_refusal(1);
}

/* cuemu-status: refused (no emulated device supports multicast) */
inline CUresult
cuMulticastGetGranularity(size_t *__cuemu_granularity,
                          const CUmulticastObjectProp *__cuemu_prop,
                          CUmulticastGranularity_flags __cuemu_option) {
  CUEMU_DRV_SYMBOL(cuMulticastGetGranularity);
  (void)__cuemu_option;
  return __cuemu_multicast_refusal(__cuemu_granularity != nullptr &&
                                   __cuemu_prop != nullptr);
}

#endif /* CUEMU_DRIVER_MULTICAST_API_H */
