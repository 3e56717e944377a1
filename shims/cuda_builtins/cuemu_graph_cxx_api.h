/*
 * cuemu_graph_cxx_api.h: the C++ conveniences that CUDA's cuda_runtime.h
 * adds to the graph calls, so that code written against them compiles as
 * with nvcc:
 *   - cudaGraphExecUpdate(exec, graph, &errorNode, &result), the form of
 *     CUDA 11 that CUDA 12 and 13 keep "to avoid source breakage" (the
 *     samples' jacobiCudaGraphs uses it), over the form with a
 *     cudaGraphExecUpdateResultInfo; either output may be null;
 *   - cudaUserObjectCreate(&object, T *p, refcount, flags), which wraps a
 *     C++ object whose destructor is `delete p` when the last reference
 *     goes, with flags as unsigned int or cudaUserObjectFlags.
 */
#ifndef CUEMU_GRAPH_CXX_API_H
#define CUEMU_GRAPH_CXX_API_H

#include "cuemu_graph_api.h"

inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec,
                                       cudaGraph_t hGraph,
                                       cudaGraphNode_t *hErrorNode_out,
                                       cudaGraphExecUpdateResult *updateResult_out) {
  cudaGraphExecUpdateResultInfo info{};
  cudaError_t status = cudaGraphExecUpdate(hGraphExec, hGraph, &info);
  if (hErrorNode_out)
    *hErrorNode_out = info.errorNode;
  if (updateResult_out)
    *updateResult_out = info.result;
  return status;
}

template <class T>
inline cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out,
                                        T *objectToWrap,
                                        unsigned int initialRefcount,
                                        unsigned int flags) {
  return cudaUserObjectCreate(
      object_out, static_cast<void *>(objectToWrap),
      [](void *p) { delete static_cast<T *>(p); }, initialRefcount, flags);
}

template <class T>
inline cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out,
                                        T *objectToWrap,
                                        unsigned int initialRefcount,
                                        cudaUserObjectFlags flags) {
  return cudaUserObjectCreate(object_out, objectToWrap, initialRefcount,
                              static_cast<unsigned int>(flags));
}

#endif /* CUEMU_GRAPH_CXX_API_H */
