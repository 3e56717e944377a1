/*
 * cuemu_graph_api.h: CUDA Graphs of the CUDA runtime API, in CUDA 13's
 * signatures: stream capture, graphs and their nodes, executable graphs,
 * user objects, conditional nodes (cudaGraphSetConditional in kernels).
 * Each CUDA name converts CUDA's structures and forwards to libcuemu
 * (cuemu/cuemu_runtime_graph.h); docs/graphs.md says what is emulated.
 * Included at the end of cuda_runtime_api.h, after cuemu_streams_api.h.
 *
 * CUDA's types of driver_types.h that these calls use are in
 * cuemu_graph_types.h (C and C++). The memory-pool types that memory allocation nodes name (cudaMemPoolProps,
 * cudaMemLocation, cudaMemAccessDesc and their enums) are stream-ordered
 * allocation's (<cuemu/cuemu_rt_host_types.h>).
 */
#ifndef CUEMU_GRAPH_API_H
#define CUEMU_GRAPH_API_H

#include <cstddef>
#include <cstring>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_streams.h>

#include <cuemu/cuemu_rt_texture_types.h>
#include <cuemu/cuemu_rt_graph_mem.h>

#include "cuemu_scratch.h"
#include "driver_functions.h"
#include "driver_types.h"
#include "vector_types.h"

#include "cuemu_graph_types.h"

