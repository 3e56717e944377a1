/*
 * cuemu_driver_graph_nodes_api.h: the driver API's graph calls that take
 * CUDA 12's generic node parameters (cuGraphAddNode, cuGraphNodeSetParams,
 * cuGraphExecNodeSetParams with CUgraphNodeParams), the memory allocation
 * and free nodes (cuGraphAddMemAllocNode, ...), conditional nodes
 * (cuGraphConditionalHandleCreate) and external semaphore nodes. Each call
 * converts the driver's structures (as cuemu_driver_graph_api.h does) and
 * forwards to the runtime's graph (cuemu_runtime_graph.h): one
 * implementation serves both APIs. Included at the end of
 * cuemu_driver_graph_api.h (which cuda.h reads).
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_GRAPH_NODES_API_H
#define CUEMU_DRIVER_GRAPH_NODES_API_H

/* The driver API's types (this header is read at the end of cuda.h). */
#include "cuemu_driver_external_api.h"
#include "cuemu_driver_graph_api.h"

#include <type_traits>

/* ---- Types --------------------------------------------------------------------- */

#include "cuemu_driver_graph_nodes_types.h"

namespace cuemu {
namespace drv {

/* A memory allocation node's parameters: pinned memory on a device, with
 * no export handle types, as CUDA requires; 0 or a driver code. */
template <class A_>
inline int alloc(const A_ *p, cuemu_rt_graph_node_params *__cuemu_r) {
  *__cuemu_r = cuemu_rt_graph_node_params();
  if (!p || p->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
      p->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
      p->poolProps.handleTypes != CU_MEM_HANDLE_TYPE_NONE)
    return CUDA_ERROR_INVALID_VALUE;
  int count = 0;
  cuemu_drv_device_get_count(&count);
  if (p->poolProps.location.id < 0 || p->poolProps.location.id >= count)
    return CUDA_ERROR_INVALID_DEVICE;
  __cuemu_r->type = CUEMU_RT_NODE_MEM_ALLOC;
  __cuemu_r->u.alloc.bytesize = p->bytesize;
  __cuemu_r->u.alloc.device = p->poolProps.location.id + 1;
  /* CUmemAccessDesc has cudaMemAccessDesc's members. */
  __cuemu_r->u.alloc.cuemu_access = p->accessDescs;
  __cuemu_r->u.alloc.cuemu_access_count = p->accessDescCount;
  return 0;
}

inline cuemu_rt_graph_node_params mem_free(CUdeviceptr dptr) {
  cuemu_rt_graph_node_params __cuemu_r = cuemu_rt_graph_node_params();
  __cuemu_r.type = CUEMU_RT_NODE_MEM_FREE;
  __cuemu_r.u.free.dptr = reinterpret_cast<void *>(dptr);
  return __cuemu_r;
}

/* External semaphore node parameters (the runtime's conversion takes the
 * driver's structures, which have the same members). */
template <class N_>
inline int ext_node(int type, const N_ *p, cuemu_rt_graph_node_params *__cuemu_r) {
  *__cuemu_r = cuemu::ext::node(type, p);
  return __cuemu_r->type < 0 ? CUDA_ERROR_INVALID_VALUE : 0;
}

/* CUgraphNodeParams as libcuemu's; 0 or a driver code. */
inline int any(const CUgraphNodeParams *p, cuemu_rt_graph_node_params *__cuemu_r) {
  *__cuemu_r = cuemu_rt_graph_node_params();
  if (!p)
    return CUDA_ERROR_INVALID_VALUE;
  switch (p->type) {
  case CU_GRAPH_NODE_TYPE_KERNEL:
    return kernel(&p->kernel, __cuemu_r);
  case CU_GRAPH_NODE_TYPE_MEMCPY:
    if (p->memcpy.flags || p->memcpy.reserved)
      return CUDA_ERROR_INVALID_VALUE;
    return copy(&p->memcpy.copyParams, __cuemu_r);
  case CU_GRAPH_NODE_TYPE_MEMSET: {
    CUDA_MEMSET_NODE_PARAMS s;
    std::memcpy(&s, &p->memset, sizeof s);
    cudaMemsetParams __cuemu_q = set(&s);
    *__cuemu_r = cuemu::graph::set(&__cuemu_q);
    return 0;
  }
  case CU_GRAPH_NODE_TYPE_HOST:
    *__cuemu_r = cuemu::graph::host(&p->host);
    return 0;
  case CU_GRAPH_NODE_TYPE_GRAPH:
    *__cuemu_r = cuemu::graph::child(
        p->graph.graph,
        p->graph.ownership == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE);
    return 0;
  case CU_GRAPH_NODE_TYPE_EMPTY:
    __cuemu_r->type = CUEMU_RT_NODE_EMPTY;
    return 0;
  case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    *__cuemu_r = cuemu::graph::event(CUEMU_RT_NODE_WAIT_EVENT, p->eventWait.event);
    return 0;
  case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    *__cuemu_r = cuemu::graph::event(CUEMU_RT_NODE_EVENT_RECORD,
                             p->eventRecord.event);
    return 0;
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    return ext_node(CUEMU_RT_NODE_EXT_SIGNAL, &p->extSemSignal, __cuemu_r);
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
    return ext_node(CUEMU_RT_NODE_EXT_WAIT, &p->extSemWait, __cuemu_r);
  case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    return alloc(&p->alloc, __cuemu_r);
  case CU_GRAPH_NODE_TYPE_MEM_FREE:
    *__cuemu_r = mem_free(p->free.dptr);
    return 0;
  case CU_GRAPH_NODE_TYPE_CONDITIONAL:
    __cuemu_r->type = CUEMU_RT_NODE_CONDITIONAL;
    __cuemu_r->u.conditional.handle = p->conditional.handle;
    __cuemu_r->u.conditional.type = p->conditional.type;
    __cuemu_r->u.conditional.size = p->conditional.size;
    return 0;
  case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
    return memop_node(&p->memOp, __cuemu_r);
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

/* Adds a node after its dependencies, giving the edges with data theirs
 * (cuemu_rt_graph_edge_set: ports and the programmatic type only between
 * kernel nodes); on a refused edge, the node goes again. A runtime code. */
inline int __cuemu_add_node_edges(CUgraphNode *__cuemu_node, CUgraph __cuemu_graph,
                          const CUgraphNode *__cuemu_deps,
                          const CUgraphEdgeData *__cuemu_data,
                          size_t __cuemu_n, cuemu_rt_graph_node_params *__cuemu_r) {
  int __cuemu_code =
      add_node(__cuemu_node, __cuemu_graph, __cuemu_deps, __cuemu_n, __cuemu_r);
  for (size_t __cuemu_i = 0; !__cuemu_code && __cuemu_deps && __cuemu_i < __cuemu_n;
       ++__cuemu_i)
    if (unsigned __cuemu_d = cuemu::graph::__cuemu_pack_edge(__cuemu_data, __cuemu_i)) {
      __cuemu_code = cuemu_rt_graph_edge_set(
          reinterpret_cast<cuemu_rt_graph_node *>(__cuemu_deps[__cuemu_i]),
          reinterpret_cast<cuemu_rt_graph_node *>(*__cuemu_node), __cuemu_d);
      if (__cuemu_code)
        cuemu_rt_graph_destroy_node(
            reinterpret_cast<cuemu_rt_graph_node *>(*__cuemu_node));
    }
  return __cuemu_code;
}

/* The outputs of a node just added: an allocation's address, a
 * conditional node's bodies. */
inline void added(CUgraphNodeParams *p, const cuemu_rt_graph_node_params &__cuemu_r) {
  if (p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
    p->alloc.dptr = reinterpret_cast<CUdeviceptr>(__cuemu_r.u.alloc.dptr);
  if (p->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
    p->conditional.phGraph_out =
        reinterpret_cast<CUgraph *>(__cuemu_r.u.conditional.bodies_out);
}

/* An external semaphore node's parameters read back, in the driver's
 * structure N (the runtime's is RN, whose parameters are the driver's).
 * C++11's traits (host code includes <cuda.h> in C++11 too). */
template <class RN, class N_>
inline void ext_node_out(const cuemu_rt_graph_node_params &__cuemu_r, N_ *__cuemu_out) {
  RN rn;
  cuemu::ext::node_out<
      RN, typename std::remove_cv<typename std::remove_pointer<decltype(
              rn.paramsArray)>::type>::type>(__cuemu_r, &rn);
  __cuemu_out->extSemArray = reinterpret_cast<CUexternalSemaphore *>(rn.extSemArray);
  __cuemu_out->paramsArray = rn.paramsArray;
  __cuemu_out->numExtSems = rn.numExtSems;
}

} // namespace drv
} // namespace cuemu

/* ---- Generic node parameters ------------------------------------------------------ */

inline CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                               const CUgraphNode *dependencies,
                               const CUgraphEdgeData *dependencyData,
                               size_t numDependencies,
                               CUgraphNodeParams *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphAddNode);
  cuemu_rt_graph_node_params __cuemu_r;
  CUresult e = [&]() -> CUresult {
    CUEMU_DRV_CONVERTED(
        cuemu::drv::any(nodeParams, &__cuemu_r),
        cuemu::drv::__cuemu_add_node_edges(phGraphNode, hGraph, dependencies,
                                   dependencyData, numDependencies,
                                   &__cuemu_r));
  }();
  if (e == CUDA_SUCCESS)
    cuemu::drv::added(nodeParams, __cuemu_r);
  return e;
}

inline CUresult cuGraphNodeSetParams(CUgraphNode hNode,
                                     CUgraphNodeParams *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(cuemu::drv::any(nodeParams, &__cuemu_r),
                      cuemu_rt_graph_node_set_params(
                          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

inline CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec,
                                         CUgraphNode hNode,
                                         CUgraphNodeParams *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphExecNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::any(nodeParams, &__cuemu_r),
      cuemu_rt_graph_exec_node_set_params(
          reinterpret_cast<cuemu_rt_graph_exec *>(hGraphExec),
          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

/* ---- Memory allocation and free nodes ------------------------------------------------ */

inline CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode,
                                       CUgraph hGraph,
                                       const CUgraphNode *dependencies,
                                       size_t numDependencies,
                                       CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphAddMemAllocNode);
  cuemu_rt_graph_node_params __cuemu_r;
  CUresult e = [&]() -> CUresult {
    CUEMU_DRV_CONVERTED(cuemu::drv::alloc(nodeParams, &__cuemu_r),
                        cuemu::drv::add_node(phGraphNode, hGraph, dependencies,
                                             numDependencies, &__cuemu_r));
  }();
  if (e == CUDA_SUCCESS)
    nodeParams->dptr = reinterpret_cast<CUdeviceptr>(__cuemu_r.u.alloc.dptr);
  return e;
}

/* The pool properties read back are those CUDA requires of a node:
 * pinned memory on the device that holds the allocation. */
inline CUresult
cuGraphMemAllocNodeGetParams(CUgraphNode hNode,
                             CUDA_MEM_ALLOC_NODE_PARAMS *params_out) {
  CUEMU_DRV_SYMBOL(cuGraphMemAllocNodeGetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  int e = cuemu::drv::node_params(hNode, CUEMU_RT_NODE_MEM_ALLOC, params_out,
                                  &__cuemu_r);
  if (e)
    return static_cast<CUresult>(e);
  *params_out = CUDA_MEM_ALLOC_NODE_PARAMS();
  params_out->poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  params_out->poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  params_out->poolProps.location.id = __cuemu_r.u.alloc.device - 1;
  params_out->bytesize = __cuemu_r.u.alloc.bytesize;
  params_out->dptr = reinterpret_cast<CUdeviceptr>(__cuemu_r.u.alloc.dptr);
  return CUDA_SUCCESS;
}

inline CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                      const CUgraphNode *dependencies,
                                      size_t numDependencies,
                                      CUdeviceptr dptr) {
  CUEMU_DRV_SYMBOL(cuGraphAddMemFreeNode);
  cuemu_rt_graph_node_params __cuemu_r = cuemu::drv::mem_free(dptr);
  CUEMU_DRV_FORWARD(cuemu::drv::add_node(phGraphNode, hGraph, dependencies,
                                         numDependencies, &__cuemu_r));
}

inline CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode,
                                            CUdeviceptr *dptr_out) {
  CUEMU_DRV_SYMBOL(cuGraphMemFreeNodeGetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  int e = cuemu::drv::node_params(hNode, CUEMU_RT_NODE_MEM_FREE, dptr_out, &__cuemu_r);
  if (e == CUDA_SUCCESS)
    *dptr_out = reinterpret_cast<CUdeviceptr>(__cuemu_r.u.free.dptr);
  return static_cast<CUresult>(e);
}

inline CUresult cuDeviceGetGraphMemAttribute(CUdevice device,
                                             CUgraphMem_attribute attr,
                                             void *value) {
  CUEMU_DRV_SYMBOL(cuDeviceGetGraphMemAttribute);
  CUEMU_DRV_FORWARD(cudaDeviceGetGraphMemAttribute(
      device, static_cast<cudaGraphMemAttributeType>(attr), value));
}

inline CUresult cuDeviceSetGraphMemAttribute(CUdevice device,
                                             CUgraphMem_attribute attr,
                                             void *value) {
  CUEMU_DRV_SYMBOL(cuDeviceSetGraphMemAttribute);
  CUEMU_DRV_FORWARD(cudaDeviceSetGraphMemAttribute(
      device, static_cast<cudaGraphMemAttributeType>(attr), value));
}

inline CUresult cuDeviceGraphMemTrim(CUdevice device) {
  CUEMU_DRV_SYMBOL(cuDeviceGraphMemTrim);
  CUEMU_DRV_FORWARD(cudaDeviceGraphMemTrim(device));
}

/* ---- Conditional nodes ------------------------------------------------------------- */

/* `ctx` is ignored (every context of a device shares its graphs). */
inline CUresult cuGraphConditionalHandleCreate(
    CUgraphConditionalHandle *pHandle_out, CUgraph hGraph, CUcontext ctx,
    unsigned int defaultLaunchValue, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuGraphConditionalHandleCreate);
  (void)ctx;
  static_assert(sizeof *pHandle_out == sizeof(unsigned long long), "");
  CUEMU_DRV_FORWARD(cuemu_rt_graph_conditional_handle_create(
      reinterpret_cast<unsigned long long *>(pHandle_out),
      reinterpret_cast<cuemu_rt_graph *>(hGraph),
      defaultLaunchValue, flags));
}

/* ---- External semaphore nodes ------------------------------------------------------- */

inline CUresult cuGraphAddExternalSemaphoresSignalNode(
    CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
    size_t numDependencies, const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphAddExternalSemaphoresSignalNode);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::ext_node(CUEMU_RT_NODE_EXT_SIGNAL, nodeParams, &__cuemu_r),
      cuemu::drv::add_node(phGraphNode, hGraph, dependencies, numDependencies,
                           &__cuemu_r));
}

inline CUresult cuGraphAddExternalSemaphoresWaitNode(
    CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
    size_t numDependencies, const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphAddExternalSemaphoresWaitNode);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::ext_node(CUEMU_RT_NODE_EXT_WAIT, nodeParams, &__cuemu_r),
      cuemu::drv::add_node(phGraphNode, hGraph, dependencies, numDependencies,
                           &__cuemu_r));
}

