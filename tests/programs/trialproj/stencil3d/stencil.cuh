#pragma once
#include "config.h"
#include <cuda_runtime.h>
#if USE_ASYNC_COPY
#include <cuda_pipeline.h>
#endif
struct Grid3 { int nx, ny, nz; };
// 7-point Laplacian on a pitched 3D array (cudaPitchedPtr), shared-memory tile in x-y, marching in z.
template <int BX, int BY>
__global__ void laplace7(cudaPitchedPtr in, cudaPitchedPtr out, Grid3 g, float c0, float c1) {
  __shared__ float tile[BY + 2 * RADIUS][BX + 2 * RADIUS];
  const int ix = blockIdx.x * BX + threadIdx.x, iy = blockIdx.y * BY + threadIdx.y;
  const int tx = threadIdx.x + RADIUS, ty = threadIdx.y + RADIUS;
  char *base_in = (char *)in.ptr; char *base_out = (char *)out.ptr;
  const size_t pitch = in.pitch, slice = pitch * in.ysize;
  auto at = [&](int x, int y, int z) -> float {
    return ((const float *)(base_in + z * slice + y * pitch))[x];
  };
  const bool inside = ix < g.nx && iy < g.ny;
  for (int z = 1; z < g.nz - 1; ++z) {
    if (inside) {
#if USE_ASYNC_COPY
      __pipeline_memcpy_async(&tile[ty][tx], (const float *)(base_in + z * slice + iy * pitch) + ix, sizeof(float));
      __pipeline_commit();
#else
      tile[ty][tx] = at(ix, iy, z);
#endif
      if (threadIdx.x < RADIUS) {
        tile[ty][tx - RADIUS] = ix >= RADIUS ? at(ix - RADIUS, iy, z) : 0.f;
        tile[ty][tx + BX] = ix + BX < g.nx ? at(ix + BX, iy, z) : 0.f;
      }
      if (threadIdx.y < RADIUS) {
        tile[ty - RADIUS][tx] = iy >= RADIUS ? at(ix, iy - RADIUS, z) : 0.f;
        tile[ty + BY][tx] = iy + BY < g.ny ? at(ix, iy + BY, z) : 0.f;
      }
#if USE_ASYNC_COPY
      __pipeline_wait_prior(0);
#endif
    }
    __syncthreads();
    if (inside && ix > 0 && iy > 0 && ix < g.nx - 1 && iy < g.ny - 1) {
      float v = c0 * tile[ty][tx] + c1 * (tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx] +
                                          at(ix, iy, z - 1) + at(ix, iy, z + 1));
      ((float *)(base_out + z * slice + iy * pitch))[ix] = v;
    }
    __syncthreads();
  }
}
// Trilinear resampling through a 3D texture object.
__global__ void resample(cudaTextureObject_t tex, float *out, Grid3 g, float scale) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
  if (x >= g.nx || y >= g.ny || z >= g.nz) return;
  out[(z * g.ny + y) * g.nx + x] = tex3D<float>(tex, (x + 0.5f) * scale, (y + 0.5f) * scale, (z + 0.5f) * scale);
}