namespace cuemu {
namespace graph {

typedef cuemu_rt_graph_node_params params;

inline cuemu_rt_graph *__cuemu_g(cudaGraph_t graph) {
  return reinterpret_cast<cuemu_rt_graph *>(graph);
}
inline cuemu_rt_graph_node *n(cudaGraphNode_t node) {
  return reinterpret_cast<cuemu_rt_graph_node *>(node);
}
inline cuemu_rt_graph_node *const *nodes(const cudaGraphNode_t *v) {
  return reinterpret_cast<cuemu_rt_graph_node *const *>(v);
}
inline cuemu_rt_graph_exec *x(cudaGraphExec_t exec) {
  return reinterpret_cast<cuemu_rt_graph_exec *>(exec);
}
inline cudaError_t err(int code) { return static_cast<cudaError_t>(code); }


/* Edge data as libcuemu keeps it (cuemu_rt_graph_edge_set): from_port |
 * to_port << 8 | type << 16, with a reserved byte set as 1 << 24 so that
 * it is refused. */
inline unsigned __cuemu_pack_edge(const cudaGraphEdgeData *__cuemu_e, size_t __cuemu_i) {
  if (!__cuemu_e)
    return 0;
  unsigned __cuemu_res = 0;
  for (unsigned __cuemu_k = 0; __cuemu_k < sizeof __cuemu_e[__cuemu_i].reserved;
       ++__cuemu_k)
    __cuemu_res |= __cuemu_e[__cuemu_i].reserved[__cuemu_k];
  return __cuemu_e[__cuemu_i].from_port |
         (unsigned)__cuemu_e[__cuemu_i].to_port << 8 |
         (unsigned)__cuemu_e[__cuemu_i].type << 16 |
         (__cuemu_res ? 1u << 24 : 0u);
}
inline cudaGraphEdgeData __cuemu_unpack_edge(unsigned __cuemu_d) {
  cudaGraphEdgeData __cuemu_e;
  std::memset(&__cuemu_e, 0, sizeof __cuemu_e);
  __cuemu_e.from_port = static_cast<unsigned char>(__cuemu_d & 0xffu);
  __cuemu_e.to_port = static_cast<unsigned char>((__cuemu_d >> 8) & 0xffu);
  __cuemu_e.type = static_cast<unsigned char>((__cuemu_d >> 16) & 0xffu);
  return __cuemu_e;
}

/* The data of the edges __cuemu_from[i] -> __cuemu_to[i] (a NULL array
 * names __cuemu_one_from or __cuemu_one_to for all) into __cuemu_out, or,
 * with __cuemu_out NULL, cudaErrorLossyQuery when one of them has data
 * (CUDA: "Attempting a lossy query via NULL edgeData will result in
 * cudaErrorLossyQuery"). */
inline cudaError_t __cuemu_edges_out(cudaGraphNode_t __cuemu_one_from,
                             const cudaGraphNode_t *__cuemu_from,
                             cudaGraphNode_t __cuemu_one_to,
                             const cudaGraphNode_t *__cuemu_to,
                             cudaGraphEdgeData *__cuemu_out,
                             size_t __cuemu_count) {
  for (size_t __cuemu_i = 0; __cuemu_i < __cuemu_count; ++__cuemu_i) {
    unsigned __cuemu_d = 0;
    cudaGraphNode_t __cuemu_a =
        __cuemu_from ? __cuemu_from[__cuemu_i] : __cuemu_one_from;
    cudaGraphNode_t __cuemu_b =
        __cuemu_to ? __cuemu_to[__cuemu_i] : __cuemu_one_to;
    if (__cuemu_a && __cuemu_b)
      cuemu_rt_graph_edge_get(n(__cuemu_a), n(__cuemu_b), &__cuemu_d);
    if (__cuemu_out)
      __cuemu_out[__cuemu_i] = __cuemu_unpack_edge(__cuemu_d);
    else if (__cuemu_d)
      return err(cuemu_rt_error(cudaErrorLossyQuery));
  }
  return cudaSuccess;
}

/* The edge data given to cudaStreamBeginCaptureToGraph or
 * cudaStreamUpdateCaptureDependencies, checked before the call changes
 * anything (as for an edge to a kernel node: the next node's type is
 * checked when it is captured), then given to the stream's dependencies. */
inline cudaError_t cuemu_capture_edges_check(const cudaGraphNode_t *__cuemu_deps,
                                       const cudaGraphEdgeData *__cuemu_e,
                                       size_t __cuemu_count) {
  for (size_t __cuemu_i = 0; __cuemu_e && __cuemu_deps && __cuemu_i < __cuemu_count;
       ++__cuemu_i) {
    unsigned __cuemu_d = __cuemu_pack_edge(__cuemu_e, __cuemu_i);
    int __cuemu_r = __cuemu_d ? cuemu_rt_graph_edge_check(
                                    n(__cuemu_deps[__cuemu_i]), nullptr,
                                    CUEMU_RT_NODE_KERNEL, __cuemu_d)
                              : 0;
    if (__cuemu_r)
      return err(__cuemu_r);
  }
  return cudaSuccess;
}
inline cudaError_t cuemu_capture_edges_set(cudaStream_t __cuemu_s,
                                     const cudaGraphNode_t *__cuemu_deps,
                                     const cudaGraphEdgeData *__cuemu_e,
                                     size_t __cuemu_count) {
  for (size_t __cuemu_i = 0; __cuemu_e && __cuemu_i < __cuemu_count; ++__cuemu_i) {
    unsigned __cuemu_d = __cuemu_pack_edge(__cuemu_e, __cuemu_i);
    cudaError_t __cuemu_r = err(cuemu_rt_stream_capture_edges_set(
        __cuemu_s, nodes(__cuemu_deps + __cuemu_i), &__cuemu_d, 1));
    if (__cuemu_r != cudaSuccess)
      return __cuemu_r;
  }
  return cudaSuccess;
}

/* From cudaKernelNodeParams or its V2. */
/* Parameters given as NULL: refused with cudaErrorInvalidValue. */
constexpr int missing = -2;

template <class P_> inline params kernel(const P_ *p) {
  params __cuemu_r = {};
  __cuemu_r.type = p ? CUEMU_RT_NODE_KERNEL : missing;
  if (!p)
    return __cuemu_r;
  __cuemu_r.u.kernel.function = p->func;
  __cuemu_r.u.kernel.cuemu_grid = {p->gridDim.x, p->gridDim.y, p->gridDim.z};
  __cuemu_r.u.kernel.cuemu_block = {p->blockDim.x, p->blockDim.y, p->blockDim.z};
  __cuemu_r.u.kernel.dynamic_shared = p->sharedMemBytes;
  __cuemu_r.u.kernel.args = p->kernelParams;
  __cuemu_r.u.kernel.extra = p->extra;
  return __cuemu_r;
}

inline void kernel_out(const params &__cuemu_r, cudaKernelNodeParams *p) {
  p->func = const_cast<void *>(__cuemu_r.u.kernel.function);
  p->gridDim = dim3(__cuemu_r.u.kernel.cuemu_grid.x, __cuemu_r.u.kernel.cuemu_grid.y, __cuemu_r.u.kernel.cuemu_grid.z);
  p->blockDim =
      dim3(__cuemu_r.u.kernel.cuemu_block.x, __cuemu_r.u.kernel.cuemu_block.y, __cuemu_r.u.kernel.cuemu_block.z);
  p->sharedMemBytes = static_cast<unsigned>(__cuemu_r.u.kernel.dynamic_shared);
  p->kernelParams = __cuemu_r.u.kernel.args;
  p->extra = nullptr;
}

/* A copy between pitched memory and CUDA arrays (libcuemu converts). */
inline params copy(const cudaMemcpy3DParms *p) {
  params __cuemu_r = {};
  __cuemu_r.type = p ? CUEMU_RT_NODE_MEMCPY : missing;
  if (p && cuemu_rt_graph_memcpy_from_3d(&__cuemu_r.u.memcpy, p) != cudaSuccess)
    __cuemu_r.type = missing;
  return __cuemu_r;
}

inline void copy_out(const params &__cuemu_r, cudaMemcpy3DParms *p) {
  cuemu_rt_graph_memcpy_to_3d(&__cuemu_r.u.memcpy, p);
}

inline params copy_1d(void *dst, const void *src, size_t count,
                      cudaMemcpyKind kind) {
  cudaMemcpy3DParms p = cudaMemcpy3DParms();
  p.dstPtr = make_cudaPitchedPtr(dst, count, count, 1);
  p.srcPtr = make_cudaPitchedPtr(const_cast<void *>(src), count, count, 1);
  p.extent = make_cudaExtent(count, 1, 1);
  p.kind = kind;
  return copy(&p);
}

template <class P_> inline params set(const P_ *p) {
  params __cuemu_r = {};
  __cuemu_r.type = p ? CUEMU_RT_NODE_MEMSET : missing;
  if (!p)
    return __cuemu_r;
  __cuemu_r.u.memset.dst = p->dst;
  __cuemu_r.u.memset.pitch = p->pitch;
  __cuemu_r.u.memset.value = p->value;
  __cuemu_r.u.memset.element_size = p->elementSize;
  __cuemu_r.u.memset.width = p->width;
  __cuemu_r.u.memset.height = p->height;
  return __cuemu_r;
}

template <class P_> inline params host(const P_ *p) {
  params __cuemu_r = {};
  __cuemu_r.type = p ? CUEMU_RT_NODE_HOST : missing;
  if (!p)
    return __cuemu_r;
  __cuemu_r.u.host.fn = p->fn;
  __cuemu_r.u.host.data = p->userData;
  return __cuemu_r;
}

inline params child(cudaGraph_t graph, int move = 0) {
  params __cuemu_r = {};
  __cuemu_r.type = CUEMU_RT_NODE_GRAPH;
  __cuemu_r.u.child.graph = __cuemu_g(graph);
  __cuemu_r.u.child.move = move;
  return __cuemu_r;
}

inline params event(int type, cudaEvent_t e) {
  params __cuemu_r = {};
  __cuemu_r.type = type;
  __cuemu_r.u.event.event = e;
  return __cuemu_r;
}

/* cudaGraphNodeParams as libcuemu's; type -1 for what is not emulated. */
inline params any(const cudaGraphNodeParams *p) {
  params __cuemu_r = {};
  __cuemu_r.type = -1;
  switch (p->type) {
  case cudaGraphNodeTypeKernel:
    return kernel(&p->kernel);
  case cudaGraphNodeTypeMemcpy:
    return copy(&p->memcpy.copyParams);
  case cudaGraphNodeTypeMemset:
    return set(&p->memset);
  case cudaGraphNodeTypeHost:
    return host(&p->host);
  case cudaGraphNodeTypeGraph:
    return child(p->graph.graph,
                 p->graph.ownership == cudaGraphChildGraphOwnershipMove);
  case cudaGraphNodeTypeEmpty:
    __cuemu_r.type = CUEMU_RT_NODE_EMPTY;
    return __cuemu_r;
  case cudaGraphNodeTypeWaitEvent:
    return event(CUEMU_RT_NODE_WAIT_EVENT, p->eventWait.event);
  case cudaGraphNodeTypeEventRecord:
    return event(CUEMU_RT_NODE_EVENT_RECORD, p->eventRecord.event);
  case cudaGraphNodeTypeExtSemaphoreSignal:
    return cuemu::ext::node(CUEMU_RT_NODE_EXT_SIGNAL, &p->extSemSignal);
  case cudaGraphNodeTypeExtSemaphoreWait:
    return cuemu::ext::node(CUEMU_RT_NODE_EXT_WAIT, &p->extSemWait);
  case cudaGraphNodeTypeMemAlloc:
    __cuemu_r.type = CUEMU_RT_NODE_MEM_ALLOC;
    __cuemu_r.u.alloc.bytesize = p->alloc.bytesize;
    __cuemu_r.u.alloc.device = p->alloc.poolProps.location.id + 1;
    __cuemu_r.u.alloc.cuemu_access = p->alloc.accessDescs;
    __cuemu_r.u.alloc.cuemu_access_count = p->alloc.accessDescCount;
    return __cuemu_r;
  case cudaGraphNodeTypeMemFree:
    __cuemu_r.type = CUEMU_RT_NODE_MEM_FREE;
    __cuemu_r.u.free.dptr = p->free.dptr;
    return __cuemu_r;
  case cudaGraphNodeTypeConditional:
    __cuemu_r.type = CUEMU_RT_NODE_CONDITIONAL;
    __cuemu_r.u.conditional.handle = p->conditional.handle;
    __cuemu_r.u.conditional.type = p->conditional.type;
    __cuemu_r.u.conditional.size = p->conditional.size;
    return __cuemu_r;
  default:
    return __cuemu_r;
  }
}

/* The address of a __device__ variable, for the symbol copies. */
template <class T> inline cudaError_t symbol(void **base, const T &symbol) {
  return err(cuemu_rt_get_symbol_address(
      base, const_cast<void *>(static_cast<const volatile void *>(
                __builtin_addressof(symbol))),
      sizeof(T)));
}

/* Parameters that are missing, or that cuemu does not emulate. */
inline cudaError_t refuse(const params &__cuemu_r) {
  return err(cuemu_rt_error(__cuemu_r.type == missing ? cudaErrorInvalidValue
                                              : cudaErrorNotSupported));
}

inline cudaError_t add(cudaGraphNode_t *node, cudaGraph_t graph,
                       const cudaGraphNode_t *deps, size_t ndeps, params __cuemu_r) {
  if (__cuemu_r.type < 0)
    return refuse(__cuemu_r);
  return err(cuemu_rt_graph_add_node(
      reinterpret_cast<cuemu_rt_graph_node **>(node), __cuemu_g(graph), nodes(deps),
      ndeps, &__cuemu_r));
}

/* A node's parameters when it is of `type`. */
inline cudaError_t get(cudaGraphNode_t node, int type, params *__cuemu_r) {
  cudaError_t e = err(cuemu_rt_graph_node_get_params(n(node), __cuemu_r));
  if (e == cudaSuccess && __cuemu_r->type != type)
    return err(cuemu_rt_error(cudaErrorInvalidValue));
  return e;
}

inline cudaError_t put(cudaGraphNode_t node, params __cuemu_r) {
  if (__cuemu_r.type < 0)
    return refuse(__cuemu_r);
  return err(cuemu_rt_graph_node_set_params(n(node), &__cuemu_r));
}

inline cudaError_t exec_put(cudaGraphExec_t exec, cudaGraphNode_t node,
                            params __cuemu_r) {
  if (__cuemu_r.type < 0)
    return refuse(__cuemu_r);
  return err(cuemu_rt_graph_exec_node_set_params(x(exec), n(node), &__cuemu_r));
}

} // namespace graph
} // namespace cuemu

