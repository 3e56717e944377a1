/*
 * cuemu_driver_graph_api.h: the driver API's CUDA Graphs and stream
 * capture (cuGraph*, cuStreamBeginCapture, ...), in CUDA 13's signatures
 * (cuGraphAddKernelNode is cuGraphAddKernelNode_v2, cuGraphInstantiate is
 * cuGraphInstantiateWithFlags, the dependency calls take edge data). Each
 * call converts the driver's structures and forwards to the runtime's
 * graph (cuemu_graph_api.h, libcuemu's cuemu_rt_graph_*): there is one
 * implementation, and a graph, node or executable graph of either API is
 * the other's. Included at the end of cuda.h; docs/driver-api.md lists the
 * calls.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_GRAPH_API_H
#define CUEMU_DRIVER_GRAPH_API_H

/* The driver API's types (this header is read at the end of cuda.h). */

#include <cuemu/cuemu_driver_graph.h>

#include "cuemu_driver_graph_types.h"

namespace cuemu {
namespace drv {

inline cudaGraphNode_t rn(CUgraphNode n) {
  return reinterpret_cast<cudaGraphNode_t>(n);
}
inline const cudaGraphNode_t *rns(const CUgraphNode *v) {
  return reinterpret_cast<const cudaGraphNode_t *>(v);
}
inline cudaGraphNode_t *rns(CUgraphNode *v) {
  return reinterpret_cast<cudaGraphNode_t *>(v);
}

/* A kernel node's parameters; 0 or a driver error. */
template <class P_> inline int kernel(const P_ *p, cuemu_rt_graph_node_params *__cuemu_r) {
  *__cuemu_r = cuemu_rt_graph_node_params();
  if (!p)
    return CUDA_ERROR_INVALID_VALUE;
  __cuemu_r->type = CUEMU_RT_NODE_KERNEL;
  cuemu_rt_graph_kernel &__cuemu_k = __cuemu_r->u.kernel;
  int e = cuemu_drv_graph_kernel(&__cuemu_k, p->func);
  if (e)
    return e;
  __cuemu_k.cuemu_grid = {p->gridDimX, p->gridDimY, p->gridDimZ};
  __cuemu_k.cuemu_block = {p->blockDimX, p->blockDimY, p->blockDimZ};
  __cuemu_k.dynamic_shared = p->sharedMemBytes;
  __cuemu_k.args = p->kernelParams;
  __cuemu_k.extra = p->extra;
  return 0;
}
inline int kernel(const CUDA_KERNEL_NODE_PARAMS_v2 *p,
                  cuemu_rt_graph_node_params *__cuemu_r) {
  if (p && !p->func && p->kern) {
    /* `ctx` (the context the kernel runs in) is taken with `kern` only. */
    CUDA_KERNEL_NODE_PARAMS_v2 __cuemu_q = *p;
    __cuemu_q.func = reinterpret_cast<CUfunction>(p->kern);
    int e = kernel<CUDA_KERNEL_NODE_PARAMS_v2>(&__cuemu_q, __cuemu_r);
    __cuemu_r->u.kernel.context = p->ctx;
    return e;
  }
  return kernel<CUDA_KERNEL_NODE_PARAMS_v2>(p, __cuemu_r);
}

/* One side of a CUDA_MEMCPY3D as the runtime's; 0 or a driver error. An
 * array's byte column becomes its element column (es: the element size,
 * set when the side is an array). */
inline int side(CUmemorytype type, const void *host, CUdeviceptr device,
                CUarray array, size_t x, size_t y, size_t z, size_t pitch,
                size_t height, cudaArray_t *a, cudaPitchedPtr *ptr,
                cudaPos *__cuemu_pos, size_t *es) {
  *__cuemu_pos = make_cudaPos(x, y, z);
  switch (type) {
  case CU_MEMORYTYPE_HOST:
    *ptr = make_cudaPitchedPtr(const_cast<void *>(host), pitch, 0, height);
    return 0;
  case CU_MEMORYTYPE_DEVICE:
  case CU_MEMORYTYPE_UNIFIED:
    *ptr = make_cudaPitchedPtr(reinterpret_cast<void *>(device), pitch, 0,
                               height);
    return 0;
  case CU_MEMORYTYPE_ARRAY: {
    *a = reinterpret_cast<cudaArray_t>(array);
    cudaChannelFormatDesc d;
    cudaExtent extent;
    unsigned flags;
    if (cuemu_rt_array_get_info(&d, &extent, &flags, *a) != cudaSuccess)
      return CUDA_ERROR_INVALID_VALUE;
    *es = static_cast<size_t>(d.x + d.y + d.z + d.w) / 8;
    if (!*es || x % *es)
      return CUDA_ERROR_INVALID_VALUE;
    __cuemu_pos->x = x / *es;
    return 0;
  }
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

/* A CUDA_MEMCPY3D as the runtime's cudaMemcpy3DParms; 0 or a driver
 * error. */
inline int parms(const CUDA_MEMCPY3D *p, cudaMemcpy3DParms *__cuemu_out) {
  *__cuemu_out = cudaMemcpy3DParms();
  if (!p)
    return CUDA_ERROR_INVALID_VALUE;
  cudaMemcpy3DParms __cuemu_q = cudaMemcpy3DParms();
  size_t es = 1;
  int e = side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray,
               p->srcXInBytes, p->srcY, p->srcZ, p->srcPitch, p->srcHeight,
               &__cuemu_q.srcArray, &__cuemu_q.srcPtr, &__cuemu_q.srcPos, &es);
  if (!e)
    e = side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray,
             p->dstXInBytes, p->dstY, p->dstZ, p->dstPitch, p->dstHeight,
             &__cuemu_q.dstArray, &__cuemu_q.dstPtr, &__cuemu_q.dstPos, &es);
  if (e || p->WidthInBytes % es)
    return CUDA_ERROR_INVALID_VALUE;
  __cuemu_q.extent = make_cudaExtent(p->WidthInBytes / es, p->Height, p->Depth);
  __cuemu_q.kind = cudaMemcpyDefault;
  *__cuemu_out = __cuemu_q;
  return 0;
}

inline int copy(const CUDA_MEMCPY3D *p, cuemu_rt_graph_node_params *__cuemu_r) {
  *__cuemu_r = cuemu_rt_graph_node_params();
  cudaMemcpy3DParms __cuemu_q;
  int e = parms(p, &__cuemu_q);
  if (e)
    return e;
  __cuemu_r->type = CUEMU_RT_NODE_MEMCPY;
  return cuemu_rt_graph_memcpy_from_3d(&__cuemu_r->u.memcpy, &__cuemu_q) == cudaSuccess
             ? 0
             : CUDA_ERROR_INVALID_VALUE;
}

/* A node's copy in CUDA_MEMCPY3D terms: memory is device memory when the
 * runtime knows it as such, else host memory. */
inline void copy_out(const cuemu_rt_graph_memcpy &__cuemu_m, CUDA_MEMCPY3D *p) {
  *p = CUDA_MEMCPY3D();
  auto kind = [](const void *ptr) {
    cudaPointerAttributes a;
    int saved = cuemu_drv_enter();
    int e = cudaPointerGetAttributes(&a, ptr);
    cuemu_drv_result(e, saved);
    return e == cudaSuccess && (a.type == cudaMemoryTypeDevice ||
                                a.type == cudaMemoryTypeManaged)
               ? CU_MEMORYTYPE_DEVICE
               : CU_MEMORYTYPE_HOST;
  };
  size_t es = 1;
  if (__cuemu_m.src_array || __cuemu_m.dst_array) {
    cudaChannelFormatDesc d;
    cudaExtent extent;
    unsigned flags;
    cuemu_rt_array_get_info(&d, &extent, &flags,
                            __cuemu_m.src_array ? __cuemu_m.src_array : __cuemu_m.dst_array);
    es = static_cast<size_t>(d.x + d.y + d.z + d.w) / 8;
  }
  p->srcXInBytes = __cuemu_m.src_array ? __cuemu_m.src_x * es : __cuemu_m.src_x;
  p->srcY = __cuemu_m.src_y;
  p->srcZ = __cuemu_m.src_z;
  p->srcMemoryType = __cuemu_m.src_array ? CU_MEMORYTYPE_ARRAY : kind(__cuemu_m.src);
  if (__cuemu_m.src_array)
    p->srcArray = reinterpret_cast<CUarray>(__cuemu_m.src_array);
  else if (p->srcMemoryType == CU_MEMORYTYPE_HOST)
    p->srcHost = __cuemu_m.src;
  else
    p->srcDevice = reinterpret_cast<CUdeviceptr>(__cuemu_m.src);
  p->srcPitch = __cuemu_m.src_pitch;
  p->srcHeight = __cuemu_m.src_ysize;
  p->dstXInBytes = __cuemu_m.dst_array ? __cuemu_m.dst_x * es : __cuemu_m.dst_x;
  p->dstY = __cuemu_m.dst_y;
  p->dstZ = __cuemu_m.dst_z;
  p->dstMemoryType = __cuemu_m.dst_array ? CU_MEMORYTYPE_ARRAY : kind(__cuemu_m.dst);
  if (__cuemu_m.dst_array)
    p->dstArray = reinterpret_cast<CUarray>(__cuemu_m.dst_array);
  else if (p->dstMemoryType == CU_MEMORYTYPE_HOST)
    p->dstHost = __cuemu_m.dst;
  else
    p->dstDevice = reinterpret_cast<CUdeviceptr>(__cuemu_m.dst);
  p->dstPitch = __cuemu_m.dst_pitch;
  p->dstHeight = __cuemu_m.dst_ysize;
  p->WidthInBytes = __cuemu_m.width * es;
  p->Height = __cuemu_m.height;
  p->Depth = __cuemu_m.depth;
}

inline cudaMemsetParams set(const CUDA_MEMSET_NODE_PARAMS *p) {
  cudaMemsetParams s = cudaMemsetParams();
  s.dst = reinterpret_cast<void *>(p->dst);
  s.pitch = p->pitch;
  s.value = p->value;
  s.elementSize = p->elementSize;
  s.width = p->width;
  s.height = p->height;
  return s;
}

inline cudaHostNodeParams host(const CUDA_HOST_NODE_PARAMS *p) {
  cudaHostNodeParams h = {p->fn, p->userData};
  return h;
}

/* Adds a node of converted parameters; a runtime code. */
inline int add_node(CUgraphNode *node, CUgraph graph, const CUgraphNode *deps,
                    size_t ndeps, cuemu_rt_graph_node_params *__cuemu_r) {
  return cuemu_rt_graph_add_node(
      reinterpret_cast<cuemu_rt_graph_node **>(node),
      reinterpret_cast<cuemu_rt_graph *>(graph),
      reinterpret_cast<cuemu_rt_graph_node *const *>(deps), ndeps, __cuemu_r);
}

/* A node's parameters when it is of `type`; a driver code (cuInit, a
 * context, a live node of that type). */
inline int node_params(CUgraphNode node, int type, void *__cuemu_out,
                       cuemu_rt_graph_node_params *__cuemu_r) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!__cuemu_out)
    return CUDA_ERROR_INVALID_VALUE;
  int saved = cuemu_drv_enter();
  e = cuemu_rt_graph_node_get_params(
      reinterpret_cast<cuemu_rt_graph_node *>(node), __cuemu_r);
  if (e == cudaSuccess && __cuemu_r->type != type)
    e = cudaErrorInvalidValue;
  return cuemu_drv_result(e, saved);
}

