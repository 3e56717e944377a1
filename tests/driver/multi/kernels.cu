/* kernels.cu: kernels defined in one file, launched from another. */
#include "vec.cuh"

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void scale(float *y, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= factor;
}

void launch_scale(float *y, float factor, int n) {
  scale<<<(n + 127) / 128, 128>>>(y, factor, n);
}
