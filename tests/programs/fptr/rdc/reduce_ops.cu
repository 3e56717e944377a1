// The second file of rdc_pointers.cu: reduction operators, a table of
// them and a default, used through pointers by the other file.
// NVCC_OPTIONS: -rdc=true
#include "reduce_ops.cuh"

__device__ float op_sum(float a, float b) { return a + b; }
__device__ float op_max(float a, float b) { return a > b ? a : b; }

__device__ reduce_op lib_ops[2] = {op_sum, op_max};
__device__ float (*lib_default)(float, float) = op_max;