/* ---- Stream capture ----------------------------------------------------------- */

inline cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
                                          enum cudaStreamCaptureMode mode) {
  return cuemu::graph::err(
      cuemu_rt_stream_begin_capture(stream, mode, nullptr, nullptr, 0));
}

inline cudaError_t
cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                              const cudaGraphNode_t *dependencies,
                              const cudaGraphEdgeData *dependencyData,
                              size_t numDependencies,
                              enum cudaStreamCaptureMode mode) {
  if (!graph)
    return cuemu::graph::err(cuemu_rt_error(cudaErrorInvalidValue));
  cudaError_t e = cuemu::graph::cuemu_capture_edges_check(
      dependencies, dependencyData, numDependencies);
  if (e != cudaSuccess)
    return e;
  e = cuemu::graph::err(cuemu_rt_stream_begin_capture(
      stream, mode, cuemu::graph::__cuemu_g(graph), cuemu::graph::nodes(dependencies),
      numDependencies));
  if (e == cudaSuccess)
    e = cuemu::graph::cuemu_capture_edges_set(stream, dependencies, dependencyData,
                                        numDependencies);
  return e;
}

inline cudaError_t cudaStreamEndCapture(cudaStream_t stream,
                                        cudaGraph_t *pGraph) {
  return cuemu::graph::err(cuemu_rt_stream_end_capture(
      stream, reinterpret_cast<cuemu_rt_graph **>(pGraph)));
}

inline cudaError_t cudaStreamIsCapturing(
    cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus) {
  int status = 0;
  cudaError_t e = cuemu::graph::err(cuemu_rt_stream_is_capturing(
      stream, pCaptureStatus ? &status : nullptr));
  if (e == cudaSuccess)
    *pCaptureStatus = static_cast<cudaStreamCaptureStatus>(status);
  return e;
}

/* CUDA 13's form: the dependencies' edge data are all zero here. */
inline cudaError_t cudaStreamGetCaptureInfo(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
    unsigned long long *id_out = 0, cudaGraph_t *graph_out = 0,
    const cudaGraphNode_t **dependencies_out = 0,
    const cudaGraphEdgeData **edgeData_out = 0,
    size_t *numDependencies_out = 0) {
  int status = 0;
  size_t count = 0;
  cuemu_rt_graph_node *const *deps = nullptr;
  cudaError_t e = cuemu::graph::err(cuemu_rt_stream_get_capture_info(
      stream, captureStatus_out ? &status : nullptr, id_out,
      reinterpret_cast<cuemu_rt_graph **>(graph_out), &deps, &count));
  if (e != cudaSuccess)
    return e;
  *captureStatus_out = static_cast<cudaStreamCaptureStatus>(status);
  if (status == cudaStreamCaptureStatusNone)
    return e;
  /* The edges' data parallel the dependencies (CUDA: asking for them
   * without the dependencies is an invalid value, and the dependencies
   * without them, when one has data, a lossy query). */
  if (edgeData_out && !dependencies_out)
    return cuemu::graph::err(cuemu_rt_error(cudaErrorInvalidValue));
  struct edge_data_out;
  cudaGraphEdgeData *__cuemu_data =
      edgeData_out ? cuemu::scratch<edge_data_out, cudaGraphEdgeData>(count)
                   : nullptr;
  for (size_t __cuemu_i = 0; dependencies_out && __cuemu_i < count;
       ++__cuemu_i) {
    unsigned __cuemu_d = 0;
    cuemu_rt_stream_capture_edge_get(stream, deps[__cuemu_i], &__cuemu_d);
    if (__cuemu_data)
      __cuemu_data[__cuemu_i] = cuemu::graph::__cuemu_unpack_edge(__cuemu_d);
    else if (__cuemu_d)
      return cuemu::graph::err(cuemu_rt_error(cudaErrorLossyQuery));
  }
  if (dependencies_out)
    *dependencies_out = reinterpret_cast<const cudaGraphNode_t *>(deps);
  if (numDependencies_out)
    *numDependencies_out = count;
  if (edgeData_out)
    *edgeData_out = __cuemu_data;
  return e;
}

inline cudaError_t cudaStreamUpdateCaptureDependencies(
    cudaStream_t stream, cudaGraphNode_t *dependencies,
    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
    unsigned int flags = 0) {
  cudaError_t e = cuemu::graph::cuemu_capture_edges_check(
      dependencies, dependencyData, numDependencies);
  if (e != cudaSuccess)
    return e;
  e = cuemu::graph::err(cuemu_rt_stream_update_capture_dependencies(
      stream, cuemu::graph::nodes(dependencies), numDependencies, flags));
  if (e == cudaSuccess)
    e = cuemu::graph::cuemu_capture_edges_set(stream, dependencies, dependencyData,
                                        numDependencies);
  return e;
}

