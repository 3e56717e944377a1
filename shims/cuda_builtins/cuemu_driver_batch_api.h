/*
 * cuemu_driver_batch_api.h: the driver API's batches: cuMemcpyBatchAsync
 * and cuMemcpy3DBatchAsync (CUDA 13's, cuda.h's _v2, and CUDA 12.8's with
 * a failIdx, for cuGetProcAddress), with their types (CUmemcpyAttributes,
 * CUDA_MEMCPY3D_BATCH_OP, ...), and cuMemPrefetchBatchAsync, cuMemDiscardBatchAsync and
 * cuMemDiscardAndPrefetchBatchAsync. The types have the runtime's layouts
 * (cuemu/cuemu_rt_memcpy_batch.h), so each call is the runtime's.
 * Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_BATCH_API_H
#define CUEMU_DRIVER_BATCH_API_H

#include "cuemu_driver_pool_api.h"
#include "cuemu_memcpy_batch_api.h"

#include "cuemu_driver_batch_types.h"

namespace cuemu {
namespace drv {
/* The driver's batch structures are the runtime's, member for member. */
static_assert(sizeof(CUmemcpyAttributes) == sizeof(cudaMemcpyAttributes), "");
static_assert(sizeof(CUDA_MEMCPY3D_BATCH_OP) == sizeof(cudaMemcpy3DBatchOp),
              "");
static_assert(offsetof(CUDA_MEMCPY3D_BATCH_OP, srcAccessOrder) ==
                  offsetof(cudaMemcpy3DBatchOp, srcAccessOrder),
              "");
static_assert(sizeof(CUdeviceptr) == sizeof(void *), "");
} // namespace drv
} // namespace cuemu

inline CUresult cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs,
                                   size_t *sizes, size_t count,
                                   CUmemcpyAttributes *attrs,
                                   size_t *attrsIdxs, size_t numAttrs,
                                   CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpyBatchAsync);
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy_batch_async(
      reinterpret_cast<void *const *>(dsts),
      reinterpret_cast<const void *const *>(srcs), sizes, count,
      reinterpret_cast<const cudaMemcpyAttributes *>(attrs), attrsIdxs,
      numAttrs, nullptr, hStream));
}

/* CUDA 12.8's ABI of cuMemcpyBatchAsync, with a failIdx (cuda.h's
 * cuMemcpyBatchAsync before _v2): cuGetProcAddress gives it for versions
 * 12080 to 12090 (scripts/driver_entry_points.py). */
inline CUresult cuMemcpyBatchAsync_v12080(CUdeviceptr *dsts,
                                          CUdeviceptr *srcs, size_t *sizes,
                                          size_t count,
                                          CUmemcpyAttributes *attrs,
                                          size_t *attrsIdxs, size_t numAttrs,
                                          size_t *failIdx, CUstream hStream) {
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy_batch_async(
      reinterpret_cast<void *const *>(dsts),
      reinterpret_cast<const void *const *>(srcs), sizes, count,
      reinterpret_cast<const cudaMemcpyAttributes *>(attrs), attrsIdxs,
      numAttrs, failIdx, hStream));
}

inline CUresult cuMemcpy3DBatchAsync(size_t numOps,
                                     CUDA_MEMCPY3D_BATCH_OP *opList,
                                     unsigned long long flags,
                                     CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpy3DBatchAsync);
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy_3d_batch_async(
      numOps, reinterpret_cast<const cudaMemcpy3DBatchOp *>(opList), flags,
      nullptr, hStream));
}

/* CUDA 12.8's ABI of cuMemcpy3DBatchAsync. */
inline CUresult cuMemcpy3DBatchAsync_v12080(size_t numOps,
                                            CUDA_MEMCPY3D_BATCH_OP *opList,
                                            size_t *failIdx,
                                            unsigned long long flags,
                                            CUstream hStream) {
  CUEMU_DRV_FORWARD(cuemu_rt_memcpy_3d_batch_async(
      numOps, reinterpret_cast<const cudaMemcpy3DBatchOp *>(opList), flags,
      failIdx, hStream));
}

inline CUresult cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes,
                                        size_t count,
                                        CUmemLocation *prefetchLocs,
                                        size_t *prefetchLocIdxs,
                                        size_t numPrefetchLocs,
                                        unsigned long long flags,
                                        CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemPrefetchBatchAsync);
  CUEMU_DRV_FORWARD(cuemu_rt_mem_batch_async(
      reinterpret_cast<void **>(dptrs), sizes, count,
      reinterpret_cast<cudaMemLocation *>(prefetchLocs), prefetchLocIdxs,
      numPrefetchLocs, flags, hStream, 0));
}

inline CUresult cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes,
                                       size_t count, unsigned long long flags,
                                       CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemDiscardBatchAsync);
  CUEMU_DRV_FORWARD(cuemu_rt_mem_batch_async(reinterpret_cast<void **>(dptrs),
                                             sizes, count, nullptr, nullptr,
                                             0, flags, hStream, 1));
}

inline CUresult cuMemDiscardAndPrefetchBatchAsync(
    CUdeviceptr *dptrs, size_t *sizes, size_t count,
    CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemDiscardAndPrefetchBatchAsync);
  CUEMU_DRV_FORWARD(cuemu_rt_mem_batch_async(
      reinterpret_cast<void **>(dptrs), sizes, count,
      reinterpret_cast<cudaMemLocation *>(prefetchLocs), prefetchLocIdxs,
      numPrefetchLocs, flags, hStream, 2));
}

#endif /* CUEMU_DRIVER_BATCH_API_H */
