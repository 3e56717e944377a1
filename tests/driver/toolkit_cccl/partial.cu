// partial.cu: the device function of dot.cu's kernel (separate compilation).
#include "dot.cuh"
__device__ double partial_dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    s += a[i] * b[i];
  return s;
}
