// Stencil kernels: shared-memory tiles with halos, z-marching 3D Jacobi,
// red-black Gauss-Seidel.
#ifndef CFD_STENCIL_KERNELS_CUH
#define CFD_STENCIL_KERNELS_CUH

#include "cuda_check.cuh"

namespace cfd {

template <int BX, int BY>
__global__ void heat2d_tile_kernel(const float *__restrict__ u,
                                   float *__restrict__ v, size_t pitch, int nx,
                                   int ny, float alpha) {
  __shared__ float tile[BY + 2][BX + 2];
  const int i = blockIdx.x * BX + threadIdx.x;
  const int j = blockIdx.y * BY + threadIdx.y;
  const int ti = threadIdx.x + 1;
  const int tj = threadIdx.y + 1;
  const bool inside = i < nx && j < ny;

  if (inside) {
    const float *row = pitched_row(u, pitch, j);
    tile[tj][ti] = __ldg(&row[i]);
    if (threadIdx.x == 0 && i > 0)
      tile[tj][0] = __ldg(&row[i - 1]);
    if (threadIdx.x == BX - 1 && i + 1 < nx)
      tile[tj][BX + 1] = __ldg(&row[i + 1]);
    if (threadIdx.y == 0 && j > 0)
      tile[0][ti] = __ldg(&pitched_row(u, pitch, j - 1)[i]);
    if (threadIdx.y == BY - 1 && j + 1 < ny)
      tile[BY + 1][ti] = __ldg(&pitched_row(u, pitch, j + 1)[i]);
  }
  __syncthreads();
  if (!inside)
    return;

  const float c = tile[tj][ti];
  float *out = pitched_row(v, pitch, j);
  if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
    out[i] = c;
    return;
  }
  out[i] = c + alpha * (tile[tj][ti - 1] + tile[tj][ti + 1] + tile[tj - 1][ti] +
                        tile[tj + 1][ti] - 4.0f * c);
}

__device__ __forceinline__ float *slice_row(cudaPitchedPtr p, int j, int k) {
  char *slice = static_cast<char *>(p.ptr) + size_t(k) * p.pitch * p.ysize;
  return reinterpret_cast<float *>(slice + size_t(j) * p.pitch);
}

// Each thread owns one (i, j) column and marches up in z, keeping the planes
// below and above in registers and the current plane in shared memory.
template <int BX, int BY>
__global__ void jacobi3d_kernel(cudaPitchedPtr u, cudaPitchedPtr v,
                                cudaPitchedPtr rhs, int nx, int ny, int nz,
                                float h2) {
  __shared__ float plane[BY + 2][BX + 2];
  const int i = blockIdx.x * BX + threadIdx.x;
  const int j = blockIdx.y * BY + threadIdx.y;
  const int ti = threadIdx.x + 1;
  const int tj = threadIdx.y + 1;
  const bool inside = i < nx && j < ny;
  const bool interior = inside && i > 0 && j > 0 && i < nx - 1 && j < ny - 1;

  float below = inside ? slice_row(u, j, 0)[i] : 0.0f;
  float cur = inside ? slice_row(u, j, 1)[i] : 0.0f;
  if (inside) {
    slice_row(v, j, 0)[i] = below;
    slice_row(v, j, nz - 1)[i] = slice_row(u, j, nz - 1)[i];
  }
  for (int k = 1; k < nz - 1; ++k) {
    const float above = inside ? slice_row(u, j, k + 1)[i] : 0.0f;
    __syncthreads(); // everyone is done with the previous plane
    if (inside) {
      plane[tj][ti] = cur;
      if (threadIdx.x == 0 && i > 0)
        plane[tj][0] = slice_row(u, j, k)[i - 1];
      if (threadIdx.x == BX - 1 && i + 1 < nx)
        plane[tj][BX + 1] = slice_row(u, j, k)[i + 1];
      if (threadIdx.y == 0 && j > 0)
        plane[0][ti] = slice_row(u, j - 1, k)[i];
      if (threadIdx.y == BY - 1 && j + 1 < ny)
        plane[BY + 1][ti] = slice_row(u, j + 1, k)[i];
    }
    __syncthreads();
    if (interior) {
      const float s = ((plane[tj][ti - 1] + plane[tj][ti + 1]) +
                       (plane[tj - 1][ti] + plane[tj + 1][ti])) +
                      (below + above);
      slice_row(v, j, k)[i] = (s - h2 * slice_row(rhs, j, k)[i]) * (1.0f / 6.0f);
    } else if (inside) {
      slice_row(v, j, k)[i] = cur;
    }
    below = cur;
    cur = above;
  }
}

__global__ void rbgs_kernel(float *u, const float *__restrict__ rhs,
                            size_t pitch, size_t rhs_pitch, int nx, int ny,
                            float h2, int color) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1 || ((i + j) & 1) != color)
    return;
  float *row = pitched_row(u, pitch, j);
  const float s = (row[i - 1] + row[i + 1]) +
                  (pitched_row(u, pitch, j - 1)[i] +
                   pitched_row(u, pitch, j + 1)[i]);
  row[i] = 0.25f * (s - h2 * __ldg(&pitched_row(rhs, rhs_pitch, j)[i]));
}

} // namespace cfd

#endif // CFD_STENCIL_KERNELS_CUH