/* The start of a driver graph call: cuInit and a current context; then the
 * conversion's error, else the runtime's answer as a driver code. */
#define CUEMU_DRV_CONVERTED(convert, call)                                     \
  do {                                                                         \
    int cuemu_check_ = cuemu_drv_check_context();                              \
    if (cuemu_check_)                                                          \
      return static_cast<CUresult>(cuemu_check_);                              \
    int cuemu_conv_ = (convert);                                               \
    if (cuemu_conv_)                                                           \
      return static_cast<CUresult>(cuemu_conv_);                               \
    int cuemu_saved_ = cuemu_drv_enter();                                      \
    return static_cast<CUresult>(cuemu_drv_result((call), cuemu_saved_));      \
  } while (0)

} // namespace drv
} // namespace cuemu

/* ---- Graphs ----------------------------------------------------------------- */

inline CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuGraphCreate);
  CUEMU_DRV_FORWARD(cudaGraphCreate(phGraph, flags));
}

inline CUresult cuGraphDestroy(CUgraph hGraph) {
  CUEMU_DRV_SYMBOL(cuGraphDestroy);
  CUEMU_DRV_FORWARD(cudaGraphDestroy(hGraph));
}

inline CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph) {
  CUEMU_DRV_SYMBOL(cuGraphClone);
  CUEMU_DRV_FORWARD(cudaGraphClone(phGraphClone, originalGraph));
}

