/*
 * cuemu_driver_legacy_launch_api.h: the launch calls of before CUDA 4.0,
 * which CUDA 13's cuda.h still declares, deprecated: a function's block
 * shape, dynamic shared memory size and parameter buffer, set one by one,
 * and cuLaunch, cuLaunchGrid and cuLaunchGridAsync, which launch it with
 * them (emulator/runtime/cuemu_drv_legacy_launch.c); and
 * cuFuncSetSharedMemConfig, accepted as cuCtxSetSharedMemConfig is. As
 * with CUDA, each is deprecated unless CUDA_ENABLE_DEPRECATED is defined.
 * Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_LEGACY_LAUNCH_API_H
#define CUEMU_DRIVER_LEGACY_LAUNCH_API_H

#if defined(CUDA_ENABLE_DEPRECATED)
#define CUEMU_DRV_DEPRECATED_
#else
#define CUEMU_DRV_DEPRECATED_ __attribute__((deprecated))
#endif

/* The deprecation, on declarations of their own (the definitions below
 * begin with `inline CUresult`, as scripts/driver_entry_points.py reads
 * them). */
CUEMU_DRV_DEPRECATED_ inline CUresult cuFuncSetBlockShape(CUfunction, int, int, int);
CUEMU_DRV_DEPRECATED_ inline CUresult cuFuncSetSharedSize(CUfunction, unsigned int);
CUEMU_DRV_DEPRECATED_ inline CUresult cuParamSetSize(CUfunction, unsigned int);
CUEMU_DRV_DEPRECATED_ inline CUresult cuParamSeti(CUfunction, int, unsigned int);
CUEMU_DRV_DEPRECATED_ inline CUresult cuParamSetf(CUfunction, int, float);
CUEMU_DRV_DEPRECATED_ inline CUresult cuParamSetv(CUfunction, int, void *,
                                                  unsigned int);
CUEMU_DRV_DEPRECATED_ inline CUresult cuLaunch(CUfunction);
CUEMU_DRV_DEPRECATED_ inline CUresult cuLaunchGrid(CUfunction, int, int);
CUEMU_DRV_DEPRECATED_ inline CUresult cuLaunchGridAsync(CUfunction, int, int,
                                                        CUstream);
CUEMU_DRV_DEPRECATED_ inline CUresult cuFuncSetSharedMemConfig(CUfunction,
                                                               CUsharedconfig);

inline CUresult cuFuncSetBlockShape(CUfunction __cuemu_hfunc, int __cuemu_x,
                                    int __cuemu_y, int __cuemu_z) {
  CUEMU_DRV_SYMBOL(cuFuncSetBlockShape);
  return static_cast<CUresult>(cuemu_drv_func_set_block_shape(
      __cuemu_hfunc, __cuemu_x, __cuemu_y, __cuemu_z));
}

inline CUresult cuFuncSetSharedSize(CUfunction __cuemu_hfunc,
                                    unsigned int __cuemu_bytes) {
  CUEMU_DRV_SYMBOL(cuFuncSetSharedSize);
  return static_cast<CUresult>(
      cuemu_drv_func_set_shared_size(__cuemu_hfunc, __cuemu_bytes));
}

inline CUresult cuParamSetSize(CUfunction __cuemu_hfunc,
                               unsigned int __cuemu_numbytes) {
  CUEMU_DRV_SYMBOL(cuParamSetSize);
  return static_cast<CUresult>(
      cuemu_drv_param_set_size(__cuemu_hfunc, __cuemu_numbytes));
}

inline CUresult cuParamSeti(CUfunction __cuemu_hfunc, int __cuemu_offset,
                            unsigned int __cuemu_value) {
  CUEMU_DRV_SYMBOL(cuParamSeti);
  return static_cast<CUresult>(cuemu_drv_param_set(
      __cuemu_hfunc, __cuemu_offset, &__cuemu_value, sizeof __cuemu_value));
}

inline CUresult cuParamSetf(CUfunction __cuemu_hfunc, int __cuemu_offset,
                            float __cuemu_value) {
  CUEMU_DRV_SYMBOL(cuParamSetf);
  return static_cast<CUresult>(cuemu_drv_param_set(
      __cuemu_hfunc, __cuemu_offset, &__cuemu_value, sizeof __cuemu_value));
}

inline CUresult cuParamSetv(CUfunction __cuemu_hfunc, int __cuemu_offset,
                            void *__cuemu_ptr, unsigned int __cuemu_numbytes) {
  CUEMU_DRV_SYMBOL(cuParamSetv);
  return static_cast<CUresult>(cuemu_drv_param_set(
      __cuemu_hfunc, __cuemu_offset, __cuemu_ptr, __cuemu_numbytes));
}

/* One block: a grid of 1 x 1. */
inline CUresult cuLaunch(CUfunction __cuemu_f) {
  CUEMU_DRV_SYMBOL(cuLaunch);
  return static_cast<CUresult>(
      cuemu_drv_launch_grid(__cuemu_f, 1, 1, nullptr));
}

inline CUresult cuLaunchGrid(CUfunction __cuemu_f, int __cuemu_grid_width,
                             int __cuemu_grid_height) {
  CUEMU_DRV_SYMBOL(cuLaunchGrid);
  return static_cast<CUresult>(cuemu_drv_launch_grid(
      __cuemu_f, __cuemu_grid_width, __cuemu_grid_height, nullptr));
}

inline CUresult cuLaunchGridAsync(CUfunction __cuemu_f,
                                  int __cuemu_grid_width,
                                  int __cuemu_grid_height,
                                  CUstream __cuemu_hStream) {
  CUEMU_DRV_SYMBOL(cuLaunchGridAsync);
  return static_cast<CUresult>(
      cuemu_drv_launch_grid(__cuemu_f, __cuemu_grid_width,
                            __cuemu_grid_height, __cuemu_hStream));
}

/* Accepted for a live function and a CUsharedconfig: shared memory has no
 * banks to configure (as cuCtxSetSharedMemConfig). */
inline CUresult cuFuncSetSharedMemConfig(CUfunction __cuemu_hfunc,
                                         CUsharedconfig __cuemu_config) {
  CUEMU_DRV_SYMBOL(cuFuncSetSharedMemConfig);
  int __cuemu_e = cuemu_drv_check_context();
  if (__cuemu_e)
    return static_cast<CUresult>(__cuemu_e);
  int __cuemu_max = 0;
  if (!__cuemu_hfunc ||
      cuemu_drv_func_get_attribute(&__cuemu_max,
                                   CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                   __cuemu_hfunc))
    return CUDA_ERROR_INVALID_HANDLE;
  return __cuemu_config >= CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE &&
                 __cuemu_config <= CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE
             ? CUDA_SUCCESS
             : CUDA_ERROR_INVALID_VALUE;
}

#endif /* CUEMU_DRIVER_LEGACY_LAUNCH_API_H */
