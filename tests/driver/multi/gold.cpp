/* gold.cpp: host code, compiled by the host compiler as nvcc does, with the
 * CUDA runtime's header available. */
#include <cuda_runtime.h>

#include "vec.cuh"

void saxpy_gold(float a, const float *x, float *y, int n) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1)
    return;
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
