/*
 * cuemu_external_api.h: CUDA's external memory and external semaphores
 * (cudaImportExternalMemory, cudaExternalMemoryGetMappedBuffer,
 * cudaImportExternalSemaphore, cudaSignalExternalSemaphoresAsync,
 * cudaWaitExternalSemaphoresAsync and their graph nodes), in CUDA 13's
 * signatures. Only the opaque file-descriptor handle types are emulated;
 * cuemu/cuemu_external.h says what they mean here and docs/driver-api.md
 * documents the semaphore file's layout. Included at the end of
 * cuda_runtime_api.h, after cuemu_graph_api.h.
 */
#ifndef CUEMU_EXTERNAL_API_H
#define CUEMU_EXTERNAL_API_H

/* The runtime API (this header is read at the end of it). */
#include "cuda_runtime_api.h"


#include <cuemu/cuemu_external.h>

#include "cuemu_external_types.h"
#include "cuemu_graph_api.h"

namespace cuemu {
namespace ext {
inline cudaError_t err(int code) { return static_cast<cudaError_t>(code); }
} // namespace ext
} // namespace cuemu

/* ---- External memory ------------------------------------------------------ */

inline cudaError_t
cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
                         const struct cudaExternalMemoryHandleDesc *memHandleDesc) {
  if (!memHandleDesc)
    return cuemu::ext::err(cuemu_rt_error(cudaErrorInvalidValue));
  return cuemu::ext::err(cuemu_rt_import_external_memory(
      reinterpret_cast<cuemu_rt_external_memory **>(extMem_out),
      memHandleDesc->type, memHandleDesc->handle.fd, memHandleDesc->size,
      memHandleDesc->flags));
}

CUEMU_AT_CALLER inline cudaError_t cudaExternalMemoryGetMappedBuffer(
    void **devPtr, cudaExternalMemory_t extMem,
    const struct cudaExternalMemoryBufferDesc *bufferDesc) {
  if (!bufferDesc)
    return cuemu::ext::err(cuemu_rt_error(cudaErrorInvalidValue));
  return cuemu::ext::err(cuemu_rt_external_memory_get_mapped_buffer(
      devPtr, reinterpret_cast<cuemu_rt_external_memory *>(extMem),
      bufferDesc->offset, bufferDesc->size, bufferDesc->flags));
}

/* cuemu-status: refused (CUDA arrays on external memory are not emulated) */
inline cudaError_t cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
    const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc) {
  (void)mipmap;
  (void)extMem;
  (void)mipmapDesc;
  return cuemu::ext::err(cuemu_rt_error(cudaErrorNotSupported));
}

inline cudaError_t cudaDestroyExternalMemory(cudaExternalMemory_t extMem) {
  return cuemu::ext::err(cuemu_rt_destroy_external_memory(
      reinterpret_cast<cuemu_rt_external_memory *>(extMem)));
}

/* ---- External semaphores -------------------------------------------------- */

inline cudaError_t cudaImportExternalSemaphore(
    cudaExternalSemaphore_t *extSem_out,
    const struct cudaExternalSemaphoreHandleDesc *semHandleDesc) {
  if (!semHandleDesc)
    return cuemu::ext::err(cuemu_rt_error(cudaErrorInvalidValue));
  return cuemu::ext::err(cuemu_rt_import_external_semaphore(
      reinterpret_cast<cuemu_rt_external_semaphore **>(extSem_out),
      semHandleDesc->type, semHandleDesc->handle.fd, semHandleDesc->flags));
}

inline cudaError_t cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem) {
  return cuemu::ext::err(cuemu_rt_destroy_external_semaphore(
      reinterpret_cast<cuemu_rt_external_semaphore *>(extSem)));
}

namespace cuemu {
namespace ext {
/* A signal or wait of `n` semaphores with their fence values. */
template <class P_>
inline cudaError_t issue(int (*call)(cuemu_rt_external_semaphore *const *,
                                     const unsigned long long *, unsigned,
                                     void *),
                         const cudaExternalSemaphore_t *sems_in,
                         const P_ *params, unsigned n, cudaStream_t stream) {
  if (n && !params)
    return err(cuemu_rt_error(cudaErrorInvalidValue));
  struct issue_values;
  unsigned long long *v = values<issue_values>(params, n);
  if (n && !v)
    return err(cuemu_rt_error(cudaErrorMemoryAllocation));
  return err(call(sems(sems_in), v, n, stream));
}
} // namespace ext
} // namespace cuemu

