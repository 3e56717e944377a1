/*
 * cuemu_driver_copy_api.h: the driver API's copies with descriptors
 * (cuMemcpy2D, cuMemcpy2DUnaligned, cuMemcpy3D, cuMemcpy3DPeer and their
 * Async forms, CUDA_MEMCPY2D, CUDA_MEMCPY3D, CUDA_MEMCPY3D_PEER) and its 2-D sets in a stream
 * (cuMemsetD2D8Async, ...), in CUDA 13's signatures. A descriptor becomes
 * the runtime's cudaMemcpy3DParms (as a graph's copy node does,
 * cuemu_driver_graph_api.h) and runs through cudaMemcpy3D: one
 * implementation, which checks the ranges, captures into a capturing
 * stream and takes CUDA arrays. Included at the end of
 * cuemu_driver_graph_nodes_api.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_COPY_API_H
#define CUEMU_DRIVER_COPY_API_H

#include "cuemu_driver_graph_api.h"

#include "cuemu_driver_copy_types.h"

namespace cuemu {
namespace drv {
/* A 2-D copy as a 3-D one of depth 1. */
inline CUDA_MEMCPY3D copy_3d(const CUDA_MEMCPY2D *p) {
  CUDA_MEMCPY3D __cuemu_q = CUDA_MEMCPY3D();
  __cuemu_q.srcXInBytes = p->srcXInBytes;
  __cuemu_q.srcY = p->srcY;
  __cuemu_q.srcMemoryType = p->srcMemoryType;
  __cuemu_q.srcHost = p->srcHost;
  __cuemu_q.srcDevice = p->srcDevice;
  __cuemu_q.srcArray = p->srcArray;
  __cuemu_q.srcPitch = p->srcPitch;
  __cuemu_q.srcHeight = p->Height;
  __cuemu_q.dstXInBytes = p->dstXInBytes;
  __cuemu_q.dstY = p->dstY;
  __cuemu_q.dstMemoryType = p->dstMemoryType;
  __cuemu_q.dstHost = p->dstHost;
  __cuemu_q.dstDevice = p->dstDevice;
  __cuemu_q.dstArray = p->dstArray;
  __cuemu_q.dstPitch = p->dstPitch;
  __cuemu_q.dstHeight = p->Height;
  __cuemu_q.WidthInBytes = p->WidthInBytes;
  __cuemu_q.Height = p->Height;
  __cuemu_q.Depth = 1;
  return __cuemu_q;
}
} // namespace drv
} // namespace cuemu

inline CUresult cuMemcpy3D(const CUDA_MEMCPY3D *pCopy) {
  CUEMU_DRV_SYMBOL(cuMemcpy3D);
  cudaMemcpy3DParms __cuemu_q;
  CUEMU_DRV_CONVERTED(cuemu::drv::parms(pCopy, &__cuemu_q), cudaMemcpy3D(&__cuemu_q));
}

inline CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpy3DAsync);
  cudaMemcpy3DParms __cuemu_q;
  CUEMU_DRV_CONVERTED(cuemu::drv::parms(pCopy, &__cuemu_q),
                      cudaMemcpy3DAsync(&__cuemu_q, hStream));
}

