/*
 * cuda_runtime_api.h: the minimal CUDA runtime API of whole programs:
 * memory (cudaMalloc, cudaMallocManaged, cudaFree, cudaMemcpy, cudaMemset),
 * cudaDeviceSynchronize and errors (cudaGetLastError, cudaPeekAtLastError,
 * cudaGetErrorString, cudaGetErrorName).
 *
 * Memory is host memory: every pointer is valid on both sides, as with
 * managed memory. Launches run to completion before they return, so a
 * kernel's execution error is known at once; as on a GPU it is "sticky":
 * cudaDeviceSynchronize() and cudaMemcpy() return it from then on.
 */
#ifndef CUEMU_CUDA_RUNTIME_API_H
#define CUEMU_CUDA_RUNTIME_API_H

#include <cstddef>
#include <cstdlib>
#include <cstring>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_status.h>

#include "driver_types.h"

/* The last error of this host thread, and the sticky execution error. */
inline thread_local cudaError_t cuemu_rt_last_error = cudaSuccess;
inline cudaError_t cuemu_rt_sticky_error = cudaSuccess;

inline cudaError_t cuemu_rt_fail(cudaError_t e) {
  if (e != cudaSuccess)
    cuemu_rt_last_error = e;
  return e;
}

/* The CUDA error a launch status becomes. */
inline cudaError_t cuemu_rt_error_of(int status) {
  switch (status) {
  case CUEMU_SUCCESS: return cudaSuccess;
  case CUEMU_INVALID_GRID_DIM:
  case CUEMU_INVALID_BLOCK_DIM:
  case CUEMU_TOO_MANY_THREADS: return cudaErrorInvalidConfiguration;
  case CUEMU_SHARED_MEMORY_LIMIT:
  case CUEMU_INVALID_VALUE:
  case CUEMU_ARGUMENT_COUNT: return cudaErrorInvalidValue;
  case CUEMU_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
  case CUEMU_KERNEL_FAULT: return cudaErrorIllegalAddress;
  case CUEMU_ASSERT: return cudaErrorAssert;
  case CUEMU_DEADLOCK: return cudaErrorLaunchTimeout;
  case CUEMU_NOT_SUPPORTED: return cudaErrorNotSupported;
  default: return cudaErrorLaunchFailure;
  }
}

/* Records the outcome of a launch: configuration errors are returned by
 * cudaGetLastError(); execution errors become sticky. */
inline void cuemu_rt_record_launch(int status) {
  cudaError_t e = cuemu_rt_error_of(status);
  if (e == cudaSuccess)
    return;
  cuemu_rt_last_error = e;
  if (status >= CUEMU_DIVERGENT_BARRIER && status <= CUEMU_TRAP)
    cuemu_rt_sticky_error = e;
}

inline cudaError_t cudaGetLastError(void) {
  cudaError_t e = cuemu_rt_last_error;
  cuemu_rt_last_error = cuemu_rt_sticky_error;
  return e;
}

inline cudaError_t cudaPeekAtLastError(void) { return cuemu_rt_last_error; }

inline const char *cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define CUEMU_CUDA_ERROR_NAME_(name, value, text)                              \
  case name:                                                                   \
    return #name;
    CUEMU_CUDA_ERROR_MAP(CUEMU_CUDA_ERROR_NAME_)
#undef CUEMU_CUDA_ERROR_NAME_
  }
  return "cudaErrorUnknown";
}

inline const char *cudaGetErrorString(cudaError_t error) {
  switch (error) {
#define CUEMU_CUDA_ERROR_TEXT_(name, value, text)                              \
  case name:                                                                   \
    return text;
    CUEMU_CUDA_ERROR_MAP(CUEMU_CUDA_ERROR_TEXT_)
#undef CUEMU_CUDA_ERROR_TEXT_
  }
  return "unrecognized error code";
}

inline cudaError_t cudaDeviceSynchronize(void) { return cuemu_rt_sticky_error; }

inline cudaError_t cudaMalloc(void **ptr, size_t size) {
  if (!ptr)
    return cuemu_rt_fail(cudaErrorInvalidValue);
  if (size == 0) {
    *ptr = nullptr;
    return cudaSuccess;
  }
  /* cudaMalloc memory is aligned to at least 256 bytes. */
  void *p = std::aligned_alloc(256, (size + 255) / 256 * 256);
  if (!p)
    return cuemu_rt_fail(cudaErrorMemoryAllocation);
  *ptr = p;
  return cudaSuccess;
}

template <typename T> inline cudaError_t cudaMalloc(T **ptr, size_t size) {
  return cudaMalloc(reinterpret_cast<void **>(ptr), size);
}

inline cudaError_t cudaMallocManaged(void **ptr, size_t size,
                                     unsigned int flags = cudaMemAttachGlobal) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return cuemu_rt_fail(cudaErrorInvalidValue);
  return cudaMalloc(ptr, size);
}

template <typename T>
inline cudaError_t cudaMallocManaged(T **ptr, size_t size,
                                     unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void **>(ptr), size, flags);
}

inline cudaError_t cudaFree(void *ptr) {
  std::free(ptr);
  return cuemu_rt_sticky_error;
}

inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                              cudaMemcpyKind kind) {
  if (cuemu_rt_sticky_error != cudaSuccess)
    return cuemu_rt_sticky_error;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return cuemu_rt_fail(cudaErrorInvalidMemcpyDirection);
  if (count && (!dst || !src))
    return cuemu_rt_fail(cudaErrorInvalidValue);
  if (count)
    std::memmove(dst, src, count);
  return cudaSuccess;
}

inline cudaError_t cudaMemset(void *ptr, int value, size_t count) {
  if (cuemu_rt_sticky_error != cudaSuccess)
    return cuemu_rt_sticky_error;
  if (count && !ptr)
    return cuemu_rt_fail(cudaErrorInvalidValue);
  if (count)
    std::memset(ptr, value, count);
  return cudaSuccess;
}

#endif /* CUEMU_CUDA_RUNTIME_API_H */
