/*
 * interop_checkpoint_refused.cu: the calls a program makes only on a
 * machine with a display or a checkpointing driver compile and give
 * CUDA's statuses: the graphics interop calls of both APIs, with no
 * registered resource (none can be made without a graphics API), are
 * cudaErrorInvalidResourceHandle / CUDA_ERROR_INVALID_HANDLE after the
 * argument checks (cudaErrorInvalidValue / CUDA_ERROR_INVALID_VALUE); the
 * checkpoint calls of CUDA 12.8 are CUDA_ERROR_NOT_INITIALIZED before
 * cuInit and CUDA_ERROR_NOT_SUPPORTED after; cuDeviceGetLuid (Windows
 * only) is CUDA_ERROR_NOT_SUPPORTED, CUDA_ERROR_INVALID_DEVICE for a
 * device out of range. A GPU's machine may answer otherwise: built by
 * nvcc (no __CUEMU__), the program checks only that the calls return.
 * Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <unistd.h>

#include "../check.cuh"

int main() {
#ifdef __CUEMU__
  const bool strict = true;
#else
  const bool strict = false;
#endif
  int pid = static_cast<int>(getpid());
  CUprocessState state;
  CUresult before = cuCheckpointProcessGetState(pid, &state);
  CHECK(!strict || before == CUDA_ERROR_NOT_INITIALIZED);
  CHECK(cuInit(0) == CUDA_SUCCESS);

  // The runtime's graphics calls.
  cudaGraphicsResource_t resource = nullptr;
  void *pointer = nullptr;
  size_t size = 0;
  cudaArray_t array = nullptr;
  cudaMipmappedArray_t mipmap = nullptr;
  cudaError_t r[] = {
      cudaGraphicsMapResources(1, &resource, 0),
      cudaGraphicsUnmapResources(1, &resource, 0),
      cudaGraphicsResourceGetMappedPointer(&pointer, &size, resource),
      cudaGraphicsSubResourceGetMappedArray(&array, resource, 0, 0),
      cudaGraphicsResourceGetMappedMipmappedArray(&mipmap, resource),
      cudaGraphicsResourceSetMapFlags(resource, cudaGraphicsMapFlagsReadOnly),
      cudaGraphicsUnregisterResource(resource),
  };
  for (cudaError_t e : r)
    CHECK(!strict || e == cudaErrorInvalidResourceHandle);
  CHECK(!strict || cudaGetLastError() == cudaErrorInvalidResourceHandle);
  CHECK(!strict || cudaGraphicsMapResources(0, &resource, 0) ==
                       cudaErrorInvalidValue);
  CHECK(!strict || cudaGraphicsResourceGetMappedPointer(nullptr, &size,
                                                        resource) ==
                       cudaErrorInvalidValue);
  CHECK(!strict || cudaGraphicsResourceSetMapFlags(resource, 7) ==
                       cudaErrorInvalidValue);
  cudaGetLastError();

  // The driver's.
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS);
  CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
  CUgraphicsResource res = nullptr;
  CUdeviceptr dptr = 0;
  CUarray carray = nullptr;
  CUmipmappedArray cmipmap = nullptr;
  CUresult d[] = {
      cuGraphicsMapResources(1, &res, nullptr),
      cuGraphicsUnmapResources(1, &res, nullptr),
      cuGraphicsResourceGetMappedPointer(&dptr, &size, res),
      cuGraphicsSubResourceGetMappedArray(&carray, res, 0, 0),
      cuGraphicsResourceGetMappedMipmappedArray(&cmipmap, res),
      cuGraphicsResourceSetMapFlags(res, CU_GRAPHICS_MAP_RESOURCE_FLAGS_NONE),
      cuGraphicsUnregisterResource(res),
  };
  for (CUresult e : d)
    CHECK(!strict || e == CUDA_ERROR_INVALID_HANDLE);
  CHECK(!strict || cuGraphicsMapResources(0, &res, nullptr) ==
                       CUDA_ERROR_INVALID_VALUE);

  // Checkpoints.
  int tid = 0;
  CUcheckpointLockArgs lock = {};
  CUcheckpointCheckpointArgs checkpoint = {};
  CUcheckpointRestoreArgs restore = {};
  CUcheckpointUnlockArgs unlock = {};
  CUresult c[] = {
      cuCheckpointProcessGetState(pid, &state),
      cuCheckpointProcessGetRestoreThreadId(pid, &tid),
      cuCheckpointProcessLock(pid, &lock),
      cuCheckpointProcessCheckpoint(pid, &checkpoint),
      cuCheckpointProcessRestore(pid, &restore),
      cuCheckpointProcessUnlock(pid, &unlock),
  };
  for (CUresult e : c)
    CHECK(!strict || e == CUDA_ERROR_NOT_SUPPORTED);
  CHECK(!strict || cuCheckpointProcessGetState(pid, nullptr) ==
                       CUDA_ERROR_INVALID_VALUE);

  // A LUID.
  char luid[8];
  unsigned mask = 0;
  CHECK(!strict || cuDeviceGetLuid(luid, &mask, dev) ==
                       CUDA_ERROR_NOT_SUPPORTED);
  int count = 0;
  CHECK(cuDeviceGetCount(&count) == CUDA_SUCCESS);
  CHECK(!strict || cuDeviceGetLuid(luid, &mask, count) ==
                       CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuDevicePrimaryCtxRelease(dev) == CUDA_SUCCESS);
  return finish();
}
