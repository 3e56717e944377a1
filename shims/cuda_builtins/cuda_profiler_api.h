/*
 * cuda_profiler_api.h: cudaProfilerStart and cudaProfilerStop, which do
 * nothing under the emulator (there is no profiler to start). In C they
 * are libcuemu_cudart.so's symbols.
 */
#ifndef CUEMU_CUDA_PROFILER_API_H
#define CUEMU_CUDA_PROFILER_API_H

#include <cuemu/cuemu_runtime.h>

#include "driver_types.h"

#ifdef __cplusplus
/* cuemu-status: no effect */
inline cudaError_t cudaProfilerStart(void) {
  return static_cast<cudaError_t>(cuemu_rt_profiler_start());
}

/* cuemu-status: no effect */
inline cudaError_t cudaProfilerStop(void) {
  return static_cast<cudaError_t>(cuemu_rt_profiler_stop());
}
#else
#ifndef CUDARTAPI
#define CUDARTAPI
#endif
extern cudaError_t CUDARTAPI cudaProfilerStart(void);
extern cudaError_t CUDARTAPI cudaProfilerStop(void);
#endif /* __cplusplus */

#endif /* CUEMU_CUDA_PROFILER_API_H */
