/*
 * cuemu_driver_interop_api.h: the driver calls of graphics interop
 * (cuGraphics*), of process checkpoints (cuCheckpointProcess*, CUDA 12.8)
 * and of a device's Windows LUID (cuDeviceGetLuid), which a program calls
 * only where its machine has them: an emulated device has no graphics API
 * to register a resource with (the registering calls live in the OpenGL,
 * Direct3D, Vulkan and EGL headers, which cuemu lacks), so no
 * CUgraphicsResource exists and every call that takes one is
 * CUDA_ERROR_INVALID_HANDLE; a process of cuemu cannot be checkpointed by
 * the driver (its device memory is the process's own), so the checkpoint
 * calls are CUDA_ERROR_NOT_SUPPORTED, as CUDA gives them where the driver
 * lacks the feature; a LUID exists on Windows only (CUDA_ERROR_NOT_SUPPORTED
 * elsewhere). Each checks initialisation and its outputs first. They exist
 * so that such programs compile. Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_INTEROP_API_H
#define CUEMU_DRIVER_INTEROP_API_H

typedef struct CUgraphicsResource_st *CUgraphicsResource;

/* CUprocessState is in cuemu_driver_types.h. */
typedef struct CUcheckpointLockArgs_st {
  unsigned int timeoutMs;
  unsigned int reserved0;
  cuuint64_t reserved1[7];
} CUcheckpointLockArgs;

typedef struct CUcheckpointCheckpointArgs_st {
  cuuint64_t reserved[8];
} CUcheckpointCheckpointArgs;

typedef struct CUcheckpointGpuPair_st {
  CUuuid oldUuid;
  CUuuid newUuid;
} CUcheckpointGpuPair;

typedef struct CUcheckpointRestoreArgs_st {
  CUcheckpointGpuPair *gpuPairs;
  unsigned int gpuPairsCount;
  char reserved[52 - sizeof(CUcheckpointGpuPair *)];
  cuuint64_t reserved1;
} CUcheckpointRestoreArgs;

typedef struct CUcheckpointUnlockArgs_st {
  cuuint64_t reserved[8];
} CUcheckpointUnlockArgs;

/* CUDA_ERROR_NOT_INITIALIZED before cuInit, CUDA_ERROR_INVALID_VALUE when
 * `__cuemu_valid` is 0 (a NULL output, a bad count), else `__cuemu_code`. */
inline CUresult __cuemu_interop_refusal(int __cuemu_valid,
                                        CUresult __cuemu_code) {
  int __cuemu_count = 0;
  CUresult __cuemu_e = cuDeviceGetCount(&__cuemu_count);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  return __cuemu_valid ? __cuemu_code : CUDA_ERROR_INVALID_VALUE;
}

/* ---- Graphics interop: no resource exists -------------------------------- */

