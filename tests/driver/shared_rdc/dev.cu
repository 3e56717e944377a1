// dev.cu: the device code that kern.cu's kernels call across files (a
// device link resolves it inside the library).
#include "ops.cuh"

__device__ unsigned twice_calls;

__device__ float twice(float v) {
  atomicAdd(&twice_calls, 1u);
  return 2.0f * v;
}