inline CUresult cuGraphNodeFindInClone(CUgraphNode *phNode,
                                       CUgraphNode hOriginalNode,
                                       CUgraph hClonedGraph) {
  CUEMU_DRV_SYMBOL(cuGraphNodeFindInClone);
  CUEMU_DRV_FORWARD(cudaGraphNodeFindInClone(
      cuemu::drv::rns(phNode), cuemu::drv::rn(hOriginalNode), hClonedGraph));
}

inline CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type) {
  CUEMU_DRV_SYMBOL(cuGraphNodeGetType);
  CUEMU_DRV_FORWARD(cudaGraphNodeGetType(
      cuemu::drv::rn(hNode), reinterpret_cast<cudaGraphNodeType *>(type)));
}

inline CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes,
                                size_t *numNodes) {
  CUEMU_DRV_SYMBOL(cuGraphGetNodes);
  CUEMU_DRV_FORWARD(
      cudaGraphGetNodes(hGraph, cuemu::drv::rns(nodes), numNodes));
}

inline CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes,
                                    size_t *numRootNodes) {
  CUEMU_DRV_SYMBOL(cuGraphGetRootNodes);
  CUEMU_DRV_FORWARD(cudaGraphGetRootNodes(hGraph, cuemu::drv::rns(rootNodes),
                                          numRootNodes));
}

