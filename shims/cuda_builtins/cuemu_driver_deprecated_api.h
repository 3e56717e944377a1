/*
 * cuemu_driver_deprecated_api.h: driver calls that CUDA's cuda.h still
 * declares though deprecated since CUDA 4.0 and 5.0, which older driver
 * programs call: cuDeviceGetProperties (a CUdevprop made of the device's
 * attributes) and cuCtxAttach/cuCtxDetach (a context's usage count,
 * cuemu_drv_context.c). Deprecated, as with CUDA, unless
 * CUDA_ENABLE_DEPRECATED is defined. Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_DEPRECATED_API_H
#define CUEMU_DRIVER_DEPRECATED_API_H

typedef struct CUdevprop_st {
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int sharedMemPerBlock;
  int totalConstantMemory;
  int SIMDWidth;
  int memPitch;
  int regsPerBlock;
  int clockRate;
  int textureAlign;
} CUdevprop_v1;
typedef CUdevprop_v1 CUdevprop;

/* Deprecated unless CUDA_ENABLE_DEPRECATED is defined, as with CUDA
 * (CUEMU_DRV_DEPRECATED_, cuemu_driver_legacy_launch_api.h). */
CUEMU_DRV_DEPRECATED_ inline CUresult cuDeviceGetProperties(CUdevprop *,
                                                            CUdevice);
CUEMU_DRV_DEPRECATED_ inline CUresult cuCtxAttach(CUcontext *, unsigned int);
CUEMU_DRV_DEPRECATED_ inline CUresult cuCtxDetach(CUcontext);

/* The device's attributes, as cuDeviceGetAttribute gives them. */
inline CUresult cuDeviceGetProperties(CUdevprop *__cuemu_prop,
                                      CUdevice __cuemu_dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetProperties);
  const CUdevice_attribute __cuemu_which[] = {
      CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
      CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
      CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY,
      CU_DEVICE_ATTRIBUTE_WARP_SIZE,
      CU_DEVICE_ATTRIBUTE_MAX_PITCH,
      CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
      CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
      CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT};
  int __cuemu_v[14] = {0};
  for (int __cuemu_i = 0; __cuemu_i < 14; ++__cuemu_i) {
    CUresult __cuemu_e = cuDeviceGetAttribute(
        &__cuemu_v[__cuemu_i], __cuemu_which[__cuemu_i], __cuemu_dev);
    if (__cuemu_e != CUDA_SUCCESS)
      return __cuemu_e;
  }
  if (!__cuemu_prop)
    return CUDA_ERROR_INVALID_VALUE;
  __cuemu_prop->maxThreadsPerBlock = __cuemu_v[0];
  for (int __cuemu_i = 0; __cuemu_i < 3; ++__cuemu_i) {
    __cuemu_prop->maxThreadsDim[__cuemu_i] = __cuemu_v[1 + __cuemu_i];
    __cuemu_prop->maxGridSize[__cuemu_i] = __cuemu_v[4 + __cuemu_i];
  }
  __cuemu_prop->sharedMemPerBlock = __cuemu_v[7];
  __cuemu_prop->totalConstantMemory = __cuemu_v[8];
  __cuemu_prop->SIMDWidth = __cuemu_v[9];
  __cuemu_prop->memPitch = __cuemu_v[10];
  __cuemu_prop->regsPerBlock = __cuemu_v[11];
  __cuemu_prop->clockRate = __cuemu_v[12];
  __cuemu_prop->textureAlign = __cuemu_v[13];
  return CUDA_SUCCESS;
}

/* Adds one to the usage count of the current context and gives it. */
inline CUresult cuCtxAttach(CUcontext *__cuemu_pctx,
                            unsigned int __cuemu_flags) {
  CUEMU_DRV_SYMBOL(cuCtxAttach);
  return static_cast<CUresult>(cuemu_drv_ctx_attach(
      reinterpret_cast<void **>(__cuemu_pctx), __cuemu_flags));
}

/* Takes one from the usage count of `ctx`, which must be current; a
 * created context is destroyed when it reaches 0. */
inline CUresult cuCtxDetach(CUcontext __cuemu_ctx) {
  CUEMU_DRV_SYMBOL(cuCtxDetach);
  return static_cast<CUresult>(cuemu_drv_ctx_detach(__cuemu_ctx));
}

#endif /* CUEMU_DRIVER_DEPRECATED_API_H */
