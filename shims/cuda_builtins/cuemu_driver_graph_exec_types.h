/*
 * cuemu_driver_graph_exec_types.h: the types of the driver API's user
 * objects and graph instantiation (CUuserObject, its flags,
 * CUDA_GRAPH_INSTANTIATE_PARAMS), in CUDA 13's layout. C reads them too:
 * cuda.h's C view (cuemu_driver_c_decls.h, written by
 * scripts/driver_c_view.py) includes this header where
 * cuemu_driver_graph_exec_api.h reads it.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_GRAPH_EXEC_TYPES_H
#define CUEMU_DRIVER_GRAPH_EXEC_TYPES_H

typedef cudaUserObject_t CUuserObject; /* struct CUuserObject_st * */

typedef enum CUuserObject_flags_enum {
  CU_USER_OBJECT_NO_DESTRUCTOR_SYNC = 1
} CUuserObject_flags;

typedef enum CUuserObjectRetain_flags_enum {
  CU_GRAPH_USER_OBJECT_MOVE = 1
} CUuserObjectRetain_flags;

typedef enum CUgraphInstantiateResult_enum {
  CUDA_GRAPH_INSTANTIATE_SUCCESS = 0,
  CUDA_GRAPH_INSTANTIATE_ERROR = 1,
  CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE = 2,
  CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED = 3,
  CUDA_GRAPH_INSTANTIATE_MULTIPLE_CTXS_NOT_SUPPORTED = 4,
  CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED = 5
} CUgraphInstantiateResult;

typedef struct CUDA_GRAPH_INSTANTIATE_PARAMS_st {
  cuuint64_t flags;
  CUstream hUploadStream;
  CUgraphNode hErrNode_out;
  CUgraphInstantiateResult result_out;
} CUDA_GRAPH_INSTANTIATE_PARAMS;

#endif /* CUEMU_DRIVER_GRAPH_EXEC_TYPES_H */
