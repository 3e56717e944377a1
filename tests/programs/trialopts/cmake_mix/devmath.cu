// NVCC_OPTIONS: -rdc=true
#include "devmath.cuh"
__device__ int calls = 0;
__device__ float poly(float x) {
  atomicAdd(&calls, 1);
  return 3.0f * x * x + 2.0f * x + 1.0f;
}
