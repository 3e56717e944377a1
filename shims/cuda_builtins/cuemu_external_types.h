/*
 * cuemu_external_types.h: the types of CUDA's external memory and external
 * semaphores (driver_types.h), and the conversion of the external
 * semaphore node parameters to libcuemu's, which cudaGraphAddNode
 * (cuemu_graph_api.h) and the node calls (cuemu_external_api.h) share.
 * The types are C and C++; the conversion, C++ only.
 */
#ifndef CUEMU_EXTERNAL_TYPES_H
#define CUEMU_EXTERNAL_TYPES_H

#ifdef __cplusplus
#include "cuemu_scratch.h"
#endif

#include <cuemu/cuemu_external.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_rt_texture_types.h>

typedef struct CUexternalMemory_st *cudaExternalMemory_t;
typedef struct CUexternalSemaphore_st *cudaExternalSemaphore_t;

enum cudaExternalMemoryHandleType {
  cudaExternalMemoryHandleTypeOpaqueFd = 1,
  cudaExternalMemoryHandleTypeOpaqueWin32 = 2,
  cudaExternalMemoryHandleTypeOpaqueWin32Kmt = 3,
  cudaExternalMemoryHandleTypeD3D12Heap = 4,
  cudaExternalMemoryHandleTypeD3D12Resource = 5,
  cudaExternalMemoryHandleTypeD3D11Resource = 6,
  cudaExternalMemoryHandleTypeD3D11ResourceKmt = 7,
  cudaExternalMemoryHandleTypeNvSciBuf = 8
};

#define cudaExternalMemoryDedicated 0x1
#define cudaExternalSemaphoreSignalSkipNvSciBufMemSync 0x01
#define cudaExternalSemaphoreWaitSkipNvSciBufMemSync 0x02

struct cudaExternalMemoryHandleDesc {
  enum cudaExternalMemoryHandleType type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *nvSciBufObject;
  } handle;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
};

struct cudaExternalMemoryBufferDesc {
  unsigned long long offset;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
};

struct cudaExternalMemoryMipmappedArrayDesc {
  unsigned long long offset;
  struct cudaChannelFormatDesc formatDesc;
  struct cudaExtent extent;
  unsigned int flags;
  unsigned int numLevels;
  unsigned int reserved[16];
};

enum cudaExternalSemaphoreHandleType {
  cudaExternalSemaphoreHandleTypeOpaqueFd = 1,
  cudaExternalSemaphoreHandleTypeOpaqueWin32 = 2,
  cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt = 3,
  cudaExternalSemaphoreHandleTypeD3D12Fence = 4,
  cudaExternalSemaphoreHandleTypeD3D11Fence = 5,
  cudaExternalSemaphoreHandleTypeNvSciSync = 6,
  cudaExternalSemaphoreHandleTypeKeyedMutex = 7,
  cudaExternalSemaphoreHandleTypeKeyedMutexKmt = 8,
  cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9,
  cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32 = 10
};

struct cudaExternalSemaphoreHandleDesc {
  enum cudaExternalSemaphoreHandleType type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *nvSciSyncObj;
  } handle;
  unsigned int flags;
  unsigned int reserved[16];
};

struct cudaExternalSemaphoreSignalParams {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void *fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
    } keyedMutex;
    unsigned int reserved[12];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
};

struct cudaExternalSemaphoreWaitParams {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void *fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
      unsigned int timeoutMs;
    } keyedMutex;
    unsigned int reserved[10];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
};

struct cudaExternalSemaphoreSignalNodeParams {
  cudaExternalSemaphore_t *extSemArray;
  const struct cudaExternalSemaphoreSignalParams *paramsArray;
  unsigned int numExtSems;
};
struct cudaExternalSemaphoreSignalNodeParamsV2 {
  cudaExternalSemaphore_t *extSemArray;
  const struct cudaExternalSemaphoreSignalParams *paramsArray;
  unsigned int numExtSems;
};
struct cudaExternalSemaphoreWaitNodeParams {
  cudaExternalSemaphore_t *extSemArray;
  const struct cudaExternalSemaphoreWaitParams *paramsArray;
  unsigned int numExtSems;
};
struct cudaExternalSemaphoreWaitNodeParamsV2 {
  cudaExternalSemaphore_t *extSemArray;
  const struct cudaExternalSemaphoreWaitParams *paramsArray;
  unsigned int numExtSems;
};

#ifdef __cplusplus
namespace cuemu {
namespace ext {

inline cuemu_rt_external_semaphore *const *sems(
    const cudaExternalSemaphore_t *v) {
  return reinterpret_cast<cuemu_rt_external_semaphore *const *>(v);
}

/* The fence values of signal or wait parameters, in the calling thread's
 * scratch array of tag Tag (cuemu_scratch.h). */
template <class Tag, class P_>
inline unsigned long long *values(const P_ *p, unsigned n) {
  unsigned long long *v = scratch<Tag, unsigned long long>(n);
  for (unsigned __cuemu_i = 0; v && p && __cuemu_i < n; ++__cuemu_i)
    v[__cuemu_i] = p[__cuemu_i].params.fence.value;
  return v;
}

/* A node's parameters (NULL parameters or arrays: type -2, refused as
 * invalid). The fence values are kept per thread until the next call: the
 * node copies them when it is made or set. */
template <class N_>
inline cuemu_rt_graph_node_params node(int type, const N_ *p) {
  struct node_values;
  cuemu_rt_graph_node_params __cuemu_r = {};
  if (!p || (p->numExtSems && (!p->extSemArray || !p->paramsArray))) {
    __cuemu_r.type = -2;
    return __cuemu_r;
  }
  unsigned long long *v = values<node_values>(p->paramsArray, p->numExtSems);
  if (p->numExtSems && !v) {
    __cuemu_r.type = -2;
    return __cuemu_r;
  }
  __cuemu_r.type = type;
  __cuemu_r.u.ext.sems = reinterpret_cast<void *const *>(p->extSemArray);
  __cuemu_r.u.ext.values = v;
  __cuemu_r.u.ext.count = p->numExtSems;
  return __cuemu_r;
}

/* A node's parameters read back: the semaphores are the node's; the
 * parameters are kept per thread until the next call (CUDA returns arrays
 * the node owns). */
template <class N_, class P_>
inline void node_out(const cuemu_rt_graph_node_params &__cuemu_r, N_ *__cuemu_out) {
  struct node_params;
  P_ *params = scratch<node_params, P_>(__cuemu_r.u.ext.count);
  for (unsigned __cuemu_i = 0; params && __cuemu_i < __cuemu_r.u.ext.count; ++__cuemu_i)
    params[__cuemu_i].params.fence.value = __cuemu_r.u.ext.values[__cuemu_i];
  __cuemu_out->extSemArray = reinterpret_cast<cudaExternalSemaphore_t *>(
      const_cast<void **>(__cuemu_r.u.ext.sems));
  __cuemu_out->paramsArray = params;
  __cuemu_out->numExtSems = __cuemu_r.u.ext.count;
}

} // namespace ext
} // namespace cuemu
#endif /* __cplusplus */

#endif /* CUEMU_EXTERNAL_TYPES_H */
