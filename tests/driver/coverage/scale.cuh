// scale.cuh: a kernel in a header, as the coverage test's program keeps it.
#pragma once

__global__ void scale(float *x, float by, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= by;
}
