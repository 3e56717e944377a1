/*
 * cuemu_memcpy_batch_api.h: the runtime API's batched copies,
 * cudaMemcpyBatchAsync and cudaMemcpy3DBatchAsync (CUDA 13's signatures,
 * and CUDA 12.8's with a failIdx as a deprecated overload, as
 * cuemu_managed_api.h keeps CUDA 12's forms), and the C++ spellings of
 * cudaMemDiscardAndPrefetchBatchAsync with typed pointers. Each forwards
 * to libcuemu (cuemu/cuemu_rt_memcpy_batch.h). Included by
 * cuda_runtime_api.h.
 */
#ifndef CUEMU_MEMCPY_BATCH_API_H
#define CUEMU_MEMCPY_BATCH_API_H

#include <cstddef>

#include <cuemu/cuemu_rt_memcpy_batch.h>

#include "cuemu_managed_api.h"

#define CUEMU_CUDA128_FORM                                                     \
  [[deprecated("this is CUDA 12.8's form; CUDA 13 (the toolkit cuemu "        \
               "follows) has no failIdx")]]

namespace cuemu {
namespace rt {
/* Stream 0 is the per-thread default stream in a program built for it (a
 * batch refuses the legacy one). */
inline cudaStream_t batch_stream(cudaStream_t stream) {
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
  if (stream == 0)
    return cudaStreamPerThread;
#endif
  return stream;
}
} // namespace rt
} // namespace cuemu

inline cudaError_t cudaMemcpyBatchAsync(void *const *dsts,
                                        const void *const *srcs,
                                        const size_t *sizes, size_t count,
                                        struct cudaMemcpyAttributes *attrs,
                                        size_t *attrsIdxs, size_t numAttrs,
                                        cudaStream_t stream) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_batch_async(
      dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, nullptr,
      cuemu::rt::batch_stream(stream)));
}

CUEMU_CUDA128_FORM
inline cudaError_t cudaMemcpyBatchAsync(void **dsts, void **srcs,
                                        size_t *sizes, size_t count,
                                        struct cudaMemcpyAttributes *attrs,
                                        size_t *attrsIdxs, size_t numAttrs,
                                        size_t *failIdx, cudaStream_t stream) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_batch_async(
      dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx,
      cuemu::rt::batch_stream(stream)));
}

inline cudaError_t cudaMemcpy3DBatchAsync(size_t numOps,
                                          struct cudaMemcpy3DBatchOp *opList,
                                          unsigned long long flags,
                                          cudaStream_t stream) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_3d_batch_async(
      numOps, opList, flags, nullptr, cuemu::rt::batch_stream(stream)));
}

CUEMU_CUDA128_FORM
inline cudaError_t cudaMemcpy3DBatchAsync(size_t numOps,
                                          struct cudaMemcpy3DBatchOp *opList,
                                          size_t *failIdx,
                                          unsigned long long flags,
                                          cudaStream_t stream) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_3d_batch_async(
      numOps, opList, flags, failIdx, cuemu::rt::batch_stream(stream)));
}

/* CUDA's C++ spellings with typed pointers (cuda_runtime.h). */
template <class T>
inline cudaError_t cudaMemDiscardAndPrefetchBatchAsync(
    T **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream) {
  return cudaMemDiscardAndPrefetchBatchAsync(
      reinterpret_cast<void **>(dptrs), sizes, count, prefetchLocs,
      prefetchLocIdxs, numPrefetchLocs, flags, stream);
}

template <class T>
inline cudaError_t cudaMemDiscardAndPrefetchBatchAsync(
    T **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation prefetchLoc, unsigned long long flags,
    cudaStream_t stream) {
  size_t first = 0;
  return cudaMemDiscardAndPrefetchBatchAsync(reinterpret_cast<void **>(dptrs),
                                             sizes, count, &prefetchLoc,
                                             &first, 1, flags, stream);
}

#undef CUEMU_CUDA128_FORM

#endif /* CUEMU_MEMCPY_BATCH_API_H */
