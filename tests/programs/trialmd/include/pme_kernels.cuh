// pme_kernels.cuh: order-4 B-spline charge spreading onto a periodic grid.
#pragma once
#include <cuda_runtime.h>
#include <cufft.h>
#include <cuComplex.h>

namespace pme {

constexpr int kOrder = 4;

// Coefficients of t^0..t^3 of the four cardinal B-spline weights (times 6).
__constant__ float c_bspline[kOrder][kOrder] = {
    {1.f, -3.f, 3.f, -1.f},
    {4.f, 0.f, -6.f, 3.f},
    {1.f, 3.f, 3.f, -3.f},
    {0.f, 0.f, 0.f, 1.f},
};

struct Grid {
  int nx, ny, nz;
  float L;
  __host__ __device__ int index(int x, int y, int z) const {
    x = (x % nx + nx) % nx;
    y = (y % ny + ny) % ny;
    z = (z % nz + nz) % nz;
    return (x * ny + y) * nz + z;
  }
};

__device__ inline void weights(float t, float w[kOrder]) {
#pragma unroll
  for (int k = 0; k < kOrder; ++k)
    w[k] = (c_bspline[k][0] + t * (c_bspline[k][1] + t * (c_bspline[k][2] + t * c_bspline[k][3]))) *
           (1.f / 6.f);
}

__global__ void spread_charges(const float4 *__restrict__ xyzq, int n, Grid g, float *grid) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = xyzq[i];
  float u[3] = {p.x / g.L * g.nx, p.y / g.L * g.ny, p.z / g.L * g.nz};
  int base[3];
  float w[3][kOrder];
  for (int d = 0; d < 3; ++d) {
    float f = floorf(u[d]);
    base[d] = (int)f - 1;
    weights(u[d] - f, w[d]);
  }
  for (int a = 0; a < kOrder; ++a)
    for (int b = 0; b < kOrder; ++b) {
      float qab = p.w * w[0][a] * w[1][b];
#pragma unroll
      for (int c = 0; c < kOrder; ++c)
        atomicAdd(&grid[g.index(base[0] + a, base[1] + b, base[2] + c)], qab * w[2][c]);
    }
}

__global__ void scale_complex(cufftComplex *data, int count, float s) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += blockDim.x * gridDim.x)
    data[i] = cuCmulf(data[i], make_cuComplex(s, 0.f));
}

template <int BLOCK>
__global__ void grid_sum(const float *grid, int count, double *sum) {
  __shared__ double part[BLOCK];
  double v = 0.0;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < count; i += BLOCK * gridDim.x) v += grid[i];
  part[threadIdx.x] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, part[0]);
}

} // namespace pme