inline cudaError_t
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) {
  int __cuemu_m = mode ? static_cast<int>(*mode) : 0;
  cudaError_t e = cuemu::graph::err(
      cuemu_rt_thread_exchange_capture_mode(mode ? &__cuemu_m : nullptr));
  if (e == cudaSuccess)
    *mode = static_cast<cudaStreamCaptureMode>(__cuemu_m);
  return e;
}

/* ---- Graphs ------------------------------------------------------------------- */

inline cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
  return cuemu::graph::err(cuemu_rt_graph_create(
      reinterpret_cast<cuemu_rt_graph **>(pGraph), flags));
}

inline cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  return cuemu::graph::err(cuemu_rt_graph_destroy(cuemu::graph::__cuemu_g(graph)));
}

inline cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone,
                                  cudaGraph_t originalGraph) {
  return cuemu::graph::err(
      cuemu_rt_graph_clone(reinterpret_cast<cuemu_rt_graph **>(pGraphClone),
                           cuemu::graph::__cuemu_g(originalGraph)));
}

inline cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode,
                                            cudaGraphNode_t originalNode,
                                            cudaGraph_t clonedGraph) {
  return cuemu::graph::err(cuemu_rt_graph_node_find_in_clone(
      reinterpret_cast<cuemu_rt_graph_node **>(pNode),
      cuemu::graph::n(originalNode), cuemu::graph::__cuemu_g(clonedGraph)));
}

inline cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node,
                                        enum cudaGraphNodeType *pType) {
  int type = 0;
  cudaError_t e = cuemu::graph::err(
      cuemu_rt_graph_node_get_type(cuemu::graph::n(node), pType ? &type : 0));
  if (e == cudaSuccess)
    *pType = static_cast<cudaGraphNodeType>(type);
  return e;
}

inline cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
                                     size_t *numNodes) {
  return cuemu::graph::err(cuemu_rt_graph_get_nodes(
      cuemu::graph::__cuemu_g(graph), reinterpret_cast<cuemu_rt_graph_node **>(nodes),
      numNodes));
}

inline cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph,
                                         cudaGraphNode_t *pRootNodes,
                                         size_t *pNumRootNodes) {
  return cuemu::graph::err(cuemu_rt_graph_get_root_nodes(
      cuemu::graph::__cuemu_g(graph),
      reinterpret_cast<cuemu_rt_graph_node **>(pRootNodes), pNumRootNodes));
}

inline cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
                                     cudaGraphNode_t *to,
                                     cudaGraphEdgeData *edgeData,
                                     size_t *numEdges) {
  cudaError_t e = cuemu::graph::err(cuemu_rt_graph_get_edges(
      cuemu::graph::__cuemu_g(graph), reinterpret_cast<cuemu_rt_graph_node **>(from),
      reinterpret_cast<cuemu_rt_graph_node **>(to), numEdges));
  if (e == cudaSuccess && from)
    e = cuemu::graph::__cuemu_edges_out(nullptr, from, nullptr, to, edgeData, *numEdges);
  return e;
}

inline cudaError_t cudaGraphNodeGetDependencies(
    cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
    cudaGraphEdgeData *edgeData, size_t *pNumDependencies) {
  cudaError_t e = cuemu::graph::err(cuemu_rt_graph_node_get_dependencies(
      cuemu::graph::n(node),
      reinterpret_cast<cuemu_rt_graph_node **>(pDependencies),
      pNumDependencies));
  if (e == cudaSuccess && pDependencies)
    e = cuemu::graph::__cuemu_edges_out(nullptr, pDependencies, node, nullptr, edgeData,
                                *pNumDependencies);
  return e;
}

inline cudaError_t cudaGraphNodeGetDependentNodes(
    cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
    cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes) {
  cudaError_t e = cuemu::graph::err(cuemu_rt_graph_node_get_dependents(
      cuemu::graph::n(node),
      reinterpret_cast<cuemu_rt_graph_node **>(pDependentNodes),
      pNumDependentNodes));
  if (e == cudaSuccess && pDependentNodes)
    e = cuemu::graph::__cuemu_edges_out(node, nullptr, nullptr, pDependentNodes, edgeData,
                                *pNumDependentNodes);
  return e;
}

inline cudaError_t cudaGraphAddDependencies(cudaGraph_t graph,
                                            const cudaGraphNode_t *from,
                                            const cudaGraphNode_t *to,
                                            const cudaGraphEdgeData *edgeData,
                                            size_t numDependencies) {
  for (size_t __cuemu_i = 0; from && to && __cuemu_i < numDependencies;
       ++__cuemu_i) {
    unsigned __cuemu_d = cuemu::graph::__cuemu_pack_edge(edgeData, __cuemu_i);
    if (__cuemu_d &&
        cuemu_rt_graph_edge_check(cuemu::graph::n(from[__cuemu_i]),
                                  cuemu::graph::n(to[__cuemu_i]), 0, __cuemu_d))
      return cuemu::graph::err(cudaErrorInvalidValue);
  }
  cudaError_t e = cuemu::graph::err(cuemu_rt_graph_add_dependencies(
      cuemu::graph::__cuemu_g(graph), cuemu::graph::nodes(from),
      cuemu::graph::nodes(to), numDependencies));
  for (size_t __cuemu_i = 0; e == cudaSuccess && __cuemu_i < numDependencies;
       ++__cuemu_i)
    if (unsigned __cuemu_d = cuemu::graph::__cuemu_pack_edge(edgeData, __cuemu_i))
      e = cuemu::graph::err(cuemu_rt_graph_edge_set(
          cuemu::graph::n(from[__cuemu_i]), cuemu::graph::n(to[__cuemu_i]),
          __cuemu_d));
  return e;
}

inline cudaError_t
cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                            const cudaGraphNode_t *to,
                            const cudaGraphEdgeData *edgeData,
                            size_t numDependencies) {
  /* An edge is removed with the data it has (CUDA matches edges by their
   * data too). */
  for (size_t __cuemu_i = 0; from && to && __cuemu_i < numDependencies;
       ++__cuemu_i) {
    unsigned __cuemu_have = 0;
    if (cuemu_rt_graph_edge_get(cuemu::graph::n(from[__cuemu_i]),
                                cuemu::graph::n(to[__cuemu_i]),
                                &__cuemu_have) == 0 &&
        __cuemu_have != cuemu::graph::__cuemu_pack_edge(edgeData, __cuemu_i))
      return cuemu::graph::err(cuemu_rt_error(cudaErrorInvalidValue));
  }
  return cuemu::graph::err(cuemu_rt_graph_remove_dependencies(
      cuemu::graph::__cuemu_g(graph), cuemu::graph::nodes(from),
      cuemu::graph::nodes(to), numDependencies));
}

inline cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  return cuemu::graph::err(
      cuemu_rt_graph_destroy_node(cuemu::graph::n(node)));
}

