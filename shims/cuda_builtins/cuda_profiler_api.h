/*
 * cuda_profiler_api.h: cudaProfilerStart and cudaProfilerStop, which do
 * nothing under the emulator (there is no profiler to start).
 */
#ifndef CUEMU_CUDA_PROFILER_API_H
#define CUEMU_CUDA_PROFILER_API_H

#include <cuemu/cuemu_runtime.h>

#include "driver_types.h"

/* cuemu-status: no effect */
inline cudaError_t cudaProfilerStart(void) {
  return static_cast<cudaError_t>(cuemu_rt_profiler_start());
}

/* cuemu-status: no effect */
inline cudaError_t cudaProfilerStop(void) {
  return static_cast<cudaError_t>(cuemu_rt_profiler_stop());
}

#endif /* CUEMU_CUDA_PROFILER_API_H */
