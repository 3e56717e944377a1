/*
 * cuemu_driver_copy_api.h: the driver API's copies with descriptors
 * (cuMemcpy2D, cuMemcpy2DUnaligned, cuMemcpy3D and their Async forms,
 * CUDA_MEMCPY2D, CUDA_MEMCPY3D) and its 2-D sets in a stream
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

typedef struct CUDA_MEMCPY2D_st {
  size_t srcXInBytes;
  size_t srcY;
  CUmemorytype srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  size_t srcPitch;
  size_t dstXInBytes;
  size_t dstY;
  CUmemorytype dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  size_t dstPitch;
  size_t WidthInBytes;
  size_t Height;
} CUDA_MEMCPY2D_v2;
typedef CUDA_MEMCPY2D_v2 CUDA_MEMCPY2D;

namespace cuemu {
namespace drv {
/* A 2-D copy as a 3-D one of depth 1. */
inline CUDA_MEMCPY3D copy_3d(const CUDA_MEMCPY2D *p) {
  CUDA_MEMCPY3D q = CUDA_MEMCPY3D();
  q.srcXInBytes = p->srcXInBytes;
  q.srcY = p->srcY;
  q.srcMemoryType = p->srcMemoryType;
  q.srcHost = p->srcHost;
  q.srcDevice = p->srcDevice;
  q.srcArray = p->srcArray;
  q.srcPitch = p->srcPitch;
  q.srcHeight = p->Height;
  q.dstXInBytes = p->dstXInBytes;
  q.dstY = p->dstY;
  q.dstMemoryType = p->dstMemoryType;
  q.dstHost = p->dstHost;
  q.dstDevice = p->dstDevice;
  q.dstArray = p->dstArray;
  q.dstPitch = p->dstPitch;
  q.dstHeight = p->Height;
  q.WidthInBytes = p->WidthInBytes;
  q.Height = p->Height;
  q.Depth = 1;
  return q;
}
} // namespace drv
} // namespace cuemu

inline CUresult cuMemcpy3D(const CUDA_MEMCPY3D *pCopy) {
  cudaMemcpy3DParms q;
  CUEMU_DRV_CONVERTED(cuemu::drv::parms(pCopy, &q), cudaMemcpy3D(&q));
}

inline CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream) {
  cudaMemcpy3DParms q;
  CUEMU_DRV_CONVERTED(cuemu::drv::parms(pCopy, &q),
                      cudaMemcpy3DAsync(&q, hStream));
}

inline CUresult cuMemcpy2D(const CUDA_MEMCPY2D *pCopy) {
  if (!pCopy)
    return CUDA_ERROR_INVALID_VALUE;
  CUDA_MEMCPY3D q = cuemu::drv::copy_3d(pCopy);
  return cuMemcpy3D(&q);
}

/* Any alignment is taken (the emulator copies bytes). */
inline CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *pCopy) {
  return cuMemcpy2D(pCopy);
}

inline CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream) {
  if (!pCopy)
    return CUDA_ERROR_INVALID_VALUE;
  CUDA_MEMCPY3D q = cuemu::drv::copy_3d(pCopy);
  return cuMemcpy3DAsync(&q, hStream);
}

inline CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch,
                                  unsigned char uc, size_t Width,
                                  size_t Height, CUstream hStream) {
  return static_cast<CUresult>(cuemu_drv_memset_2d_async(
      dstDevice, dstPitch, uc, 1, Width, Height, hStream));
}

inline CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch,
                                   unsigned short us, size_t Width,
                                   size_t Height, CUstream hStream) {
  return static_cast<CUresult>(cuemu_drv_memset_2d_async(
      dstDevice, dstPitch, us, 2, Width, Height, hStream));
}

inline CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch,
                                   unsigned int ui, size_t Width,
                                   size_t Height, CUstream hStream) {
  return static_cast<CUresult>(cuemu_drv_memset_2d_async(
      dstDevice, dstPitch, ui, 4, Width, Height, hStream));
}

#endif /* CUEMU_DRIVER_COPY_API_H */