inline cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path,
                                          unsigned int flags) {
  return cuemu::graph::err(
      cuemu_rt_graph_debug_dot_print(cuemu::graph::__cuemu_g(graph), path, flags));
}

/* ---- Nodes -------------------------------------------------------------------- */

inline cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode,
                                    cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies,
                                    const cudaGraphEdgeData *dependencyData,
                                    size_t numDependencies,
                                    struct cudaGraphNodeParams *nodeParams) {
  if (!nodeParams)
    return cuemu::graph::err(cuemu_rt_error(cudaErrorInvalidValue));
  cuemu::graph::params __cuemu_r = cuemu::graph::any(nodeParams);
  if (__cuemu_r.type < 0)
    return cuemu::graph::refuse(__cuemu_r);
  for (size_t __cuemu_i = 0; pDependencies && __cuemu_i < numDependencies;
       ++__cuemu_i) {
    unsigned __cuemu_d = cuemu::graph::__cuemu_pack_edge(dependencyData, __cuemu_i);
    if (__cuemu_d &&
        cuemu_rt_graph_edge_check(cuemu::graph::n(pDependencies[__cuemu_i]),
                                  nullptr, __cuemu_r.type, __cuemu_d))
      return cuemu::graph::err(cudaErrorInvalidValue);
  }
  cudaError_t e = cuemu::graph::err(cuemu_rt_graph_add_node(
      reinterpret_cast<cuemu_rt_graph_node **>(pGraphNode),
      cuemu::graph::__cuemu_g(graph), cuemu::graph::nodes(pDependencies),
      numDependencies, &__cuemu_r));
  if (e != cudaSuccess)
    return e;
  for (size_t __cuemu_i = 0; pDependencies && __cuemu_i < numDependencies;
       ++__cuemu_i)
    if (unsigned __cuemu_d = cuemu::graph::__cuemu_pack_edge(dependencyData, __cuemu_i))
      cuemu_rt_graph_edge_set(cuemu::graph::n(pDependencies[__cuemu_i]),
                              cuemu::graph::n(*pGraphNode), __cuemu_d);
  if (nodeParams->type == cudaGraphNodeTypeMemAlloc)
    nodeParams->alloc.dptr = __cuemu_r.u.alloc.dptr;
  if (nodeParams->type == cudaGraphNodeTypeConditional)
    nodeParams->conditional.phGraph_out =
        reinterpret_cast<cudaGraph_t *>(__cuemu_r.u.conditional.bodies_out);
  return e;
}

inline cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node,
                                          struct cudaGraphNodeParams *p) {
  if (!p)
    return cuemu::graph::err(cuemu_rt_error(cudaErrorInvalidValue));
  return cuemu::graph::put(node, cuemu::graph::any(p));
}

inline cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec,
                                              cudaGraphNode_t node,
                                              struct cudaGraphNodeParams *p) {
  if (!p)
    return cuemu::graph::err(cuemu_rt_error(cudaErrorInvalidValue));
  return cuemu::graph::exec_put(graphExec, node, cuemu::graph::any(p));
}

inline cudaError_t
cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                       const cudaGraphNode_t *pDependencies,
                       size_t numDependencies,
                       const struct cudaKernelNodeParams *pNodeParams) {
  return cuemu::graph::add(pGraphNode, graph, pDependencies, numDependencies,
                           cuemu::graph::kernel(pNodeParams));
}

inline cudaError_t
cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                             struct cudaKernelNodeParams *pNodeParams) {
  cuemu::graph::params __cuemu_r;
  cudaError_t e = cuemu::graph::get(node, CUEMU_RT_NODE_KERNEL, &__cuemu_r);
  if (e == cudaSuccess && pNodeParams)
    cuemu::graph::kernel_out(__cuemu_r, pNodeParams);
  return e;
}

inline cudaError_t
cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                             const struct cudaKernelNodeParams *pNodeParams) {
  return cuemu::graph::put(node, cuemu::graph::kernel(pNodeParams));
}


inline cudaError_t cudaGraphKernelNodeSetAttribute(
    cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
    const cudaLaunchAttributeValue *value) {
  return cuemu::graph::err(cuemu_rt_graph_kernel_node_set_attribute(
      cuemu::graph::n(hNode), attr, value));
}

inline cudaError_t cudaGraphKernelNodeGetAttribute(
    cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
    cudaLaunchAttributeValue *value_out) {
  return cuemu::graph::err(cuemu_rt_graph_kernel_node_get_attribute(
      cuemu::graph::n(hNode), attr, value_out));
}

inline cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst,
                                                     cudaGraphNode_t hSrc) {
  return cuemu::graph::err(cuemu_rt_graph_kernel_node_copy_attributes(
      cuemu::graph::n(hDst), cuemu::graph::n(hSrc)));
}

inline cudaError_t
cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                       const cudaGraphNode_t *pDependencies,
                       size_t numDependencies,
                       const struct cudaMemcpy3DParms *pCopyParams) {
  return cuemu::graph::add(pGraphNode, graph, pDependencies, numDependencies,
                           cuemu::graph::copy(pCopyParams));
}

inline cudaError_t cudaGraphAddMemcpyNode1D(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
    const void *src, size_t count, enum cudaMemcpyKind kind) {
  return cuemu::graph::add(pGraphNode, graph, pDependencies, numDependencies,
                           cuemu::graph::copy_1d(dst, src, count, kind));
}

template <class T>
inline cudaError_t cudaGraphAddMemcpyNodeToSymbol(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const T &symbol, const void *src, size_t count, size_t offset,
    enum cudaMemcpyKind kind) {
  void *base = nullptr;
  cudaError_t e = cuemu::graph::symbol(&base, symbol);
  if (e != cudaSuccess)
    return e;
  return cudaGraphAddMemcpyNode1D(pGraphNode, graph, pDependencies,
                                  numDependencies,
                                  static_cast<char *>(base) + offset, src,
                                  count, kind);
}

template <class T>
inline cudaError_t cudaGraphAddMemcpyNodeFromSymbol(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
    const T &symbol, size_t count, size_t offset, enum cudaMemcpyKind kind) {
  void *base = nullptr;
  cudaError_t e = cuemu::graph::symbol(&base, symbol);
  if (e != cudaSuccess)
    return e;
  return cudaGraphAddMemcpyNode1D(pGraphNode, graph, pDependencies,
                                  numDependencies, dst,
                                  static_cast<char *>(base) + offset, count,
                                  kind);
}

template <class T>
inline cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(
    cudaGraphNode_t node, const T &symbol, const void *src, size_t count,
    size_t offset, enum cudaMemcpyKind kind) {
  void *base = nullptr;
  cudaError_t e = cuemu::graph::symbol(&base, symbol);
  if (e != cudaSuccess)
    return e;
  return cuemu::graph::put(
      node, cuemu::graph::copy_1d(static_cast<char *>(base) + offset, src,
                                  count, kind));
}

