/*
 * cuemu_driver_graph_exec_api.h: the driver API's calls of executable
 * graphs and their resources beyond cuemu_driver_graph_api.h's
 * (cuGraphInstantiateWithParams, cuGraphNodeSetEnabled, the event nodes'
 * SetEvent calls, user objects), in CUDA 13's signatures, over the
 * runtime's (cuemu_graph_api.h): one implementation. Included at the end
 * of cuemu_driver_graph_nodes_api.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_GRAPH_EXEC_API_H
#define CUEMU_DRIVER_GRAPH_EXEC_API_H

#include "cuemu_driver_graph_api.h"

#include "cuemu_driver_graph_exec_types.h"

inline CUresult
cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                             CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams) {
  CUEMU_DRV_SYMBOL(cuGraphInstantiateWithParams);
  if (!instantiateParams)
    return CUDA_ERROR_INVALID_VALUE;
  cudaGraphInstantiateParams p = {instantiateParams->flags,
                                  instantiateParams->hUploadStream, nullptr,
                                  cudaGraphInstantiateSuccess};
  CUresult e = [&]() -> CUresult {
    CUEMU_DRV_FORWARD(cudaGraphInstantiateWithParams(phGraphExec, hGraph, &p));
  }();
  instantiateParams->hErrNode_out = reinterpret_cast<CUgraphNode>(p.errNode_out);
  instantiateParams->result_out =
      static_cast<CUgraphInstantiateResult>(p.result_out);
  return e;
}

inline CUresult cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode,
                                      unsigned int isEnabled) {
  CUEMU_DRV_SYMBOL(cuGraphNodeSetEnabled);
  CUEMU_DRV_FORWARD(
      cudaGraphNodeSetEnabled(hGraphExec, cuemu::drv::rn(hNode), isEnabled));
}

inline CUresult cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode,
                                      unsigned int *isEnabled) {
  CUEMU_DRV_SYMBOL(cuGraphNodeGetEnabled);
  CUEMU_DRV_FORWARD(
      cudaGraphNodeGetEnabled(hGraphExec, cuemu::drv::rn(hNode), isEnabled));
}

inline CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode,
                                               CUevent event) {
  CUEMU_DRV_SYMBOL(cuGraphEventRecordNodeSetEvent);
  CUEMU_DRV_FORWARD(
      cudaGraphEventRecordNodeSetEvent(cuemu::drv::rn(hNode), event));
}

inline CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event) {
  CUEMU_DRV_SYMBOL(cuGraphEventWaitNodeSetEvent);
  CUEMU_DRV_FORWARD(
      cudaGraphEventWaitNodeSetEvent(cuemu::drv::rn(hNode), event));
}

inline CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec,
                                                   CUgraphNode hNode,
                                                   CUevent event) {
  CUEMU_DRV_SYMBOL(cuGraphExecEventRecordNodeSetEvent);
  CUEMU_DRV_FORWARD(cudaGraphExecEventRecordNodeSetEvent(
      hGraphExec, cuemu::drv::rn(hNode), event));
}

inline CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec,
                                                 CUgraphNode hNode,
                                                 CUevent event) {
  CUEMU_DRV_SYMBOL(cuGraphExecEventWaitNodeSetEvent);
  CUEMU_DRV_FORWARD(cudaGraphExecEventWaitNodeSetEvent(
      hGraphExec, cuemu::drv::rn(hNode), event));
}

/* ---- User objects ------------------------------------------------------------ */

inline CUresult cuUserObjectCreate(CUuserObject *object_out, void *ptr,
                                   CUhostFn destroy,
                                   unsigned int initialRefcount,
                                   unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuUserObjectCreate);
  CUEMU_DRV_FORWARD(
      cudaUserObjectCreate(object_out, ptr, destroy, initialRefcount, flags));
}

inline CUresult cuUserObjectRetain(CUuserObject object, unsigned int count) {
  CUEMU_DRV_SYMBOL(cuUserObjectRetain);
  CUEMU_DRV_FORWARD(cudaUserObjectRetain(object, count));
}

inline CUresult cuUserObjectRelease(CUuserObject object, unsigned int count) {
  CUEMU_DRV_SYMBOL(cuUserObjectRelease);
  CUEMU_DRV_FORWARD(cudaUserObjectRelease(object, count));
}

inline CUresult cuGraphRetainUserObject(CUgraph graph, CUuserObject object,
                                        unsigned int count, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuGraphRetainUserObject);
  CUEMU_DRV_FORWARD(cudaGraphRetainUserObject(graph, object, count, flags));
}

inline CUresult cuGraphReleaseUserObject(CUgraph graph, CUuserObject object,
                                         unsigned int count) {
  CUEMU_DRV_SYMBOL(cuGraphReleaseUserObject);
  CUEMU_DRV_FORWARD(cudaGraphReleaseUserObject(graph, object, count));
}

#endif /* CUEMU_DRIVER_GRAPH_EXEC_API_H */