inline CUresult cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from,
                                CUgraphNode *to, CUgraphEdgeData *edgeData,
                                size_t *numEdges) {
  CUEMU_DRV_SYMBOL(cuGraphGetEdges);
  CUEMU_DRV_FORWARD(cudaGraphGetEdges(hGraph, cuemu::drv::rns(from),
                                      cuemu::drv::rns(to), edgeData,
                                      numEdges));
}

inline CUresult cuGraphNodeGetDependencies(CUgraphNode hNode,
                                           CUgraphNode *dependencies,
                                           CUgraphEdgeData *edgeData,
                                           size_t *numDependencies) {
  CUEMU_DRV_SYMBOL(cuGraphNodeGetDependencies);
  CUEMU_DRV_FORWARD(cudaGraphNodeGetDependencies(
      cuemu::drv::rn(hNode), cuemu::drv::rns(dependencies), edgeData,
      numDependencies));
}

inline CUresult cuGraphNodeGetDependentNodes(CUgraphNode hNode,
                                             CUgraphNode *dependentNodes,
                                             CUgraphEdgeData *edgeData,
                                             size_t *numDependentNodes) {
  CUEMU_DRV_SYMBOL(cuGraphNodeGetDependentNodes);
  CUEMU_DRV_FORWARD(cudaGraphNodeGetDependentNodes(
      cuemu::drv::rn(hNode), cuemu::drv::rns(dependentNodes), edgeData,
      numDependentNodes));
}

inline CUresult cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from,
                                       const CUgraphNode *to,
                                       const CUgraphEdgeData *edgeData,
                                       size_t numDependencies) {
  CUEMU_DRV_SYMBOL(cuGraphAddDependencies);
  CUEMU_DRV_FORWARD(cudaGraphAddDependencies(hGraph, cuemu::drv::rns(from),
                                             cuemu::drv::rns(to), edgeData,
                                             numDependencies));
}

inline CUresult cuGraphRemoveDependencies(CUgraph hGraph,
                                          const CUgraphNode *from,
                                          const CUgraphNode *to,
                                          const CUgraphEdgeData *edgeData,
                                          size_t numDependencies) {
  CUEMU_DRV_SYMBOL(cuGraphRemoveDependencies);
  CUEMU_DRV_FORWARD(cudaGraphRemoveDependencies(
      hGraph, cuemu::drv::rns(from), cuemu::drv::rns(to), edgeData,
      numDependencies));
}

inline CUresult cuGraphDestroyNode(CUgraphNode hNode) {
  CUEMU_DRV_SYMBOL(cuGraphDestroyNode);
  CUEMU_DRV_FORWARD(cudaGraphDestroyNode(cuemu::drv::rn(hNode)));
}