template <class T>
inline cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(
    cudaGraphNode_t node, void *dst, const T &symbol, size_t count,
    size_t offset, enum cudaMemcpyKind kind) {
  void *base = nullptr;
  cudaError_t e = cuemu::graph::symbol(&base, symbol);
  if (e != cudaSuccess)
    return e;
  return cuemu::graph::put(
      node, cuemu::graph::copy_1d(dst, static_cast<char *>(base) + offset,
                                  count, kind));
}

inline cudaError_t
cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
                             struct cudaMemcpy3DParms *pNodeParams) {
  cuemu::graph::params __cuemu_r;
  cudaError_t e = cuemu::graph::get(node, CUEMU_RT_NODE_MEMCPY, &__cuemu_r);
  if (e == cudaSuccess && pNodeParams)
    cuemu::graph::copy_out(__cuemu_r, pNodeParams);
  return e;
}

inline cudaError_t
cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                             const struct cudaMemcpy3DParms *pNodeParams) {
  return cuemu::graph::put(node, cuemu::graph::copy(pNodeParams));
}

inline cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node,
                                                  void *dst, const void *src,
                                                  size_t count,
                                                  enum cudaMemcpyKind kind) {
  return cuemu::graph::put(node, cuemu::graph::copy_1d(dst, src, count, kind));
}

inline cudaError_t
cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                       const cudaGraphNode_t *pDependencies,
                       size_t numDependencies,
                       const struct cudaMemsetParams *pMemsetParams) {
  return cuemu::graph::add(pGraphNode, graph, pDependencies, numDependencies,
                           cuemu::graph::set(pMemsetParams));
}

inline cudaError_t
cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
                             struct cudaMemsetParams *pNodeParams) {
  cuemu::graph::params __cuemu_r;
  cudaError_t e = cuemu::graph::get(node, CUEMU_RT_NODE_MEMSET, &__cuemu_r);
  if (e == cudaSuccess && pNodeParams) {
    pNodeParams->dst = __cuemu_r.u.memset.dst;
    pNodeParams->pitch = __cuemu_r.u.memset.pitch;
    pNodeParams->value = __cuemu_r.u.memset.value;
    pNodeParams->elementSize = __cuemu_r.u.memset.element_size;
    pNodeParams->width = __cuemu_r.u.memset.width;
    pNodeParams->height = __cuemu_r.u.memset.height;
  }
  return e;
}

inline cudaError_t
cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                             const struct cudaMemsetParams *pNodeParams) {
  return cuemu::graph::put(node, cuemu::graph::set(pNodeParams));
}

inline cudaError_t
cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                     const cudaGraphNode_t *pDependencies,
                     size_t numDependencies,
                     const struct cudaHostNodeParams *pNodeParams) {
  return cuemu::graph::add(pGraphNode, graph, pDependencies, numDependencies,
                           cuemu::graph::host(pNodeParams));
}

inline cudaError_t
cudaGraphHostNodeGetParams(cudaGraphNode_t node,
                           struct cudaHostNodeParams *pNodeParams) {
  cuemu::graph::params __cuemu_r;
  cudaError_t e = cuemu::graph::get(node, CUEMU_RT_NODE_HOST, &__cuemu_r);
  if (e == cudaSuccess && pNodeParams) {
    pNodeParams->fn = __cuemu_r.u.host.fn;
    pNodeParams->userData = __cuemu_r.u.host.data;
  }
  return e;
}

inline cudaError_t
cudaGraphHostNodeSetParams(cudaGraphNode_t node,
                           const struct cudaHostNodeParams *pNodeParams) {
  return cuemu::graph::put(node, cuemu::graph::host(pNodeParams));
}

inline cudaError_t cudaGraphAddChildGraphNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    cudaGraph_t childGraph) {
  return cuemu::graph::add(pGraphNode, graph, pDependencies, numDependencies,
                           cuemu::graph::child(childGraph));
}

inline cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node,
                                                   cudaGraph_t *pGraph) {
  cuemu::graph::params __cuemu_r;
  cudaError_t e = cuemu::graph::get(node, CUEMU_RT_NODE_GRAPH, &__cuemu_r);
  if (e == cudaSuccess && pGraph)
    *pGraph = reinterpret_cast<cudaGraph_t>(__cuemu_r.u.child.graph);
  return e;
}

inline cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode,
                                         cudaGraph_t graph,
                                         const cudaGraphNode_t *pDependencies,
                                         size_t numDependencies) {
  cuemu::graph::params __cuemu_r = {};
  __cuemu_r.type = CUEMU_RT_NODE_EMPTY;
  return cuemu::graph::add(pGraphNode, graph, pDependencies, numDependencies,
                           __cuemu_r);
}

inline cudaError_t cudaGraphAddEventRecordNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    cudaEvent_t event) {
  return cuemu::graph::add(
      pGraphNode, graph, pDependencies, numDependencies,
      cuemu::graph::event(CUEMU_RT_NODE_EVENT_RECORD, event));
}

inline cudaError_t cudaGraphAddEventWaitNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    cudaEvent_t event) {
  return cuemu::graph::add(
      pGraphNode, graph, pDependencies, numDependencies,
      cuemu::graph::event(CUEMU_RT_NODE_WAIT_EVENT, event));
}

inline cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node,
                                                    cudaEvent_t *event_out) {
  cuemu::graph::params __cuemu_r;
  cudaError_t e = cuemu::graph::get(node, CUEMU_RT_NODE_EVENT_RECORD, &__cuemu_r);
  if (e == cudaSuccess && event_out)
    *event_out = static_cast<cudaEvent_t>(__cuemu_r.u.event.event);
  return e;
}

inline cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node,
                                                    cudaEvent_t event) {
  return cuemu::graph::put(
      node, cuemu::graph::event(CUEMU_RT_NODE_EVENT_RECORD, event));
}

inline cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node,
                                                  cudaEvent_t *event_out) {
  cuemu::graph::params __cuemu_r;
  cudaError_t e = cuemu::graph::get(node, CUEMU_RT_NODE_WAIT_EVENT, &__cuemu_r);
  if (e == cudaSuccess && event_out)
    *event_out = static_cast<cudaEvent_t>(__cuemu_r.u.event.event);
  return e;
}

inline cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node,
                                                  cudaEvent_t event) {
  return cuemu::graph::put(
      node, cuemu::graph::event(CUEMU_RT_NODE_WAIT_EVENT, event));
}

