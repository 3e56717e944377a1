// reduce_ops.cuh: the reduction operators that rdc/reduce_ops.cu defines
// (relocatable device code: other files take their addresses).
#ifndef FPTR_REDUCE_OPS_CUH
#define FPTR_REDUCE_OPS_CUH

typedef float (*reduce_op)(float, float);

extern __device__ float op_sum(float a, float b);
extern __device__ float op_max(float a, float b);
// The library's own table, and its default operator (a declarator written
// out in full).
extern __device__ reduce_op lib_ops[2];
extern __device__ float (*lib_default)(float, float);

#endif