inline CUresult cuGraphDebugDotPrint(CUgraph hGraph, const char *path,
                                     unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuGraphDebugDotPrint);
  CUEMU_DRV_FORWARD(cudaGraphDebugDotPrint(hGraph, path, flags));
}

/* ---- Nodes ------------------------------------------------------------------ */

inline CUresult cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                     const CUgraphNode *dependencies,
                                     size_t numDependencies,
                                     const CUDA_KERNEL_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphAddKernelNode);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::kernel(nodeParams, &__cuemu_r),
      cuemu::drv::add_node(phGraphNode, hGraph, dependencies, numDependencies,
                           &__cuemu_r));
}

inline CUresult cuGraphKernelNodeGetParams(CUgraphNode hNode,
                                           CUDA_KERNEL_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphKernelNodeGetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  int e = cuemu::drv::node_params(hNode, CUEMU_RT_NODE_KERNEL, nodeParams, &__cuemu_r);
  if (e)
    return static_cast<CUresult>(e);
  *nodeParams = CUDA_KERNEL_NODE_PARAMS();
  void *f = nullptr;
  cuemu_drv_graph_function(__cuemu_r.u.kernel.desc, &f);
  nodeParams->func = static_cast<CUfunction>(f);
  nodeParams->gridDimX = __cuemu_r.u.kernel.cuemu_grid.x;
  nodeParams->gridDimY = __cuemu_r.u.kernel.cuemu_grid.y;
  nodeParams->gridDimZ = __cuemu_r.u.kernel.cuemu_grid.z;
  nodeParams->blockDimX = __cuemu_r.u.kernel.cuemu_block.x;
  nodeParams->blockDimY = __cuemu_r.u.kernel.cuemu_block.y;
  nodeParams->blockDimZ = __cuemu_r.u.kernel.cuemu_block.z;
  nodeParams->sharedMemBytes =
      static_cast<unsigned>(__cuemu_r.u.kernel.dynamic_shared);
  nodeParams->kernelParams = __cuemu_r.u.kernel.args;
  nodeParams->ctx = static_cast<CUcontext>(__cuemu_r.u.kernel.context);
  return CUDA_SUCCESS;
}

inline CUresult cuGraphKernelNodeSetParams(
    CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphKernelNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::kernel(nodeParams, &__cuemu_r),
      cuemu_rt_graph_node_set_params(
          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

inline CUresult cuGraphKernelNodeSetAttribute(
    CUgraphNode hNode, CUkernelNodeAttrID attr,
    const CUkernelNodeAttrValue *value) {
  CUEMU_DRV_SYMBOL(cuGraphKernelNodeSetAttribute);
  CUEMU_DRV_FORWARD(cudaGraphKernelNodeSetAttribute(
      cuemu::drv::rn(hNode), static_cast<cudaLaunchAttributeID>(attr),
      value));
}

inline CUresult cuGraphKernelNodeGetAttribute(CUgraphNode hNode,
                                              CUkernelNodeAttrID attr,
                                              CUkernelNodeAttrValue *value_out) {
  CUEMU_DRV_SYMBOL(cuGraphKernelNodeGetAttribute);
  CUEMU_DRV_FORWARD(cudaGraphKernelNodeGetAttribute(
      cuemu::drv::rn(hNode), static_cast<cudaLaunchAttributeID>(attr),
      value_out));
}

inline CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst,
                                                CUgraphNode src) {
  CUEMU_DRV_SYMBOL(cuGraphKernelNodeCopyAttributes);
  CUEMU_DRV_FORWARD(cudaGraphKernelNodeCopyAttributes(cuemu::drv::rn(dst),
                                                      cuemu::drv::rn(src)));
}

/* `ctx` is ignored: every context of a device shares its memory. */
inline CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                     const CUgraphNode *dependencies,
                                     size_t numDependencies,
                                     const CUDA_MEMCPY3D *copyParams,
                                     CUcontext ctx) {
  CUEMU_DRV_SYMBOL(cuGraphAddMemcpyNode);
  (void)ctx;
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::copy(copyParams, &__cuemu_r),
      cuemu::drv::add_node(phGraphNode, hGraph, dependencies, numDependencies,
                           &__cuemu_r));
}

