/*
 * cuemu_driver_ptsz_api.h: the per-thread-stream spellings of older ABI
 * versions that CUDA 13's cuda.h declares only for its own use (under
 * __CUDA_API_VERSION_INTERNAL): cuStreamBeginCapture_ptsz (CUDA 10.0's
 * one-parameter form), cuStreamGetCaptureInfo_ptsz and _v2_ptsz,
 * cuStreamUpdateCaptureDependencies_ptsz, cuMemPrefetchAsync_ptsz (a device
 * ordinal), cuStreamBatchMemOp_ptsz, the stream memory operations and
 * CUDA 12.8's batched copies. Each is the function of that ABI with stream
 * 0 meaning the calling thread's per-thread default stream, as libcuda.so.1
 * exports it (emulator/export/cuemu_libcuda_exports.h). Included by cuda.h.
 * They are static inline, as CUDA's own cuGetProcAddress_v2_ptsz, so that
 * scripts/driver_entry_points.py does not take them for entry points.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_PTSZ_API_H
#define CUEMU_DRIVER_PTSZ_API_H

#if defined(__CUDA_API_VERSION_INTERNAL)
#include "cuemu_driver_batch_api.h"
#include "cuemu_driver_memop_api.h"
#include "cuemu_driver_old_abi_api.h"

namespace cuemu {
namespace drv {
/* Stream 0 of a _ptsz spelling: the calling thread's default stream. */
inline CUstream __cuemu_per_thread(CUstream stream) {
  return stream ? stream : CU_STREAM_PER_THREAD;
}
} // namespace drv
} // namespace cuemu

static inline CUresult cuStreamBeginCapture_ptsz(CUstream hStream) {
  return cuStreamBeginCapture_v10000(cuemu::drv::__cuemu_per_thread(hStream));
}

static inline CUresult cuStreamGetCaptureInfo_ptsz(
    CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
    cuuint64_t *id_out) {
  return cuStreamGetCaptureInfo_v10010(cuemu::drv::__cuemu_per_thread(hStream),
                                       captureStatus_out, id_out);
}

static inline CUresult cuStreamGetCaptureInfo_v2_ptsz(
    CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
    cuuint64_t *id_out, CUgraph *graph_out,
    const CUgraphNode **dependencies_out, size_t *numDependencies_out) {
  return cuStreamGetCaptureInfo_v11030(cuemu::drv::__cuemu_per_thread(hStream),
                                       captureStatus_out, id_out, graph_out,
                                       dependencies_out, numDependencies_out);
}

static inline CUresult cuStreamUpdateCaptureDependencies_ptsz(
    CUstream hStream, CUgraphNode *dependencies, size_t numDependencies,
    unsigned int flags) {
  return cuStreamUpdateCaptureDependencies_v11030(
      cuemu::drv::__cuemu_per_thread(hStream), dependencies, numDependencies, flags);
}

static inline CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr,
                                               size_t count,
                                               CUdevice dstDevice,
                                               CUstream hStream) {
  return cuMemPrefetchAsync_v8000(devPtr, count, dstDevice,
                                  cuemu::drv::__cuemu_per_thread(hStream));
}

static inline CUresult cuStreamBatchMemOp_ptsz(
    CUstream stream, unsigned int count,
    CUstreamBatchMemOpParams_v1 *paramArray, unsigned int flags) {
  return cuStreamBatchMemOp_v8000(cuemu::drv::__cuemu_per_thread(stream), count,
                                  paramArray, flags);
}

/* The per-thread spellings of the stream memory operations, which write
 * or wait for `value` of type T at `addr`: the parameters and the call's
 * arguments that they share. */
#define __CUEMU_DRV_VALUE_PARAMS(T)                                            \
  CUstream stream, CUdeviceptr addr, T value, unsigned int flags
#define __CUEMU_DRV_VALUE_ARGS                                                 \
  cuemu::drv::__cuemu_per_thread(stream), addr, value, flags
static inline CUresult
cuStreamWriteValue32_ptsz(__CUEMU_DRV_VALUE_PARAMS(cuuint32_t)) {
  return cuStreamWriteValue32(__CUEMU_DRV_VALUE_ARGS);
}
static inline CUresult
cuStreamWaitValue32_ptsz(__CUEMU_DRV_VALUE_PARAMS(cuuint32_t)) {
  return cuStreamWaitValue32(__CUEMU_DRV_VALUE_ARGS);
}
static inline CUresult
cuStreamWriteValue64_ptsz(__CUEMU_DRV_VALUE_PARAMS(cuuint64_t)) {
  return cuStreamWriteValue64(__CUEMU_DRV_VALUE_ARGS);
}
static inline CUresult
cuStreamWaitValue64_ptsz(__CUEMU_DRV_VALUE_PARAMS(cuuint64_t)) {
  return cuStreamWaitValue64(__CUEMU_DRV_VALUE_ARGS);
}
#undef __CUEMU_DRV_VALUE_PARAMS
#undef __CUEMU_DRV_VALUE_ARGS

static inline CUresult cuMemcpyBatchAsync_ptsz(
    CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
    CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
    size_t *failIdx, CUstream hStream) {
  return cuMemcpyBatchAsync_v12080(dsts, srcs, sizes, count, attrs,
                                   attrsIdxs, numAttrs, failIdx,
                                   cuemu::drv::__cuemu_per_thread(hStream));
}

static inline CUresult cuMemcpy3DBatchAsync_ptsz(
    size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
    unsigned long long flags, CUstream hStream) {
  return cuMemcpy3DBatchAsync_v12080(numOps, opList, failIdx, flags,
                                     cuemu::drv::__cuemu_per_thread(hStream));
}
#endif /* __CUDA_API_VERSION_INTERNAL */

#endif /* CUEMU_DRIVER_PTSZ_API_H */