namespace cuemu {
namespace drv {
/* The device of context `ctx` (the current context's when NULL); 0 or a
 * driver error. */
inline int __cuemu_context_device(CUcontext ctx, int *device) {
  CUdevice d = 0;
  int e = ctx ? cuCtxPushCurrent(ctx) : CUDA_SUCCESS;
  if (e)
    return e;
  e = cuCtxGetDevice(&d);
  if (ctx) {
    CUcontext popped;
    cuCtxPopCurrent(&popped);
  }
  *device = static_cast<int>(d);
  return e;
}

/* A CUDA_MEMCPY3D_PEER as the runtime's cudaMemcpy3DPeerParms (each
 * side's device that of its context); 0 or a driver error. */
inline int __cuemu_peer_parms(const CUDA_MEMCPY3D_PEER *p, cudaMemcpy3DPeerParms *__cuemu_out) {
  if (!p)
    return CUDA_ERROR_INVALID_VALUE;
  CUDA_MEMCPY3D c = CUDA_MEMCPY3D();
  c.srcXInBytes = p->srcXInBytes;
  c.srcY = p->srcY;
  c.srcZ = p->srcZ;
  c.srcMemoryType = p->srcMemoryType;
  c.srcHost = p->srcHost;
  c.srcDevice = p->srcDevice;
  c.srcArray = p->srcArray;
  c.srcPitch = p->srcPitch;
  c.srcHeight = p->srcHeight;
  c.dstXInBytes = p->dstXInBytes;
  c.dstY = p->dstY;
  c.dstZ = p->dstZ;
  c.dstMemoryType = p->dstMemoryType;
  c.dstHost = p->dstHost;
  c.dstDevice = p->dstDevice;
  c.dstArray = p->dstArray;
  c.dstPitch = p->dstPitch;
  c.dstHeight = p->dstHeight;
  c.WidthInBytes = p->WidthInBytes;
  c.Height = p->Height;
  c.Depth = p->Depth;
  cudaMemcpy3DParms __cuemu_q;
  int e = parms(&c, &__cuemu_q);
  cudaMemcpy3DPeerParms __cuemu_r = cudaMemcpy3DPeerParms();
  if (!e)
    e = __cuemu_context_device(p->srcContext, &__cuemu_r.srcDevice);
  if (!e)
    e = __cuemu_context_device(p->dstContext, &__cuemu_r.dstDevice);
  if (e)
    return e;
  __cuemu_r.srcArray = __cuemu_q.srcArray;
  __cuemu_r.srcPos = __cuemu_q.srcPos;
  __cuemu_r.srcPtr = __cuemu_q.srcPtr;
  __cuemu_r.dstArray = __cuemu_q.dstArray;
  __cuemu_r.dstPos = __cuemu_q.dstPos;
  __cuemu_r.dstPtr = __cuemu_q.dstPtr;
  __cuemu_r.extent = __cuemu_q.extent;
  *__cuemu_out = __cuemu_r;
  return 0;
}
} // namespace drv
} // namespace cuemu

inline CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy) {
  CUEMU_DRV_SYMBOL(cuMemcpy3DPeer);
  cudaMemcpy3DPeerParms __cuemu_q;
  CUEMU_DRV_CONVERTED(cuemu::drv::__cuemu_peer_parms(pCopy, &__cuemu_q), cudaMemcpy3DPeer(&__cuemu_q));
}

inline CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy,
                                    CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpy3DPeerAsync);
  cudaMemcpy3DPeerParms __cuemu_q;
  CUEMU_DRV_CONVERTED(cuemu::drv::__cuemu_peer_parms(pCopy, &__cuemu_q),
                      cudaMemcpy3DPeerAsync(&__cuemu_q, hStream));
}

inline CUresult cuMemcpy2D(const CUDA_MEMCPY2D *pCopy) {
  CUEMU_DRV_SYMBOL(cuMemcpy2D);
  if (!pCopy)
    return CUDA_ERROR_INVALID_VALUE;
  CUDA_MEMCPY3D __cuemu_q = cuemu::drv::copy_3d(pCopy);
  return cuMemcpy3D(&__cuemu_q);
}

/* Any alignment is taken (the emulator copies bytes). */
inline CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *pCopy) {
  CUEMU_DRV_SYMBOL(cuMemcpy2DUnaligned);
  return cuMemcpy2D(pCopy);
}

inline CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemcpy2DAsync);
  if (!pCopy)
    return CUDA_ERROR_INVALID_VALUE;
  CUDA_MEMCPY3D __cuemu_q = cuemu::drv::copy_3d(pCopy);
  return cuMemcpy3DAsync(&__cuemu_q, hStream);
}

inline CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch,
                                  unsigned char uc, size_t Width,
                                  size_t Height, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemsetD2D8Async);
  return static_cast<CUresult>(cuemu_drv_memset_2d_async(
      dstDevice, dstPitch, uc, 1, Width, Height, hStream));
}

inline CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch,
                                   unsigned short us, size_t Width,
                                   size_t Height, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemsetD2D16Async);
  return static_cast<CUresult>(cuemu_drv_memset_2d_async(
      dstDevice, dstPitch, us, 2, Width, Height, hStream));
}

inline CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch,
                                   unsigned int ui, size_t Width,
                                   size_t Height, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuMemsetD2D32Async);
  return static_cast<CUresult>(cuemu_drv_memset_2d_async(
      dstDevice, dstPitch, ui, 4, Width, Height, hStream));
}

#endif /* CUEMU_DRIVER_COPY_API_H */