inline CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode,
                                           CUDA_MEMCPY3D *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphMemcpyNodeGetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  int e = cuemu::drv::node_params(hNode, CUEMU_RT_NODE_MEMCPY, nodeParams, &__cuemu_r);
  if (e == CUDA_SUCCESS)
    cuemu::drv::copy_out(__cuemu_r.u.memcpy, nodeParams);
  return static_cast<CUresult>(e);
}

inline CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode,
                                           const CUDA_MEMCPY3D *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphMemcpyNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::copy(nodeParams, &__cuemu_r),
      cuemu_rt_graph_node_set_params(
          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

inline CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                     const CUgraphNode *dependencies,
                                     size_t numDependencies,
                                     const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                     CUcontext ctx) {
  CUEMU_DRV_SYMBOL(cuGraphAddMemsetNode);
  (void)ctx;
  if (!memsetParams)
    return CUDA_ERROR_INVALID_VALUE;
  cudaMemsetParams s = cuemu::drv::set(memsetParams);
  CUEMU_DRV_FORWARD(cudaGraphAddMemsetNode(cuemu::drv::rns(phGraphNode),
                                           hGraph, cuemu::drv::rns(dependencies),
                                           numDependencies, &s));
}

inline CUresult cuGraphMemsetNodeGetParams(CUgraphNode hNode,
                                           CUDA_MEMSET_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphMemsetNodeGetParams);
  cudaMemsetParams s;
  if (!nodeParams)
    return CUDA_ERROR_INVALID_VALUE;
  CUresult e = [&]() -> CUresult {
    CUEMU_DRV_FORWARD(cudaGraphMemsetNodeGetParams(cuemu::drv::rn(hNode), &s));
  }();
  if (e == CUDA_SUCCESS) {
    nodeParams->dst = reinterpret_cast<CUdeviceptr>(s.dst);
    nodeParams->pitch = s.pitch;
    nodeParams->value = s.value;
    nodeParams->elementSize = s.elementSize;
    nodeParams->width = s.width;
    nodeParams->height = s.height;
  }
  return e;
}

inline CUresult cuGraphMemsetNodeSetParams(
    CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphMemsetNodeSetParams);
  if (!nodeParams)
    return CUDA_ERROR_INVALID_VALUE;
  cudaMemsetParams s = cuemu::drv::set(nodeParams);
  CUEMU_DRV_FORWARD(cudaGraphMemsetNodeSetParams(cuemu::drv::rn(hNode), &s));
}

inline CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                   const CUgraphNode *dependencies,
                                   size_t numDependencies,
                                   const CUDA_HOST_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphAddHostNode);
  if (!nodeParams)
    return CUDA_ERROR_INVALID_VALUE;
  cudaHostNodeParams h = cuemu::drv::host(nodeParams);
  CUEMU_DRV_FORWARD(cudaGraphAddHostNode(cuemu::drv::rns(phGraphNode), hGraph,
                                         cuemu::drv::rns(dependencies),
                                         numDependencies, &h));
}

inline CUresult cuGraphHostNodeGetParams(CUgraphNode hNode,
                                         CUDA_HOST_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphHostNodeGetParams);
  if (!nodeParams)
    return CUDA_ERROR_INVALID_VALUE;
  cudaHostNodeParams h;
  CUresult e = [&]() -> CUresult {
    CUEMU_DRV_FORWARD(cudaGraphHostNodeGetParams(cuemu::drv::rn(hNode), &h));
  }();
  if (e == CUDA_SUCCESS) {
    nodeParams->fn = h.fn;
    nodeParams->userData = h.userData;
  }
  return e;
}

inline CUresult cuGraphHostNodeSetParams(
    CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphHostNodeSetParams);
  if (!nodeParams)
    return CUDA_ERROR_INVALID_VALUE;
  cudaHostNodeParams h = cuemu::drv::host(nodeParams);
  CUEMU_DRV_FORWARD(cudaGraphHostNodeSetParams(cuemu::drv::rn(hNode), &h));
}

inline CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode,
                                         CUgraph hGraph,
                                         const CUgraphNode *dependencies,
                                         size_t numDependencies,
                                         CUgraph childGraph) {
  CUEMU_DRV_SYMBOL(cuGraphAddChildGraphNode);
  CUEMU_DRV_FORWARD(cudaGraphAddChildGraphNode(
      cuemu::drv::rns(phGraphNode), hGraph, cuemu::drv::rns(dependencies),
      numDependencies, childGraph));
}

