/*
 * cuemu_driver_memop_api.h: the driver API's stream memory operations
 * (cuStreamWaitValue32/64, cuStreamWriteValue32/64, cuStreamBatchMemOp)
 * and batch memory operation graph nodes (cuGraphAddBatchMemOpNode,
 * cuGraphBatchMemOpNodeGetParams/SetParams,
 * cuGraphExecBatchMemOpNodeSetParams; cuGraphAddNode takes them too). Each
 * call is a batch of operations for libcuemu (cuemu/cuemu_stream_memops.h,
 * which says how waits behave when stream work runs at issue). Included at
 * the end of cuemu_driver_graph_nodes_api.h.
 */
#ifndef CUEMU_DRIVER_MEMOP_API_H
#define CUEMU_DRIVER_MEMOP_API_H

#include "cuemu_driver_graph_nodes_api.h"
#include "cuemu_driver_memop_types.h"

namespace cuemu {
namespace drv {
inline CUresult memop(CUstream stream, CUstreamBatchMemOpType type,
                      CUdeviceptr addr, cuuint64_t value, unsigned flags) {
  cuemu_memop op = cuemu_memop();
  op.value.operation = type;
  op.value.address = addr;
  op.value.value = value;
  op.value.flags = flags;
  CUEMU_DRV_FORWARD(cuemu_drv_stream_batch_mem_op(stream, 1, &op, 0));
}

} // namespace drv
} // namespace cuemu

inline CUresult cuStreamWaitValue32(CUstream stream, CUdeviceptr addr,
                                    cuuint32_t value, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuStreamWaitValue32);
  return cuemu::drv::memop(stream, CU_STREAM_MEM_OP_WAIT_VALUE_32, addr, value,
                           flags);
}

inline CUresult cuStreamWaitValue64(CUstream stream, CUdeviceptr addr,
                                    cuuint64_t value, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuStreamWaitValue64);
  return cuemu::drv::memop(stream, CU_STREAM_MEM_OP_WAIT_VALUE_64, addr, value,
                           flags);
}

inline CUresult cuStreamWriteValue32(CUstream stream, CUdeviceptr addr,
                                     cuuint32_t value, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuStreamWriteValue32);
  return cuemu::drv::memop(stream, CU_STREAM_MEM_OP_WRITE_VALUE_32, addr,
                           value, flags);
}

inline CUresult cuStreamWriteValue64(CUstream stream, CUdeviceptr addr,
                                     cuuint64_t value, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuStreamWriteValue64);
  return cuemu::drv::memop(stream, CU_STREAM_MEM_OP_WRITE_VALUE_64, addr,
                           value, flags);
}

inline CUresult cuStreamBatchMemOp(CUstream stream, unsigned int count,
                                   CUstreamBatchMemOpParams *paramArray,
                                   unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuStreamBatchMemOp);
  CUEMU_DRV_FORWARD(cuemu_drv_stream_batch_mem_op(
      stream, count, reinterpret_cast<const cuemu_memop *>(paramArray),
      flags));
}

/* CUDA 8 to 11.6's ABI version, for cuGetProcAddress: the same parameters
 * (CUstreamBatchMemOpParams is CUstreamBatchMemOpParams_v1). */
inline CUresult cuStreamBatchMemOp_v8000(CUstream stream, unsigned int count,
                                         CUstreamBatchMemOpParams_v1 *paramArray,
                                         unsigned int flags) {
  return cuStreamBatchMemOp(stream, count, paramArray, flags);
}

inline CUresult cuGraphAddBatchMemOpNode(
    CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
    size_t numDependencies, const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphAddBatchMemOpNode);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(cuemu::drv::memop_node(nodeParams, &__cuemu_r),
                      cuemu::drv::add_node(phGraphNode, hGraph, dependencies,
                                           numDependencies, &__cuemu_r));
}

/* The array read back is the node's own, valid while the node keeps these
 * parameters (as CUDA's). */
inline CUresult
cuGraphBatchMemOpNodeGetParams(CUgraphNode hNode,
                               CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams_out) {
  CUEMU_DRV_SYMBOL(cuGraphBatchMemOpNodeGetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  int e = cuemu::drv::node_params(hNode, CUEMU_RT_NODE_BATCH_MEM_OP,
                                  nodeParams_out, &__cuemu_r);
  if (e == CUDA_SUCCESS) {
    nodeParams_out->ctx = nullptr;
    nodeParams_out->count = __cuemu_r.u.memop.count;
    nodeParams_out->paramArray = const_cast<CUstreamBatchMemOpParams *>(
        static_cast<const CUstreamBatchMemOpParams *>(__cuemu_r.u.memop.ops));
    nodeParams_out->flags = __cuemu_r.u.memop.flags;
  }
  return static_cast<CUresult>(e);
}

inline CUresult
cuGraphBatchMemOpNodeSetParams(CUgraphNode hNode,
                               const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphBatchMemOpNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(cuemu::drv::memop_node(nodeParams, &__cuemu_r),
                      cuemu_rt_graph_node_set_params(
                          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

inline CUresult cuGraphExecBatchMemOpNodeSetParams(
    CUgraphExec hGraphExec, CUgraphNode hNode,
    const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams) {
  CUEMU_DRV_SYMBOL(cuGraphExecBatchMemOpNodeSetParams);
  cuemu_rt_graph_node_params __cuemu_r;
  CUEMU_DRV_CONVERTED(cuemu::drv::memop_node(nodeParams, &__cuemu_r),
                      cuemu_rt_graph_exec_node_set_params(
                          reinterpret_cast<cuemu_rt_graph_exec *>(hGraphExec),
                          reinterpret_cast<cuemu_rt_graph_node *>(hNode), &__cuemu_r));
}

#endif /* CUEMU_DRIVER_MEMOP_API_H */
