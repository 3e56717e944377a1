/*
 * cuemu_library_api.h: the runtime API's libraries (cudaLibraryLoadData,
 * cudaLibraryGetKernel, ...): context-independent modules whose kernels
 * (cudaKernel_t) cudaLaunchKernel, cudaLaunchKernelEx and kernel nodes
 * take. Each call forwards to libcuemu (cuemu/cuemu_driver_library.h).
 * Included at the end of cuda_runtime_api.h.
 */
#ifndef CUEMU_LIBRARY_API_H
#define CUEMU_LIBRARY_API_H

/* The runtime API (this header is read at the end of it). */
#include "cuda_runtime_api.h"

#include <cuemu/cuemu_driver_library.h>
#include <cuemu/cuemu_runtime.h>

#include "cuemu_library_types.h"

namespace cuemu {
namespace lib {
inline cudaError_t err(int code) { return static_cast<cudaError_t>(code); }
/* Option arrays: accepted (no effect) when they are consistent. */
inline bool options_ok(const void *a, void **v, unsigned n) {
  return !n || (a && v);
}
} // namespace lib
} // namespace cuemu

inline cudaError_t cudaLibraryLoadData(
    cudaLibrary_t *library, const void *code, enum cudaJitOption *jitOptions,
    void **jitOptionsValues, unsigned int numJitOptions,
    enum cudaLibraryOption *libraryOptions, void **libraryOptionValues,
    unsigned int numLibraryOptions) {
  if (!cuemu::lib::options_ok(jitOptions, jitOptionsValues, numJitOptions) ||
      !cuemu::lib::options_ok(libraryOptions, libraryOptionValues,
                              numLibraryOptions))
    return cuemu::lib::err(cuemu_rt_error(cudaErrorInvalidValue));
  return cuemu::lib::err(cuemu_rt_library_load_data(
      reinterpret_cast<void **>(library), code));
}

inline cudaError_t cudaLibraryLoadFromFile(
    cudaLibrary_t *library, const char *fileName,
    enum cudaJitOption *jitOptions, void **jitOptionsValues,
    unsigned int numJitOptions, enum cudaLibraryOption *libraryOptions,
    void **libraryOptionValues, unsigned int numLibraryOptions) {
  if (!cuemu::lib::options_ok(jitOptions, jitOptionsValues, numJitOptions) ||
      !cuemu::lib::options_ok(libraryOptions, libraryOptionValues,
                              numLibraryOptions))
    return cuemu::lib::err(cuemu_rt_error(cudaErrorInvalidValue));
  return cuemu::lib::err(cuemu_rt_library_load_from_file(
      reinterpret_cast<void **>(library), fileName));
}

inline cudaError_t cudaLibraryUnload(cudaLibrary_t library) {
  return cuemu::lib::err(cuemu_rt_library_unload(library));
}

inline cudaError_t cudaLibraryGetKernel(cudaKernel_t *pKernel,
                                        cudaLibrary_t library,
                                        const char *name) {
  return cuemu::lib::err(cuemu_rt_library_get_kernel(
      reinterpret_cast<void **>(pKernel), library, name));
}

inline cudaError_t cudaLibraryGetKernelCount(unsigned int *count,
                                             cudaLibrary_t lib) {
  return cuemu::lib::err(cuemu_rt_library_get_kernel_count(count, lib));
}

inline cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t *kernels,
                                               unsigned int numKernels,
                                               cudaLibrary_t lib) {
  return cuemu::lib::err(cuemu_rt_library_enumerate_kernels(
      reinterpret_cast<void **>(kernels), numKernels, lib));
}

inline cudaError_t cudaLibraryGetGlobal(void **dptr, size_t *bytes,
                                        cudaLibrary_t library,
                                        const char *name) {
  return cuemu::lib::err(
      cuemu_rt_library_get_global(dptr, bytes, library, name));
}

inline cudaError_t cudaLibraryGetManaged(void **dptr, size_t *bytes,
                                         cudaLibrary_t library,
                                         const char *name) {
  return cuemu::lib::err(
      cuemu_rt_library_get_global(dptr, bytes, library, name));
}

inline cudaError_t cudaLibraryGetUnifiedFunction(void **fptr,
                                                 cudaLibrary_t library,
                                                 const char *symbol) {
  return cuemu::lib::err(
      cuemu_rt_library_get_unified_function(fptr, library, symbol));
}

#endif /* CUEMU_LIBRARY_API_H */
