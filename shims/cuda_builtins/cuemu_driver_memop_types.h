/*
 * cuemu_driver_memop_types.h: the types of the driver API's stream memory
 * operations (CUstreamBatchMemOpParams, their flags, the batch memory
 * operation node's parameters), in CUDA 13's layout, which libcuemu's
 * cuemu_memop mirrors (cuemu/cuemu_stream_memops.h). Read by
 * cuemu_driver_graph_nodes_api.h before CUgraphNodeParams, whose memOp
 * member has them; the calls are in cuemu_driver_memop_api.h. C reads
 * the types too (cuemu_driver_c_decls.h includes this header).
 */
/* Before the guard: cuda.h reads this header in its middle, and the types
 * must be complete there when this header is read first. */
#include "cuda.h"

#ifndef CUEMU_DRIVER_MEMOP_TYPES_H
#define CUEMU_DRIVER_MEMOP_TYPES_H

#include <stddef.h>

#ifdef __cplusplus
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_stream_memops.h>
#endif

typedef enum CUstreamWaitValue_flags_enum {
  CU_STREAM_WAIT_VALUE_GEQ = 0x0,
  CU_STREAM_WAIT_VALUE_EQ = 0x1,
  CU_STREAM_WAIT_VALUE_AND = 0x2,
  CU_STREAM_WAIT_VALUE_NOR = 0x3,
  CU_STREAM_WAIT_VALUE_FLUSH = 1 << 30
} CUstreamWaitValue_flags;

typedef enum CUstreamWriteValue_flags_enum {
  CU_STREAM_WRITE_VALUE_DEFAULT = 0x0,
  CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER = 0x1
} CUstreamWriteValue_flags;

typedef enum CUstreamBatchMemOpType_enum {
  CU_STREAM_MEM_OP_WAIT_VALUE_32 = 1,
  CU_STREAM_MEM_OP_WRITE_VALUE_32 = 2,
  CU_STREAM_MEM_OP_WAIT_VALUE_64 = 4,
  CU_STREAM_MEM_OP_WRITE_VALUE_64 = 5,
  CU_STREAM_MEM_OP_BARRIER = 6,
  CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES = 3
} CUstreamBatchMemOpType;

typedef enum CUstreamMemoryBarrier_flags_enum {
  CU_STREAM_MEMORY_BARRIER_TYPE_SYS = 0x0,
  CU_STREAM_MEMORY_BARRIER_TYPE_GPU = 0x1
} CUstreamMemoryBarrier_flags;

typedef union CUstreamBatchMemOpParams_union {
  CUstreamBatchMemOpType operation;
  struct CUstreamMemOpWaitValueParams_st {
    CUstreamBatchMemOpType operation;
    CUdeviceptr address;
    union {
      cuuint32_t value;
      cuuint64_t value64;
    };
    unsigned int flags;
    CUdeviceptr alias;
  } waitValue;
  struct CUstreamMemOpWriteValueParams_st {
    CUstreamBatchMemOpType operation;
    CUdeviceptr address;
    union {
      cuuint32_t value;
      cuuint64_t value64;
    };
    unsigned int flags;
    CUdeviceptr alias;
  } writeValue;
  struct CUstreamMemOpFlushRemoteWritesParams_st {
    CUstreamBatchMemOpType operation;
    unsigned int flags;
  } flushRemoteWrites;
  struct CUstreamMemOpMemoryBarrierParams_st {
    CUstreamBatchMemOpType operation;
    unsigned int flags;
  } memoryBarrier;
  cuuint64_t pad[6];
} CUstreamBatchMemOpParams_v1;
typedef CUstreamBatchMemOpParams_v1 CUstreamBatchMemOpParams;

typedef struct CUDA_BATCH_MEM_OP_NODE_PARAMS_v1_st {
  CUcontext ctx;
  unsigned int count;
  CUstreamBatchMemOpParams *paramArray;
  unsigned int flags;
} CUDA_BATCH_MEM_OP_NODE_PARAMS_v1;
typedef CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 CUDA_BATCH_MEM_OP_NODE_PARAMS;

typedef struct CUDA_BATCH_MEM_OP_NODE_PARAMS_v2_st {
  CUcontext ctx;
  unsigned int count;
  CUstreamBatchMemOpParams *paramArray;
  unsigned int flags;
} CUDA_BATCH_MEM_OP_NODE_PARAMS_v2;

#ifdef __cplusplus
/* libcuemu reads the operations in this layout. */
static_assert(sizeof(CUstreamBatchMemOpParams) == sizeof(cuemu_memop), "");
static_assert(offsetof(CUstreamBatchMemOpParams, waitValue.address) ==
                  offsetof(cuemu_memop, value.address),
              "");
static_assert(offsetof(CUstreamBatchMemOpParams, waitValue.value64) ==
                  offsetof(cuemu_memop, value.value),
              "");
static_assert(offsetof(CUstreamBatchMemOpParams, waitValue.flags) ==
                  offsetof(cuemu_memop, value.flags),
              "");

namespace cuemu {
namespace drv {
/* A batch memory operation node's parameters as libcuemu's. */
template <class N_>
inline int memop_node(const N_ *p, cuemu_rt_graph_node_params *__cuemu_r) {
  *__cuemu_r = cuemu_rt_graph_node_params();
  if (!p)
    return CUDA_ERROR_INVALID_VALUE;
  __cuemu_r->type = CUEMU_RT_NODE_BATCH_MEM_OP;
  __cuemu_r->u.memop.ops = p->paramArray;
  __cuemu_r->u.memop.count = p->count;
  __cuemu_r->u.memop.flags = p->flags;
  return 0;
}
} // namespace drv
} // namespace cuemu
#endif /* __cplusplus */

#endif /* CUEMU_DRIVER_MEMOP_TYPES_H */
