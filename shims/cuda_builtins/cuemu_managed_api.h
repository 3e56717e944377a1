/*
 * cuemu_managed_api.h: unified-memory hints of the runtime API:
 * cudaMemPrefetchAsync and cudaMemAdvise, cudaMemRangeGetAttribute(s) and
 * cudaStreamAttachMemAsync. Each call forwards to libcuemu
 * (cuemu/cuemu_runtime_host.h), which validates and records the hints; no
 * data moves, host and device sharing one memory.
 *
 * The shims are CUDA 13 (CUDART_VERSION 13000), whose headers have only
 * the forms with a cudaMemLocation: the CUDA 12 forms (a device ordinal;
 * cudaMemPrefetchAsync_v2 and cudaMemAdvise_v2) are not declared, so a
 * call of one is refused as nvcc with CUDA 13's headers refuses it (an
 * int does not convert to a cudaMemLocation; the _v2 names are
 * undeclared). Included by cuemu_host_api.h.
 */
#ifndef CUEMU_MANAGED_API_H
#define CUEMU_MANAGED_API_H

#include <cstddef>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_host.h>

#include "driver_types.h"

namespace cuemu {
namespace rt {
/* The location of a CUDA 12 device ordinal (cudaCpuDeviceId: the host),
 * for the driver API's entry points of the old ABI
 * (cuemu_driver_old_abi_api.h). */
inline cudaMemLocation location_of(int device) {
  cudaMemLocation l;
  l.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost
                                     : cudaMemLocationTypeDevice;
  l.id = device == cudaCpuDeviceId ? 0 : device;
  return l;
}
} // namespace rt
} // namespace cuemu

inline cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                        struct cudaMemLocation location,
                                        unsigned int flags,
                                        cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_prefetch_async(devPtr, count, location, flags, stream));
}

inline cudaError_t cudaMemPrefetchBatchAsync(
    void **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream) {
  return static_cast<cudaError_t>(cuemu_rt_mem_batch_async(
      dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
      flags, stream, 0));
}

/* CUDA's C++ spelling with typed pointers. */
template <class T>
inline cudaError_t cudaMemPrefetchBatchAsync(
    T **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream) {
  return cudaMemPrefetchBatchAsync(reinterpret_cast<void **>(dptrs), sizes,
                                   count, prefetchLocs, prefetchLocIdxs,
                                   numPrefetchLocs, flags, stream);
}

/* One location for the whole batch. */
template <class T>
inline cudaError_t cudaMemPrefetchBatchAsync(T **dptrs, size_t *sizes,
                                             size_t count,
                                             struct cudaMemLocation prefetchLoc,
                                             unsigned long long flags,
                                             cudaStream_t stream) {
  size_t first = 0;
  return cudaMemPrefetchBatchAsync(reinterpret_cast<void **>(dptrs), sizes,
                                   count, &prefetchLoc, &first, 1, flags,
                                   stream);
}

inline cudaError_t cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes,
                                            size_t count,
                                            unsigned long long flags,
                                            cudaStream_t stream) {
  return static_cast<cudaError_t>(cuemu_rt_mem_batch_async(
      dptrs, sizes, count, nullptr, nullptr, 0, flags, stream, 1));
}

inline cudaError_t cudaMemDiscardAndPrefetchBatchAsync(
    void **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream) {
  return static_cast<cudaError_t>(cuemu_rt_mem_batch_async(
      dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
      flags, stream, 2));
}

inline cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                 enum cudaMemoryAdvise advice,
                                 struct cudaMemLocation location) {
  return static_cast<cudaError_t>(
      cuemu_rt_mem_advise(devPtr, count, advice, location));
}

inline cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize,
                                            enum cudaMemRangeAttribute attribute,
                                            const void *devPtr, size_t count) {
  return static_cast<cudaError_t>(cuemu_rt_mem_range_get_attribute(
      data, dataSize, attribute, devPtr, count));
}

inline cudaError_t cudaMemRangeGetAttributes(
    void **data, size_t *dataSizes, enum cudaMemRangeAttribute *attributes,
    size_t numAttributes, const void *devPtr, size_t count) {
  if (!data || !dataSizes || !attributes || numAttributes == 0)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  for (size_t __cuemu_i = 0; __cuemu_i < numAttributes; ++__cuemu_i) {
    cudaError_t e = cudaMemRangeGetAttribute(data[__cuemu_i], dataSizes[__cuemu_i],
                                             attributes[__cuemu_i], devPtr, count);
    if (e != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}

inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr,
                                            size_t length = 0,
                                            unsigned int flags =
                                                cudaMemAttachSingle) {
  return static_cast<cudaError_t>(
      cuemu_rt_stream_attach_mem_async(stream, devPtr, length, flags));
}

template <class T>
inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr,
                                            size_t length = 0,
                                            unsigned int flags =
                                                cudaMemAttachSingle) {
  return cudaStreamAttachMemAsync(
      stream, const_cast<void *>(static_cast<const volatile void *>(devPtr)),
      length, flags);
}


#endif /* CUEMU_MANAGED_API_H */
