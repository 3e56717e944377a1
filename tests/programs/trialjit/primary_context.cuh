// primary_context.cuh: what the driver-API programs of this folder do
// before loading a module: cuInit, device 0's primary context made current.
#ifndef TRIALJIT_PRIMARY_CONTEXT_CUH
#define TRIALJIT_PRIMARY_CONTEXT_CUH
#include <cuda.h>

#include "../check.cuh"

/* Makes device 0's primary context current; returns the device (the
 * caller releases the context with cuDevicePrimaryCtxRelease). */
inline CUdevice use_primary_context() {
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS);
  CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
  return dev;
}
#endif // TRIALJIT_PRIMARY_CONTEXT_CUH