inline CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode,
                                              CUgraph *phGraph) {
  CUEMU_DRV_SYMBOL(cuGraphChildGraphNodeGetGraph);
  CUEMU_DRV_FORWARD(
      cudaGraphChildGraphNodeGetGraph(cuemu::drv::rn(hNode), phGraph));
}

inline CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                    const CUgraphNode *dependencies,
                                    size_t numDependencies) {
  CUEMU_DRV_SYMBOL(cuGraphAddEmptyNode);
  CUEMU_DRV_FORWARD(cudaGraphAddEmptyNode(cuemu::drv::rns(phGraphNode),
                                          hGraph,
                                          cuemu::drv::rns(dependencies),
                                          numDependencies));
}

inline CUresult cuGraphAddEventRecordNode(CUgraphNode *phGraphNode,
                                          CUgraph hGraph,
                                          const CUgraphNode *dependencies,
                                          size_t numDependencies,
                                          CUevent event) {
  CUEMU_DRV_SYMBOL(cuGraphAddEventRecordNode);
  CUEMU_DRV_FORWARD(cudaGraphAddEventRecordNode(
      cuemu::drv::rns(phGraphNode), hGraph, cuemu::drv::rns(dependencies),
      numDependencies, event));
}

inline CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode,
                                        CUgraph hGraph,
                                        const CUgraphNode *dependencies,
                                        size_t numDependencies,
                                        CUevent event) {
  CUEMU_DRV_SYMBOL(cuGraphAddEventWaitNode);
  CUEMU_DRV_FORWARD(cudaGraphAddEventWaitNode(
      cuemu::drv::rns(phGraphNode), hGraph, cuemu::drv::rns(dependencies),
      numDependencies, event));
}

inline CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode,
                                               CUevent *event_out) {
  CUEMU_DRV_SYMBOL(cuGraphEventRecordNodeGetEvent);
  CUEMU_DRV_FORWARD(
      cudaGraphEventRecordNodeGetEvent(cuemu::drv::rn(hNode), event_out));
}

inline CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode,
                                             CUevent *event_out) {
  CUEMU_DRV_SYMBOL(cuGraphEventWaitNodeGetEvent);
  CUEMU_DRV_FORWARD(
      cudaGraphEventWaitNodeGetEvent(cuemu::drv::rn(hNode), event_out));
}

/* ---- Executable graphs -------------------------------------------------------- */

inline CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec,
                                            CUgraph hGraph,
                                            unsigned long long flags) {
  CUEMU_DRV_SYMBOL(cuGraphInstantiateWithFlags);
  CUEMU_DRV_FORWARD(cudaGraphInstantiateWithFlags(phGraphExec, hGraph, flags));
}

/* CUDA 13's cuGraphInstantiate is cuGraphInstantiateWithFlags. */
inline CUresult cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph,
                                   unsigned long long flags = 0) {
  return cuGraphInstantiateWithFlags(phGraphExec, hGraph, flags);
}

inline CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuGraphLaunch);
  CUEMU_DRV_FORWARD(cudaGraphLaunch(hGraphExec, hStream));
}

inline CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream) {
  CUEMU_DRV_SYMBOL(cuGraphUpload);
  CUEMU_DRV_FORWARD(cudaGraphUpload(hGraphExec, hStream));
}

inline CUresult cuGraphExecDestroy(CUgraphExec hGraphExec) {
  CUEMU_DRV_SYMBOL(cuGraphExecDestroy);
  CUEMU_DRV_FORWARD(cudaGraphExecDestroy(hGraphExec));
}

inline CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec,
                                    unsigned long long *flags) {
  CUEMU_DRV_SYMBOL(cuGraphExecGetFlags);
  CUEMU_DRV_FORWARD(cudaGraphExecGetFlags(hGraphExec, flags));
}

inline CUresult cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph,
                                  CUgraphExecUpdateResultInfo *resultInfo) {
  CUEMU_DRV_SYMBOL(cuGraphExecUpdate);
  cudaGraphExecUpdateResultInfo info = {};
  CUresult e = [&]() -> CUresult {
    CUEMU_DRV_FORWARD(cudaGraphExecUpdate(hGraphExec, hGraph, &info));
  }();
  if (resultInfo) {
    resultInfo->result = static_cast<CUgraphExecUpdateResult>(info.result);
    resultInfo->errorNode = reinterpret_cast<CUgraphNode>(info.errorNode);
    resultInfo->errorFromNode =
        reinterpret_cast<CUgraphNode>(info.errorFromNode);
  }
  return e;
}

