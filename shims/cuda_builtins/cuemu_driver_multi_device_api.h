/*
 * cuemu_driver_multi_device_api.h: cuLaunchCooperativeKernelMultiDevice,
 * deprecated since CUDA 11.3 and still in CUDA 13's cuda.h: one cooperative
 * launch per listed device, each in its stream's context, after CUDA's
 * checks (the same grid, block and shared memory size in every entry, a
 * stream of its own device in each, none of them NULL, CU_STREAM_LEGACY or
 * CU_STREAM_PER_THREAD). The pre- and post-launch synchronization across
 * the devices' streams, which CUDA does on the devices unless the flags
 * turn it off, is done here on the host: the call waits for the streams'
 * prior work before the launches and for the launches after them, which
 * orders the work as CUDA does (it only blocks the caller longer).
 * Deprecated, as with CUDA, unless CUDA_ENABLE_DEPRECATED is defined.
 * Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_MULTI_DEVICE_API_H
#define CUEMU_DRIVER_MULTI_DEVICE_API_H

#define CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC 0x01
#define CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC 0x02

typedef struct CUDA_LAUNCH_PARAMS_st {
  CUfunction function;
  unsigned int gridDimX;
  unsigned int gridDimY;
  unsigned int gridDimZ;
  unsigned int blockDimX;
  unsigned int blockDimY;
  unsigned int blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  void **kernelParams;
} CUDA_LAUNCH_PARAMS_v1;
typedef CUDA_LAUNCH_PARAMS_v1 CUDA_LAUNCH_PARAMS;

CUEMU_DRV_DEPRECATED_ inline CUresult
cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *, unsigned int,
                                     unsigned int);

namespace cuemu {
namespace drv {
/* Whether two entries have the same grid, block and shared memory size. */
inline bool __cuemu_same_shape(const CUDA_LAUNCH_PARAMS &a,
                       const CUDA_LAUNCH_PARAMS &b) {
  return a.gridDimX == b.gridDimX && a.gridDimY == b.gridDimY &&
         a.gridDimZ == b.gridDimZ && a.blockDimX == b.blockDimX &&
         a.blockDimY == b.blockDimY && a.blockDimZ == b.blockDimZ &&
         a.sharedMemBytes == b.sharedMemBytes;
}

/* Waits for the work of the `n` entries' streams; a driver code. */
inline CUresult __cuemu_sync_streams(const CUDA_LAUNCH_PARAMS *list, unsigned n) {
  for (unsigned i = 0; i < n; ++i) {
    CUresult e = cuStreamSynchronize(list[i].hStream);
    if (e != CUDA_SUCCESS)
      return e;
  }
  return CUDA_SUCCESS;
}
} // namespace drv
} // namespace cuemu

inline CUresult
cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *launchParamsList,
                                     unsigned int numDevices,
                                     unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuLaunchCooperativeKernelMultiDevice);
  int e = cuemu_drv_check_context();
  if (e)
    return static_cast<CUresult>(e);
  int count = 0;
  CUresult r = cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS)
    return r;
  const unsigned known = CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC |
                         CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC;
  if (!launchParamsList || numDevices == 0 ||
      numDevices > static_cast<unsigned>(count) || (flags & ~known))
    return CUDA_ERROR_INVALID_VALUE;
  /* Every entry first: nothing is launched when one is wrong. */
  for (unsigned i = 0; i < numDevices; ++i) {
    const CUDA_LAUNCH_PARAMS &p = launchParamsList[i];
    if (!p.function)
      return CUDA_ERROR_INVALID_HANDLE;
    if (!p.hStream || p.hStream == CU_STREAM_LEGACY ||
        p.hStream == CU_STREAM_PER_THREAD ||
        !cuemu::drv::__cuemu_same_shape(p, launchParamsList[0]))
      return CUDA_ERROR_INVALID_VALUE;
    CUdevice dev = 0;
    r = cuStreamGetDevice(p.hStream, &dev);
    if (r != CUDA_SUCCESS)
      return r;
    for (unsigned j = 0; j < i; ++j) {
      CUdevice other = 0;
      r = cuStreamGetDevice(launchParamsList[j].hStream, &other);
      if (r != CUDA_SUCCESS)
        return r;
      if (other == dev) /* one entry per device */
        return CUDA_ERROR_INVALID_VALUE;
    }
  }
  if (!(flags & CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC)) {
    r = cuemu::drv::__cuemu_sync_streams(launchParamsList, numDevices);
    if (r != CUDA_SUCCESS)
      return r;
  }
  for (unsigned i = 0; i < numDevices; ++i) {
    const CUDA_LAUNCH_PARAMS &p = launchParamsList[i];
    CUcontext ctx = nullptr;
    r = cuStreamGetCtx(p.hStream, &ctx);
    if (r == CUDA_SUCCESS)
      r = cuCtxPushCurrent(ctx);
    if (r != CUDA_SUCCESS)
      return r;
    r = cuLaunchCooperativeKernel(p.function, p.gridDimX, p.gridDimY,
                                  p.gridDimZ, p.blockDimX, p.blockDimY,
                                  p.blockDimZ, p.sharedMemBytes, p.hStream,
                                  p.kernelParams);
    cuCtxPopCurrent(nullptr);
    if (r != CUDA_SUCCESS)
      return r;
  }
  if (!(flags & CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC))
    return cuemu::drv::__cuemu_sync_streams(launchParamsList, numDevices);
  return CUDA_SUCCESS;
}

#endif /* CUEMU_DRIVER_MULTI_DEVICE_API_H */
