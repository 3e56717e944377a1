/*
 * cuemu_driver_external_api.h: the driver API's external memory and
 * external semaphores (cuImportExternalMemory,
 * cuExternalMemoryGetMappedBuffer, cuImportExternalSemaphore,
 * cuSignalExternalSemaphoresAsync, ...), in CUDA 13's signatures. Each call
 * forwards to the runtime's implementation (cuemu/cuemu_external.h, the
 * one behind cudaImportExternalMemory): only the opaque file-descriptor
 * handle types are emulated, as docs/driver-api.md says. Included at the
 * end of cuda.h.
 */
#ifndef CUEMU_DRIVER_EXTERNAL_API_H
#define CUEMU_DRIVER_EXTERNAL_API_H

/* The types first: they need nothing of cuda.h but the runtime's
 * structures, and the end of cuda.h reads cuemu_driver_graph_nodes_api.h,
 * which needs them. */
#include "cuemu_driver_external_types.h"

/* The driver API's types (this header is read at the end of cuda.h). */
#include "cuda.h"

#include <cuemu/cuemu_external.h>

#include "cuemu_external_types.h"

/* CUDA_ARRAY3D_DESCRIPTOR, for the mipmapped array's description. */
#include "cuemu_driver_array_types.h"

typedef struct CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC_st {
  unsigned long long offset;
  CUDA_ARRAY3D_DESCRIPTOR arrayDesc;
  unsigned int numLevels;
  unsigned int reserved[16];
} CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC_v1;
typedef CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC_v1
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC;

namespace cuemu {
namespace drv {
/* The driver's handle of a runtime external object, and back. */
inline cuemu_rt_external_memory *ext(CUexternalMemory __cuemu_m) {
  return reinterpret_cast<cuemu_rt_external_memory *>(__cuemu_m);
}
inline cuemu_rt_external_semaphore *ext(CUexternalSemaphore s) {
  return reinterpret_cast<cuemu_rt_external_semaphore *>(s);
}

/* A signal or wait of `n` semaphores with their fence values; a driver
 * code. */
template <class P_>
inline int ext_issue(int (*call)(cuemu_rt_external_semaphore *const *,
                                 const unsigned long long *, unsigned, void *),
                     const CUexternalSemaphore *sems, const P_ *params,
                     unsigned n, CUstream stream) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (n && (!sems || !params))
    return CUDA_ERROR_INVALID_VALUE;
  struct issue_values;
  unsigned long long *v = cuemu::ext::values<issue_values>(params, n);
  if (n && !v)
    return CUDA_ERROR_OUT_OF_MEMORY;
  int saved = cuemu_drv_enter();
  return cuemu_drv_result(
      call(reinterpret_cast<cuemu_rt_external_semaphore *const *>(sems), v, n,
           stream),
      saved);
}
} // namespace drv
} // namespace cuemu

/* ---- External memory -------------------------------------------------------- */

inline CUresult
cuImportExternalMemory(CUexternalMemory *extMem_out,
                       const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *memHandleDesc) {
  CUEMU_DRV_SYMBOL(cuImportExternalMemory);
  if (!memHandleDesc)
    return CUDA_ERROR_INVALID_VALUE;
  CUEMU_DRV_FORWARD(cuemu_rt_import_external_memory(
      reinterpret_cast<cuemu_rt_external_memory **>(extMem_out),
      memHandleDesc->type, memHandleDesc->handle.fd, memHandleDesc->size,
      memHandleDesc->flags));
}

/* The buffer is device memory of the current context's device, freed by
 * cuMemFree. */
CUEMU_AT_CALLER inline CUresult cuExternalMemoryGetMappedBuffer(
    CUdeviceptr *devPtr, CUexternalMemory extMem,
    const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *bufferDesc) {
  CUEMU_DRV_SYMBOL(cuExternalMemoryGetMappedBuffer);
  if (!bufferDesc || !devPtr)
    return CUDA_ERROR_INVALID_VALUE;
  void *p = nullptr;
  CUresult e = [&]() CUEMU_AT_CALLER -> CUresult {
    CUEMU_DRV_FORWARD(cuemu_rt_external_memory_get_mapped_buffer(
        &p, cuemu::drv::ext(extMem), bufferDesc->offset, bufferDesc->size,
        bufferDesc->flags));
  }();
  if (e == CUDA_SUCCESS)
    *devPtr = reinterpret_cast<CUdeviceptr>(p);
  return e;
}

/* cuemu-status: refused (CUDA arrays on external memory are not emulated) */
inline CUresult cuExternalMemoryGetMappedMipmappedArray(
    CUmipmappedArray *mipmap, CUexternalMemory extMem,
    const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *mipmapDesc) {
  CUEMU_DRV_SYMBOL(cuExternalMemoryGetMappedMipmappedArray);
  int e = cuemu_drv_check_context();
  if (e)
    return static_cast<CUresult>(e);
  if (!mipmap || !mipmapDesc || mipmapDesc->numLevels == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!extMem)
    return CUDA_ERROR_INVALID_HANDLE;
  return CUDA_ERROR_NOT_SUPPORTED;
}

inline CUresult cuDestroyExternalMemory(CUexternalMemory extMem) {
  CUEMU_DRV_SYMBOL(cuDestroyExternalMemory);
  CUEMU_DRV_FORWARD(cuemu_rt_destroy_external_memory(cuemu::drv::ext(extMem)));
}

/* ---- External semaphores ------------------------------------------------------ */

inline CUresult cuImportExternalSemaphore(
    CUexternalSemaphore *extSem_out,
    const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *semHandleDesc) {
  CUEMU_DRV_SYMBOL(cuImportExternalSemaphore);
  if (!semHandleDesc)
    return CUDA_ERROR_INVALID_VALUE;
  CUEMU_DRV_FORWARD(cuemu_rt_import_external_semaphore(
      reinterpret_cast<cuemu_rt_external_semaphore **>(extSem_out),
      semHandleDesc->type, semHandleDesc->handle.fd, semHandleDesc->flags));
}

inline CUresult cuDestroyExternalSemaphore(CUexternalSemaphore extSem) {
  CUEMU_DRV_SYMBOL(cuDestroyExternalSemaphore);
  CUEMU_DRV_FORWARD(
      cuemu_rt_destroy_external_semaphore(cuemu::drv::ext(extSem)));
}

inline CUresult cuSignalExternalSemaphoresAsync(
    const CUexternalSemaphore *extSemArray,
    const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
    unsigned int numExtSems, CUstream stream) {
  CUEMU_DRV_SYMBOL(cuSignalExternalSemaphoresAsync);
  return static_cast<CUresult>(
      cuemu::drv::ext_issue(cuemu_rt_signal_external_semaphores, extSemArray,
                            paramsArray, numExtSems, stream));
}

inline CUresult cuWaitExternalSemaphoresAsync(
    const CUexternalSemaphore *extSemArray,
    const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
    unsigned int numExtSems, CUstream stream) {
  CUEMU_DRV_SYMBOL(cuWaitExternalSemaphoresAsync);
  return static_cast<CUresult>(
      cuemu::drv::ext_issue(cuemu_rt_wait_external_semaphores, extSemArray,
                            paramsArray, numExtSems, stream));
}

#endif /* CUEMU_DRIVER_EXTERNAL_API_H */
