/* gold.cpp: host code, compiled by the host compiler as nvcc does, with the
 * CUDA runtime's header available. */
#include <cuda_runtime.h>

#include "host_math.h"
#include "vec.cuh"

void saxpy_gold(float a, const float *x, float *y, int n) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1)
    return;
  /* The header's fallbacks: 1 for a unit vector, and an index in range. */
  float3 u = scale_to_unit(make_float3(0.0f, 0.0f, 4.0f));
  float one = u.z;
  for (int i = 0; i < n; ++i)
    y[clamp_index(i, 0, n - 1)] = a * x[i] * one + y[i];
}
