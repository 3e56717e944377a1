/*
 * cuemu_func_info_api.h: what the runtime API says about a kernel beyond
 * its attributes (cudaFuncGetParamInfo, cudaFuncGetName), in CUDA 13's
 * signatures, for a kernel of the program (by address, as `const void *`,
 * or as the kernel itself, as cuda_runtime.h's template takes it) or a
 * library's cudaKernel_t. Included at the end of cuda_runtime_api.h.
 */
#ifndef CUEMU_FUNC_INFO_API_H
#define CUEMU_FUNC_INFO_API_H

#include "cuda_runtime_api.h"

#include <cuemu/cuemu_runtime_streams.h>

inline cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex,
                                        size_t *paramOffset,
                                        size_t *paramSize) {
  return static_cast<cudaError_t>(
      cuemu_rt_func_get_param_info(func, paramIndex, paramOffset, paramSize));
}

inline cudaError_t cudaFuncGetName(const char **name, const void *func) {
  return static_cast<cudaError_t>(cuemu_rt_func_get_name(name, func));
}

/* cuda_runtime.h's form: the kernel itself. */
template <class T>
inline cudaError_t cudaFuncGetName(const char **name, T *func) {
  return cudaFuncGetName(name, (const void *)func);
}

#endif /* CUEMU_FUNC_INFO_API_H */