/* cuemu-status: refused (no graphics API registers a resource) */
inline CUresult cuGraphicsUnregisterResource(CUgraphicsResource __cuemu_r) {
  CUEMU_DRV_SYMBOL(cuGraphicsUnregisterResource);
  (void)__cuemu_r;
  return __cuemu_interop_refusal(1, CUDA_ERROR_INVALID_HANDLE);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline CUresult cuGraphicsSubResourceGetMappedArray(
    CUarray *__cuemu_array, CUgraphicsResource __cuemu_r,
    unsigned int __cuemu_index, unsigned int __cuemu_level) {
  CUEMU_DRV_SYMBOL(cuGraphicsSubResourceGetMappedArray);
  (void)__cuemu_r;
  (void)__cuemu_index;
  (void)__cuemu_level;
  return __cuemu_interop_refusal(__cuemu_array != nullptr,
                                 CUDA_ERROR_INVALID_HANDLE);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline CUresult cuGraphicsResourceGetMappedMipmappedArray(
    CUmipmappedArray *__cuemu_mipmap, CUgraphicsResource __cuemu_r) {
  CUEMU_DRV_SYMBOL(cuGraphicsResourceGetMappedMipmappedArray);
  (void)__cuemu_r;
  return __cuemu_interop_refusal(__cuemu_mipmap != nullptr,
                                 CUDA_ERROR_INVALID_HANDLE);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline CUresult cuGraphicsResourceGetMappedPointer(
    CUdeviceptr *__cuemu_ptr, size_t *__cuemu_size,
    CUgraphicsResource __cuemu_r) {
  CUEMU_DRV_SYMBOL(cuGraphicsResourceGetMappedPointer);
  (void)__cuemu_r;
  return __cuemu_interop_refusal(__cuemu_ptr != nullptr &&
                                     __cuemu_size != nullptr,
                                 CUDA_ERROR_INVALID_HANDLE);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline CUresult cuGraphicsResourceSetMapFlags(CUgraphicsResource __cuemu_r,
                                              unsigned int __cuemu_flags) {
  CUEMU_DRV_SYMBOL(cuGraphicsResourceSetMapFlags);
  (void)__cuemu_r;
  return __cuemu_interop_refusal(__cuemu_flags <= 2u,
                                 CUDA_ERROR_INVALID_HANDLE);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline CUresult cuGraphicsMapResources(unsigned int __cuemu_count,
                                       CUgraphicsResource *__cuemu_resources,
                                       CUstream __cuemu_stream) {
  CUEMU_DRV_SYMBOL(cuGraphicsMapResources);
  (void)__cuemu_stream;
  return __cuemu_interop_refusal(__cuemu_count > 0 &&
                                     __cuemu_resources != nullptr,
                                 CUDA_ERROR_INVALID_HANDLE);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline CUresult cuGraphicsUnmapResources(unsigned int __cuemu_count,
                                         CUgraphicsResource *__cuemu_resources,
                                         CUstream __cuemu_stream) {
  CUEMU_DRV_SYMBOL(cuGraphicsUnmapResources);
  (void)__cuemu_stream;
  return __cuemu_interop_refusal(__cuemu_count > 0 &&
                                     __cuemu_resources != nullptr,
                                 CUDA_ERROR_INVALID_HANDLE);
}

/* ---- Checkpoints: not supported ------------------------------------------ */

/* cuemu-status: refused (the driver cannot checkpoint an emulated device) */
inline CUresult cuCheckpointProcessGetRestoreThreadId(int __cuemu_pid,
                                                      int *__cuemu_tid) {
  CUEMU_DRV_SYMBOL(cuCheckpointProcessGetRestoreThreadId);
  (void)__cuemu_pid;
  return __cuemu_interop_refusal(__cuemu_tid != nullptr,
                                 CUDA_ERROR_NOT_SUPPORTED);
}

/* cuemu-status: refused (the driver cannot checkpoint an emulated device) */
inline CUresult cuCheckpointProcessGetState(int __cuemu_pid,
                                            CUprocessState *__cuemu_state) {
  CUEMU_DRV_SYMBOL(cuCheckpointProcessGetState);
  (void)__cuemu_pid;
  return __cuemu_interop_refusal(__cuemu_state != nullptr,
                                 CUDA_ERROR_NOT_SUPPORTED);
}

/* cuemu-status: refused (the driver cannot checkpoint an emulated device) */
inline CUresult cuCheckpointProcessLock(int __cuemu_pid,
                                        CUcheckpointLockArgs *__cuemu_args) {
  CUEMU_DRV_SYMBOL(cuCheckpointProcessLock);
  (void)__cuemu_pid;
  (void)__cuemu_args;
  return __cuemu_interop_refusal(1, CUDA_ERROR_NOT_SUPPORTED);
}

/* cuemu-status: refused (the driver cannot checkpoint an emulated device) */
inline CUresult
cuCheckpointProcessCheckpoint(int __cuemu_pid,
                              CUcheckpointCheckpointArgs *__cuemu_args) {
  CUEMU_DRV_SYMBOL(cuCheckpointProcessCheckpoint);
  (void)__cuemu_pid;
  (void)__cuemu_args;
  return __cuemu_interop_refusal(1, CUDA_ERROR_NOT_SUPPORTED);
}

/* cuemu-status: refused (the driver cannot checkpoint an emulated device) */
inline CUresult
cuCheckpointProcessRestore(int __cuemu_pid,
                           CUcheckpointRestoreArgs *__cuemu_args) {
  CUEMU_DRV_SYMBOL(cuCheckpointProcessRestore);
  (void)__cuemu_pid;
  (void)__cuemu_args;
  return __cuemu_interop_refusal(1, CUDA_ERROR_NOT_SUPPORTED);
}

/* cuemu-status: refused (the driver cannot checkpoint an emulated device) */
inline CUresult cuCheckpointProcessUnlock(int __cuemu_pid,
                                          CUcheckpointUnlockArgs *__cuemu_args) {
  CUEMU_DRV_SYMBOL(cuCheckpointProcessUnlock);
  (void)__cuemu_pid;
  (void)__cuemu_args;
  return __cuemu_interop_refusal(1, CUDA_ERROR_NOT_SUPPORTED);
}

/* ---- A device's LUID: Windows only --------------------------------------- */

/* cuemu-status: refused (a LUID exists on Windows only) */
inline CUresult cuDeviceGetLuid(char *__cuemu_luid,
                                unsigned int *__cuemu_node_mask,
                                CUdevice __cuemu_dev) {
  CUEMU_DRV_SYMBOL(cuDeviceGetLuid);
  int __cuemu_count = 0;
  CUresult __cuemu_e = cuDeviceGetCount(&__cuemu_count);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  if (__cuemu_dev < 0 || __cuemu_dev >= __cuemu_count)
    return CUDA_ERROR_INVALID_DEVICE;
  return __cuemu_luid && __cuemu_node_mask ? CUDA_ERROR_NOT_SUPPORTED
                                           : CUDA_ERROR_INVALID_VALUE;
}

#endif /* CUEMU_DRIVER_INTEROP_API_H */