/* The arrays read back are kept per thread until the next such call (CUDA
 * returns arrays the node owns). */
inline CUresult cuGraphExternalSemaphoresSignalNodeGetParams(
    CUgraphNode hNode, CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *params_out) {
  CUEMU_DRV_SYMBOL(cuGraphExternalSemaphoresSignalNodeGetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  int e = cuemu::drv::node_params(hNode, CUEMU_RT_NODE_EXT_SIGNAL, params_out,
                                  &__cuemu_r);
  if (e == CUDA_SUCCESS)
    cuemu::drv::ext_node_out<cudaExternalSemaphoreSignalNodeParams>(
        __cuemu_r, params_out);
  return static_cast<CUresult>(e);
}

inline CUresult cuGraphExternalSemaphoresWaitNodeGetParams(
    CUgraphNode hNode, CUDA_EXT_SEM_WAIT_NODE_PARAMS *params_out) {
  CUEMU_DRV_SYMBOL(cuGraphExternalSemaphoresWaitNodeGetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  int e = cuemu::drv::node_params(hNode, CUEMU_RT_NODE_EXT_WAIT, params_out,
                                  &__cuemu_r);
  if (e == CUDA_SUCCESS)
    cuemu::drv::ext_node_out<cudaExternalSemaphoreWaitNodeParams>(
        __cuemu_r, params_out);
  return static_cast<CUresult>(e);
}

inline CUresult cuGraphExternalSemaphoresSignalNodeSetParams(
    CUgraphNode hNode, const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphExternalSemaphoresSignalNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::ext_node(CUEMU_RT_NODE_EXT_SIGNAL, nodeParams, &__cuemu_r),
      cuemu_rt_graph_node_set_params(
          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

inline CUresult cuGraphExternalSemaphoresWaitNodeSetParams(
    CUgraphNode hNode, const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphExternalSemaphoresWaitNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::ext_node(CUEMU_RT_NODE_EXT_WAIT, nodeParams, &__cuemu_r),
      cuemu_rt_graph_node_set_params(
          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

inline CUresult cuGraphExecExternalSemaphoresSignalNodeSetParams(
    CUgraphExec hGraphExec, CUgraphNode hNode,
    const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphExecExternalSemaphoresSignalNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::ext_node(CUEMU_RT_NODE_EXT_SIGNAL, nodeParams, &__cuemu_r),
      cuemu_rt_graph_exec_node_set_params(
          reinterpret_cast<cuemu_rt_graph_exec *>(hGraphExec),
          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

inline CUresult cuGraphExecExternalSemaphoresWaitNodeSetParams(
    CUgraphExec hGraphExec, CUgraphNode hNode,
    const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphExecExternalSemaphoresWaitNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::ext_node(CUEMU_RT_NODE_EXT_WAIT, nodeParams, &__cuemu_r),
      cuemu_rt_graph_exec_node_set_params(
          reinterpret_cast<cuemu_rt_graph_exec *>(hGraphExec),
          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

/* The capture calls beyond begin and end, those of executable graphs and
 * user objects, the pools (whose properties the allocation nodes share),
 * cuLaunchKernelEx, the copies with descriptors and the arrays and texture
 * objects, which need the types above. */
#include "cuemu_driver_capture_api.h"
#include "cuemu_driver_graph_exec_api.h"
#include "cuemu_driver_pool_api.h"
#include "cuemu_driver_launch_ex_api.h"
#include "cuemu_driver_copy_api.h"
#include "cuemu_driver_array_api.h"
#include "cuemu_driver_memop_api.h"

#endif /* CUEMU_DRIVER_GRAPH_NODES_API_H */