inline cudaError_t cudaSignalExternalSemaphoresAsync(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreSignalParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream = 0) {
  return cuemu::ext::issue(cuemu_rt_signal_external_semaphores, extSemArray,
                           paramsArray, numExtSems, stream);
}

inline cudaError_t cudaWaitExternalSemaphoresAsync(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreWaitParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream = 0) {
  return cuemu::ext::issue(cuemu_rt_wait_external_semaphores, extSemArray,
                           paramsArray, numExtSems, stream);
}

/* ---- Graph nodes ------------------------------------------------------------ */

inline cudaError_t cudaGraphAddExternalSemaphoresSignalNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const struct cudaExternalSemaphoreSignalNodeParams *nodeParams) {
  return cuemu::graph::add(
      pGraphNode, graph, pDependencies, numDependencies,
      cuemu::ext::node(CUEMU_RT_NODE_EXT_SIGNAL, nodeParams));
}

inline cudaError_t cudaGraphAddExternalSemaphoresWaitNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const struct cudaExternalSemaphoreWaitNodeParams *nodeParams) {
  return cuemu::graph::add(
      pGraphNode, graph, pDependencies, numDependencies,
      cuemu::ext::node(CUEMU_RT_NODE_EXT_WAIT, nodeParams));
}

inline cudaError_t cudaGraphExternalSemaphoresSignalNodeGetParams(
    cudaGraphNode_t hNode,
    struct cudaExternalSemaphoreSignalNodeParams *params_out) {
  cuemu_rt_graph_node_params __cuemu_r;
  cudaError_t e = cuemu::graph::get(hNode, CUEMU_RT_NODE_EXT_SIGNAL, &__cuemu_r);
  if (e == cudaSuccess && params_out)
    cuemu::ext::node_out<cudaExternalSemaphoreSignalNodeParams,
                         cudaExternalSemaphoreSignalParams>(__cuemu_r, params_out);
  return e;
}

inline cudaError_t cudaGraphExternalSemaphoresWaitNodeGetParams(
    cudaGraphNode_t hNode,
    struct cudaExternalSemaphoreWaitNodeParams *params_out) {
  cuemu_rt_graph_node_params __cuemu_r;
  cudaError_t e = cuemu::graph::get(hNode, CUEMU_RT_NODE_EXT_WAIT, &__cuemu_r);
  if (e == cudaSuccess && params_out)
    cuemu::ext::node_out<cudaExternalSemaphoreWaitNodeParams,
                         cudaExternalSemaphoreWaitParams>(__cuemu_r, params_out);
  return e;
}

inline cudaError_t cudaGraphExternalSemaphoresSignalNodeSetParams(
    cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreSignalNodeParams *nodeParams) {
  return cuemu::graph::put(
      hNode, cuemu::ext::node(CUEMU_RT_NODE_EXT_SIGNAL, nodeParams));
}

inline cudaError_t cudaGraphExternalSemaphoresWaitNodeSetParams(
    cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreWaitNodeParams *nodeParams) {
  return cuemu::graph::put(
      hNode, cuemu::ext::node(CUEMU_RT_NODE_EXT_WAIT, nodeParams));
}

inline cudaError_t cudaGraphExecExternalSemaphoresSignalNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreSignalNodeParams *nodeParams) {
  return cuemu::graph::exec_put(
      hGraphExec, hNode,
      cuemu::ext::node(CUEMU_RT_NODE_EXT_SIGNAL, nodeParams));
}

inline cudaError_t cudaGraphExecExternalSemaphoresWaitNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreWaitNodeParams *nodeParams) {
  return cuemu::graph::exec_put(
      hGraphExec, hNode,
      cuemu::ext::node(CUEMU_RT_NODE_EXT_WAIT, nodeParams));
}

#endif /* CUEMU_EXTERNAL_API_H */
