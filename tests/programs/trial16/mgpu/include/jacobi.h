#pragma once
#include <cuda_runtime.h>
typedef float real;
// One Jacobi sweep over rows [iy_start, iy_end) of an nx-wide slab; adds
// the squared residual into *l2_norm.
void launch_jacobi(real *a_new, const real *a, real *l2_norm, int iy_start,
                   int iy_end, int nx, real *halo_top, int top_row,
                   real *halo_bottom, int bottom_row, cudaStream_t s);
void launch_init_boundaries(real *a, real *a_new, real pi, int offset, int nx,
                            int my_ny, int ny, cudaStream_t s);
// Sums data over all devices with one cooperative kernel per device.
double cooperative_sum(const int *counts, real **chunks, int ndev);