inline CUresult cuGraphExecKernelNodeSetParams(
    CUgraphExec hGraphExec, CUgraphNode hNode,
    const CUDA_KERNEL_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphExecKernelNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::kernel(nodeParams, &__cuemu_r),
      cuemu_rt_graph_exec_node_set_params(
          reinterpret_cast<cuemu_rt_graph_exec *>(hGraphExec),
          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

inline CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec,
                                               CUgraphNode hNode,
                                               const CUDA_MEMCPY3D *copyParams,
                                               CUcontext ctx) {
  CUEMU_DRV_SYMBOL(cuGraphExecMemcpyNodeSetParams);
  (void)ctx;
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(
      cuemu::drv::copy(copyParams, &__cuemu_r),
      cuemu_rt_graph_exec_node_set_params(
          reinterpret_cast<cuemu_rt_graph_exec *>(hGraphExec),
          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

inline CUresult cuGraphExecMemsetNodeSetParams(
    CUgraphExec hGraphExec, CUgraphNode hNode,
    const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx) {
  CUEMU_DRV_SYMBOL(cuGraphExecMemsetNodeSetParams);
  (void)ctx;
  if (!memsetParams)
    return CUDA_ERROR_INVALID_VALUE;
  cudaMemsetParams s = cuemu::drv::set(memsetParams);
  CUEMU_DRV_FORWARD(
      cudaGraphExecMemsetNodeSetParams(hGraphExec, cuemu::drv::rn(hNode), &s));
}

inline CUresult cuGraphExecHostNodeSetParams(
    CUgraphExec hGraphExec, CUgraphNode hNode,
    const CUDA_HOST_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphExecHostNodeSetParams);
  if (!nodeParams)
    return CUDA_ERROR_INVALID_VALUE;
  cudaHostNodeParams h = cuemu::drv::host(nodeParams);
  CUEMU_DRV_FORWARD(
      cudaGraphExecHostNodeSetParams(hGraphExec, cuemu::drv::rn(hNode), &h));
}

inline CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec,
                                                   CUgraphNode hNode,
                                                   CUgraph childGraph) {
  CUEMU_DRV_SYMBOL(cuGraphExecChildGraphNodeSetParams);
  CUEMU_DRV_FORWARD(cudaGraphExecChildGraphNodeSetParams(
      hGraphExec, cuemu::drv::rn(hNode), childGraph));
}

/* ---- Stream capture ------------------------------------------------------------- */

inline CUresult cuStreamBeginCapture(CUstream hStream,
                                     CUstreamCaptureMode mode) {
  CUEMU_DRV_SYMBOL(cuStreamBeginCapture);
  CUEMU_DRV_FORWARD(cudaStreamBeginCapture(
      hStream, static_cast<cudaStreamCaptureMode>(mode)));
}

inline CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph) {
  CUEMU_DRV_SYMBOL(cuStreamEndCapture);
  CUEMU_DRV_FORWARD(cudaStreamEndCapture(hStream, phGraph));
}

inline CUresult cuStreamIsCapturing(CUstream hStream,
                                    CUstreamCaptureStatus *captureStatus) {
  CUEMU_DRV_SYMBOL(cuStreamIsCapturing);
  CUEMU_DRV_FORWARD(cudaStreamIsCapturing(
      hStream, reinterpret_cast<cudaStreamCaptureStatus *>(captureStatus)));
}

inline CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode) {
  CUEMU_DRV_SYMBOL(cuThreadExchangeStreamCaptureMode);
  CUEMU_DRV_FORWARD(cudaThreadExchangeStreamCaptureMode(
      reinterpret_cast<cudaStreamCaptureMode *>(mode)));
}

/* The calls of generic node parameters and the memory, conditional and
 * external semaphore nodes (and, after them, the other driver graph and
 * pool calls), which need the types above. */
#include "cuemu_driver_graph_nodes_api.h"

#endif /* CUEMU_DRIVER_GRAPH_API_H */