inline cudaError_t
cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                         const cudaGraphNode_t *pDependencies,
                         size_t numDependencies,
                         struct cudaMemAllocNodeParams *nodeParams) {
  if (!nodeParams ||
      nodeParams->poolProps.allocType != cudaMemAllocationTypePinned ||
      nodeParams->poolProps.location.type != cudaMemLocationTypeDevice)
    return cuemu::graph::err(cuemu_rt_error(cudaErrorInvalidValue));
  cuemu::graph::params __cuemu_r = {};
  __cuemu_r.type = CUEMU_RT_NODE_MEM_ALLOC;
  __cuemu_r.u.alloc.bytesize = nodeParams->bytesize;
  __cuemu_r.u.alloc.device = nodeParams->poolProps.location.id + 1;
  __cuemu_r.u.alloc.cuemu_access = nodeParams->accessDescs;
  __cuemu_r.u.alloc.cuemu_access_count = nodeParams->accessDescCount;
  cudaError_t e =
      cuemu::graph::add(pGraphNode, graph, pDependencies, numDependencies, __cuemu_r);
  if (e == cudaSuccess) {
    cuemu::graph::params __cuemu_out;
    cuemu::graph::get(*pGraphNode, CUEMU_RT_NODE_MEM_ALLOC, &__cuemu_out);
    nodeParams->dptr = __cuemu_out.u.alloc.dptr;
  }
  return e;
}

inline cudaError_t
cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                               struct cudaMemAllocNodeParams *params_out) {
  cuemu::graph::params __cuemu_r;
  cudaError_t e = cuemu::graph::get(node, CUEMU_RT_NODE_MEM_ALLOC, &__cuemu_r);
  if (e == cudaSuccess && params_out) {
    *params_out = cudaMemAllocNodeParams();
    params_out->poolProps.allocType = cudaMemAllocationTypePinned;
    params_out->poolProps.location.type = cudaMemLocationTypeDevice;
    params_out->poolProps.location.id = __cuemu_r.u.alloc.device - 1;
    params_out->bytesize = __cuemu_r.u.alloc.bytesize;
    params_out->dptr = __cuemu_r.u.alloc.dptr;
  }
  return e;
}

inline cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode,
                                           cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies,
                                           size_t numDependencies,
                                           void *dptr) {
  cuemu::graph::params __cuemu_r = {};
  __cuemu_r.type = CUEMU_RT_NODE_MEM_FREE;
  __cuemu_r.u.free.dptr = dptr;
  return cuemu::graph::add(pGraphNode, graph, pDependencies, numDependencies,
                           __cuemu_r);
}

inline cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node,
                                                 void *dptr_out) {
  cuemu::graph::params __cuemu_r;
  cudaError_t e = cuemu::graph::get(node, CUEMU_RT_NODE_MEM_FREE, &__cuemu_r);
  if (e == cudaSuccess && dptr_out)
    *static_cast<void **>(dptr_out) = __cuemu_r.u.free.dptr;
  return e;
}

/* The device's graph memory counters (cuemu/cuemu_rt_graph_mem.h). */
inline cudaError_t cudaDeviceGetGraphMemAttribute(
    int device, enum cudaGraphMemAttributeType attr, void *value) {
  return cuemu::graph::err(cuemu_rt_device_get_graph_mem_attribute(
      device, attr, static_cast<unsigned long long *>(value)));
}

inline cudaError_t cudaDeviceSetGraphMemAttribute(
    int device, enum cudaGraphMemAttributeType attr, void *value) {
  return cuemu::graph::err(cuemu_rt_device_set_graph_mem_attribute(
      device, attr, static_cast<const unsigned long long *>(value)));
}

inline cudaError_t cudaDeviceGraphMemTrim(int device) {
  return cuemu::graph::err(cuemu_rt_device_graph_mem_trim(device));
}

/* ---- Conditional nodes ----------------------------------------------------------- */

inline cudaError_t
cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out,
                                 cudaGraph_t graph,
                                 unsigned int defaultLaunchValue = 0,
                                 unsigned int flags = 0) {
  return cuemu::graph::err(cuemu_rt_graph_conditional_handle_create(
      pHandle_out, cuemu::graph::__cuemu_g(graph), defaultLaunchValue, flags));
}

/* Device code: sets the value the conditional node of `handle` tests. */
inline void cudaGraphSetConditional(cudaGraphConditionalHandle handle,
                                    unsigned int value) {
  cuemu_rt_graph_set_conditional(handle, value);
}

/* ---- Device graph launch --------------------------------------------------------
 * A graph instantiated with cudaGraphInstantiateFlagDeviceLaunch and
 * uploaded (cudaGraphUpload, the Upload flag, or a launch from the host) is
 * launched by kernel code of another graph with cudaGraphLaunch into one of
 * these named streams (cuda_device_runtime_api.h's values); see
 * docs/graphs.md. */
#ifndef cudaStreamGraphTailLaunch
#define cudaStreamGraphTailLaunch ((cudaStream_t)0x0100000000000000)
#define cudaStreamGraphFireAndForget ((cudaStream_t)0x0200000000000000)
#define cudaStreamGraphFireAndForgetAsSibling                                 \
  ((cudaStream_t)0x0300000000000000)
#endif

/* Device code: the device graph the calling kernel runs in, or 0 when it
 * does not run in a graph instantiated for device launch. */
inline cudaGraphExec_t cudaGetCurrentGraphExec(void) {
  return reinterpret_cast<cudaGraphExec_t>(cuemu_rt_graph_current_exec());
}

/* ---- Executable graphs --------------------------------------------------------- */

inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
                                        cudaGraph_t graph,
                                        unsigned long long flags = 0) {
  if (flags & cudaGraphInstantiateFlagUpload) /* WithParams only */
    return cuemu::graph::err(cuemu_rt_error(cudaErrorInvalidValue));
  return cuemu::graph::err(cuemu_rt_graph_instantiate(
      reinterpret_cast<cuemu_rt_graph_exec **>(pGraphExec),
      cuemu::graph::__cuemu_g(graph), flags, nullptr, nullptr, nullptr));
}

/* cuda_runtime.h's C++ form of CUDA 11's signature: the error node and a
 * message for the log (CUDA 13 leaves both unset). */
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
                                        cudaGraph_t graph,
                                        cudaGraphNode_t *pErrorNode,
                                        char *pLogBuffer, size_t bufferSize) {
  cuemu_rt_graph_node *bad = nullptr;
  cudaError_t e = cuemu::graph::err(cuemu_rt_graph_instantiate(
      reinterpret_cast<cuemu_rt_graph_exec **>(pGraphExec),
      cuemu::graph::__cuemu_g(graph), 0, nullptr, &bad, nullptr));
  if (pErrorNode)
    *pErrorNode = reinterpret_cast<cudaGraphNode_t>(bad);
  if (pLogBuffer && bufferSize) {
    const char *log = e == cudaSuccess ? "" : cuemu_last_message();
    std::strncpy(pLogBuffer, log ? log : "", bufferSize - 1);
    pLogBuffer[bufferSize - 1] = '\0';
  }
  return e;
}

inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
                                                 cudaGraph_t graph,
                                                 unsigned long long flags = 0) {
  return cudaGraphInstantiate(pGraphExec, graph, flags);
}

