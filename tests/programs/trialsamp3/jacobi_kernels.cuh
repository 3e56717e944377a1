// jacobi_kernels.cuh: one Jacobi sweep of the 2-D Laplace equation and a
// block reduction of the squared update, templated on the block edge.
#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <int BX, int BY>
__global__ void jacobiSweep(const float *__restrict__ in, float *__restrict__ out,
                            double *__restrict__ l2, int nx, int ny) {
  __shared__ double partial[BX * BY];
  cg::thread_block block = cg::this_thread_block();
  int ix = blockIdx.x * BX + threadIdx.x + 1;
  int iy = blockIdx.y * BY + threadIdx.y + 1;
  double d = 0.0;
  if (ix < nx - 1 && iy < ny - 1) {
    float v = 0.25f * (in[iy * nx + ix - 1] + in[iy * nx + ix + 1] +
                       in[(iy - 1) * nx + ix] + in[(iy + 1) * nx + ix]);
    out[iy * nx + ix] = v;
    d = (double)(v - in[iy * nx + ix]) * (v - in[iy * nx + ix]);
  }
  int t = threadIdx.y * BX + threadIdx.x;
  partial[t] = d;
  block.sync();
  for (int s = BX * BY / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    block.sync();
  }
  if (t == 0) atomicAdd(l2, partial[0]);
}

__global__ void setBoundary(float *a, float *b, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    a[i] = b[i] = 1.0f;                       // hot top edge
    a[(ny - 1) * nx + i] = b[(ny - 1) * nx + i] = 0.0f;
  }
  if (i > 0 && i < ny - 1) {
    a[i * nx] = b[i * nx] = 0.0f;
    a[i * nx + nx - 1] = b[i * nx + nx - 1] = 0.0f;
  }
}
