// NVCC_OPTIONS: -I../include -Xcompiler -fopenmp
#include <cmath>
#include "jacobi.h"
#include "mgpu_check.h"

template <int BLOCK_X, int BLOCK_Y>
__global__ void jacobi_kernel(real *__restrict__ a_new, const real *__restrict__ a,
                              real *__restrict__ l2_norm, int iy_start, int iy_end,
                              int nx, real *__restrict__ halo_top, int top_row,
                              real *__restrict__ halo_bottom, int bottom_row) {
  __shared__ real block_l2[BLOCK_X * BLOCK_Y];
  int iy = blockIdx.y * blockDim.y + threadIdx.y + iy_start;
  int ix = blockIdx.x * blockDim.x + threadIdx.x + 1;
  real local = 0;
  if (iy < iy_end && ix < nx - 1) {
    real v = 0.25f * (a[iy * nx + ix + 1] + a[iy * nx + ix - 1] +
                      a[(iy + 1) * nx + ix] + a[(iy - 1) * nx + ix]);
    a_new[iy * nx + ix] = v;
    real r = v - a[iy * nx + ix];
    local = r * r;
    // Write the halo rows straight into the neighbours' buffers (P2P).
    if (iy == iy_start && halo_top) halo_top[top_row * nx + ix] = v;
    if (iy == iy_end - 1 && halo_bottom) halo_bottom[bottom_row * nx + ix] = v;
  }
  int t = threadIdx.y * BLOCK_X + threadIdx.x;
  block_l2[t] = local;
  __syncthreads();
  for (int s = BLOCK_X * BLOCK_Y / 2; s > 0; s >>= 1) {
    if (t < s) block_l2[t] += block_l2[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(l2_norm, block_l2[0]);
}

__global__ void init_boundaries(real *a, real *a_new, real pi, int offset,
                                int nx, int my_ny, int ny) {
  for (int iy = blockIdx.x * blockDim.x + threadIdx.x; iy < my_ny;
       iy += blockDim.x * gridDim.x) {
    real y0 = sinf(2.0f * pi * (offset + iy) / (ny - 1));
    a[iy * nx + 0] = y0;
    a[iy * nx + nx - 1] = y0;
    a_new[iy * nx + 0] = y0;
    a_new[iy * nx + nx - 1] = y0;
  }
}

void launch_jacobi(real *a_new, const real *a, real *l2_norm, int iy_start,
                   int iy_end, int nx, real *halo_top, int top_row,
                   real *halo_bottom, int bottom_row, cudaStream_t s) {
  constexpr int BX = 32, BY = 8;
  dim3 block(BX, BY);
  dim3 grid((nx + BX - 1) / BX, (iy_end - iy_start + BY - 1) / BY);
  jacobi_kernel<BX, BY><<<grid, block, 0, s>>>(a_new, a, l2_norm, iy_start, iy_end,
                                               nx, halo_top, top_row, halo_bottom,
                                               bottom_row);
  CUDA_RT_CALL(cudaGetLastError());
}

void launch_init_boundaries(real *a, real *a_new, real pi, int offset, int nx,
                            int my_ny, int ny, cudaStream_t s) {
  init_boundaries<<<(my_ny + 127) / 128, 128, 0, s>>>(a, a_new, pi, offset, nx,
                                                     my_ny, ny);
  CUDA_RT_CALL(cudaGetLastError());
}
