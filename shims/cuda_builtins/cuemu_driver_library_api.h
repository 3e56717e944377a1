/*
 * cuemu_driver_library_api.h: the driver API's libraries and kernels
 * (cuLibrary*, cuKernel*), context-independent modules: each call forwards
 * to libcuemu (cuemu/cuemu_driver_library.h says what a library is here).
 * A CUkernel is the library's CUfunction, so cuKernelGetFunction gives the
 * same handle. Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_LIBRARY_API_H
#define CUEMU_DRIVER_LIBRARY_API_H

/* The driver API's types (this header is read at the end of cuda.h). */

#include <cuemu/cuemu_driver_library.h>

typedef struct CUkern_st *CUkernel;

namespace cuemu {
namespace drv {
/* The option arrays are there when they are counted. */
inline bool library_options(const void *jit, void **jit_values, unsigned njit,
                            const void *lib, void **lib_values,
                            unsigned nlib) {
  return (!njit || (jit && jit_values)) && (!nlib || (lib && lib_values));
}
} // namespace drv
} // namespace cuemu

/* JIT and library options are accepted: a cuemu module has nothing to
 * compile and is always copied. */
inline CUresult cuLibraryLoadData(CUlibrary *library, const void *code,
                                  CUjit_option *jitOptions,
                                  void **jitOptionsValues,
                                  unsigned int numJitOptions,
                                  CUlibraryOption *libraryOptions,
                                  void **libraryOptionValues,
                                  unsigned int numLibraryOptions) {
  CUEMU_DRV_SYMBOL(cuLibraryLoadData);
  if (!cuemu::drv::library_options(jitOptions, jitOptionsValues,
                                   numJitOptions, libraryOptions,
                                   libraryOptionValues, numLibraryOptions))
    return CUDA_ERROR_INVALID_VALUE;
  return static_cast<CUresult>(cuemu_drv_library_load_data(
      reinterpret_cast<void **>(library), code));
}

inline CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName,
                                      CUjit_option *jitOptions,
                                      void **jitOptionsValues,
                                      unsigned int numJitOptions,
                                      CUlibraryOption *libraryOptions,
                                      void **libraryOptionValues,
                                      unsigned int numLibraryOptions) {
  CUEMU_DRV_SYMBOL(cuLibraryLoadFromFile);
  if (!cuemu::drv::library_options(jitOptions, jitOptionsValues,
                                   numJitOptions, libraryOptions,
                                   libraryOptionValues, numLibraryOptions))
    return CUDA_ERROR_INVALID_VALUE;
  return static_cast<CUresult>(cuemu_drv_library_load_from_file(
      reinterpret_cast<void **>(library), fileName));
}

inline CUresult cuLibraryUnload(CUlibrary library) {
  CUEMU_DRV_SYMBOL(cuLibraryUnload);
  return static_cast<CUresult>(cuemu_drv_library_unload(library));
}

inline CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library,
                                   const char *name) {
  CUEMU_DRV_SYMBOL(cuLibraryGetKernel);
  return static_cast<CUresult>(cuemu_drv_library_get_kernel(
      reinterpret_cast<void **>(pKernel), library, name));
}

inline CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib) {
  CUEMU_DRV_SYMBOL(cuLibraryGetKernelCount);
  return static_cast<CUresult>(cuemu_drv_library_get_kernel_count(count, lib));
}

inline CUresult cuLibraryEnumerateKernels(CUkernel *kernels,
                                          unsigned int numKernels,
                                          CUlibrary lib) {
  CUEMU_DRV_SYMBOL(cuLibraryEnumerateKernels);
  return static_cast<CUresult>(cuemu_drv_library_enumerate_kernels(
      reinterpret_cast<void **>(kernels), numKernels, lib));
}

inline CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library) {
  CUEMU_DRV_SYMBOL(cuLibraryGetModule);
  return static_cast<CUresult>(cuemu_drv_library_get_module(
      reinterpret_cast<void **>(pMod), library));
}

inline CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes,
                                   CUlibrary library, const char *name) {
  CUEMU_DRV_SYMBOL(cuLibraryGetGlobal);
  return static_cast<CUresult>(
      cuemu_drv_library_get_global(dptr, bytes, library, name));
}

inline CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes,
                                    CUlibrary library, const char *name) {
  CUEMU_DRV_SYMBOL(cuLibraryGetManaged);
  return static_cast<CUresult>(
      cuemu_drv_library_get_global(dptr, bytes, library, name));
}

inline CUresult cuLibraryGetUnifiedFunction(void **fptr, CUlibrary library,
                                            const char *symbol) {
  CUEMU_DRV_SYMBOL(cuLibraryGetUnifiedFunction);
  return static_cast<CUresult>(
      cuemu_drv_library_get_unified_function(fptr, library, symbol));
}

inline CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel) {
  CUEMU_DRV_SYMBOL(cuKernelGetFunction);
  return static_cast<CUresult>(cuemu_drv_kernel_get_function(
      reinterpret_cast<void **>(pFunc), kernel));
}

inline CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel) {
  CUEMU_DRV_SYMBOL(cuKernelGetLibrary);
  return static_cast<CUresult>(
      cuemu_drv_kernel_get_library(reinterpret_cast<void **>(pLib), kernel));
}

/* The attributes are the kernel's on every device; those read from the
 * device model (the most threads, the shared memory limits) are `dev`'s.
 * No current context is needed, as in CUDA. */
inline CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib,
                                     CUkernel kernel, CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuKernelGetAttribute);
  return static_cast<CUresult>(
      cuemu_drv_kernel_get_attribute(pi, attrib, kernel, dev));
}

inline CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val,
                                     CUkernel kernel, CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuKernelSetAttribute);
  return static_cast<CUresult>(
      cuemu_drv_kernel_set_attribute(attrib, val, kernel, dev));
}

inline CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex,
                                     size_t *paramOffset, size_t *paramSize) {
  CUEMU_DRV_SYMBOL(cuKernelGetParamInfo);
  return static_cast<CUresult>(cuemu_drv_kernel_get_param_info(
      kernel, paramIndex, paramOffset, paramSize));
}

inline CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config,
                                       CUdevice dev) {
  CUEMU_DRV_SYMBOL(cuKernelSetCacheConfig);
  (void)dev;
  return cuFuncSetCacheConfig(reinterpret_cast<CUfunction>(kernel), config);
}

inline CUresult cuKernelGetName(const char **name, CUkernel hfunc) {
  CUEMU_DRV_SYMBOL(cuKernelGetName);
  return static_cast<CUresult>(cuemu_drv_kernel_get_name(name, hfunc));
}

#endif /* CUEMU_DRIVER_LIBRARY_API_H */