inline cudaError_t
cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                               cudaGraphInstantiateParams *instantiateParams) {
  if (!instantiateParams)
    return cuemu::graph::err(cuemu_rt_error(cudaErrorInvalidValue));
  cuemu_rt_graph_node *bad = nullptr;
  int result = 0;
  cudaError_t e = cuemu::graph::err(cuemu_rt_graph_instantiate(
      reinterpret_cast<cuemu_rt_graph_exec **>(pGraphExec),
      cuemu::graph::__cuemu_g(graph), instantiateParams->flags,
      instantiateParams->uploadStream, &bad, &result));
  instantiateParams->errNode_out = reinterpret_cast<cudaGraphNode_t>(bad);
  instantiateParams->result_out =
      static_cast<cudaGraphInstantiateResult>(result);
  return e;
}

inline cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec,
                                         unsigned long long *flags) {
  return cuemu::graph::err(
      cuemu_rt_graph_exec_get_flags(cuemu::graph::x(graphExec), flags));
}

inline cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec,
                                   cudaStream_t stream) {
  return cuemu::graph::err(
      cuemu_rt_graph_launch(cuemu::graph::x(graphExec), stream));
}

inline cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec,
                                   cudaStream_t stream) {
  return cuemu::graph::err(
      cuemu_rt_graph_upload(cuemu::graph::x(graphExec), stream));
}

inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  return cuemu::graph::err(
      cuemu_rt_graph_exec_destroy(cuemu::graph::x(graphExec)));
}

/* CUDA 13's form. */
inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec,
                                       cudaGraph_t hGraph,
                                       cudaGraphExecUpdateResultInfo *resultInfo) {
  int result = 0;
  cuemu_rt_graph_node *node = nullptr, *from = nullptr;
  cudaError_t e = cuemu::graph::err(cuemu_rt_graph_exec_update(
      cuemu::graph::x(hGraphExec), cuemu::graph::__cuemu_g(hGraph), &result, &node,
      &from));
  if (resultInfo) {
    resultInfo->result = static_cast<cudaGraphExecUpdateResult>(result);
    resultInfo->errorNode = reinterpret_cast<cudaGraphNode_t>(node);
    resultInfo->errorFromNode = reinterpret_cast<cudaGraphNode_t>(from);
  }
  return e;
}

inline cudaError_t
cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
                                 cudaGraphNode_t node,
                                 const struct cudaKernelNodeParams *pNodeParams) {
  return cuemu::graph::exec_put(hGraphExec, node,
                                cuemu::graph::kernel(pNodeParams));
}

inline cudaError_t
cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec,
                                 cudaGraphNode_t node,
                                 const struct cudaMemcpy3DParms *pNodeParams) {
  return cuemu::graph::exec_put(hGraphExec, node,
                                cuemu::graph::copy(pNodeParams));
}

inline cudaError_t cudaGraphExecMemcpyNodeSetParams1D(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
    const void *src, size_t count, enum cudaMemcpyKind kind) {
  return cuemu::graph::exec_put(hGraphExec, node,
                                cuemu::graph::copy_1d(dst, src, count, kind));
}

template <class T>
inline cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const T &symbol,
    const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind) {
  void *base = nullptr;
  cudaError_t e = cuemu::graph::symbol(&base, symbol);
  if (e != cudaSuccess)
    return e;
  return cuemu::graph::exec_put(
      hGraphExec, node,
      cuemu::graph::copy_1d(static_cast<char *>(base) + offset, src, count,
                            kind));
}

template <class T>
inline cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
    const T &symbol, size_t count, size_t offset, enum cudaMemcpyKind kind) {
  void *base = nullptr;
  cudaError_t e = cuemu::graph::symbol(&base, symbol);
  if (e != cudaSuccess)
    return e;
  return cuemu::graph::exec_put(
      hGraphExec, node,
      cuemu::graph::copy_1d(dst, static_cast<char *>(base) + offset, count,
                            kind));
}

inline cudaError_t
cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
                                 cudaGraphNode_t node,
                                 const struct cudaMemsetParams *pNodeParams) {
  return cuemu::graph::exec_put(hGraphExec, node,
                                cuemu::graph::set(pNodeParams));
}

inline cudaError_t
cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec,
                               cudaGraphNode_t node,
                               const struct cudaHostNodeParams *pNodeParams) {
  return cuemu::graph::exec_put(hGraphExec, node,
                                cuemu::graph::host(pNodeParams));
}

inline cudaError_t cudaGraphExecChildGraphNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, cudaGraph_t childGraph) {
  return cuemu::graph::exec_put(hGraphExec, node,
                                cuemu::graph::child(childGraph));
}

inline cudaError_t cudaGraphExecEventRecordNodeSetEvent(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event) {
  return cuemu::graph::exec_put(
      hGraphExec, hNode,
      cuemu::graph::event(CUEMU_RT_NODE_EVENT_RECORD, event));
}

inline cudaError_t cudaGraphExecEventWaitNodeSetEvent(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event) {
  return cuemu::graph::exec_put(
      hGraphExec, hNode, cuemu::graph::event(CUEMU_RT_NODE_WAIT_EVENT, event));
}

inline cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec,
                                           cudaGraphNode_t hNode,
                                           unsigned int isEnabled) {
  return cuemu::graph::err(cuemu_rt_graph_exec_node_set_enabled(
      cuemu::graph::x(hGraphExec), cuemu::graph::n(hNode), isEnabled));
}

inline cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec,
                                           cudaGraphNode_t hNode,
                                           unsigned int *isEnabled) {
  return cuemu::graph::err(cuemu_rt_graph_exec_node_get_enabled(
      cuemu::graph::x(hGraphExec), cuemu::graph::n(hNode), isEnabled));
}

/* ---- User objects ------------------------------------------------------------- */

inline cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out,
                                        void *ptr, cudaHostFn_t destroy,
                                        unsigned int initialRefcount,
                                        unsigned int flags) {
  return cuemu::graph::err(cuemu_rt_user_object_create(
      reinterpret_cast<cuemu_rt_user_object **>(object_out), ptr, destroy,
      initialRefcount, flags));
}

inline cudaError_t cudaUserObjectRetain(cudaUserObject_t object,
                                        unsigned int count = 1) {
  return cuemu::graph::err(cuemu_rt_user_object_retain(
      reinterpret_cast<cuemu_rt_user_object *>(object), count));
}

inline cudaError_t cudaUserObjectRelease(cudaUserObject_t object,
                                         unsigned int count = 1) {
  return cuemu::graph::err(cuemu_rt_user_object_release(
      reinterpret_cast<cuemu_rt_user_object *>(object), count));
}

inline cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph,
                                             cudaUserObject_t object,
                                             unsigned int count = 1,
                                             unsigned int flags = 0) {
  return cuemu::graph::err(cuemu_rt_graph_retain_user_object(
      cuemu::graph::__cuemu_g(graph), reinterpret_cast<cuemu_rt_user_object *>(object),
      count, flags));
}

inline cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph,
                                              cudaUserObject_t object,
                                              unsigned int count = 1) {
  return cuemu::graph::err(cuemu_rt_graph_release_user_object(
      cuemu::graph::__cuemu_g(graph), reinterpret_cast<cuemu_rt_user_object *>(object),
      count));
}

#endif /* CUEMU_GRAPH_API_H */
