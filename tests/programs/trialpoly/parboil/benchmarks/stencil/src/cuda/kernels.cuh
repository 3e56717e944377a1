/* kernels.cuh: the 7-point stencil, a 2-D tile in shared memory marching along z. */
#ifndef STENCIL_KERNELS_CUH
#define STENCIL_KERNELS_CUH

#include "common.h"

// Each block owns a BX x BY column of the grid.  The current plane of the
// column, with a one-cell halo, lives in shared memory; the planes below
// and above live in registers and shift as the block walks up in z.
template <int BX, int BY>
__global__ void __launch_bounds__(BX * BY)
stencil7_marching(float c0, float c1, const float *__restrict__ A0, float *__restrict__ Anext,
                  int nx, int ny, int nz)
{
    __shared__ float plane[BY + 2][BX + 2];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.x * BX + tx;
    const int j = blockIdx.y * BY + ty;
    const bool inside = i < nx && j < ny;
    const bool interior = i > 0 && j > 0 && i < nx - 1 && j < ny - 1;

    float below = inside ? A0[Index3D(nx, ny, i, j, 0)] : 0.0f;
    float current = inside ? A0[Index3D(nx, ny, i, j, 1)] : 0.0f;

    for (int k = 1; k < nz - 1; k++) {
        float above = inside ? A0[Index3D(nx, ny, i, j, k + 1)] : 0.0f;

        plane[ty + 1][tx + 1] = current;
        // The halo: edge threads load their outer neighbours.
        if (tx == 0 && i > 0 && j < ny)
            plane[ty + 1][0] = A0[Index3D(nx, ny, i - 1, j, k)];
        if ((tx == BX - 1 || i == nx - 1) && i + 1 < nx && j < ny)
            plane[ty + 1][tx + 2] = A0[Index3D(nx, ny, i + 1, j, k)];
        if (ty == 0 && j > 0 && i < nx)
            plane[0][tx + 1] = A0[Index3D(nx, ny, i, j - 1, k)];
        if ((ty == BY - 1 || j == ny - 1) && j + 1 < ny && i < nx)
            plane[ty + 2][tx + 1] = A0[Index3D(nx, ny, i, j + 1, k)];
        __syncthreads();

        if (interior) {
            Anext[Index3D(nx, ny, i, j, k)] =
                (below + above + plane[ty + 1][tx] + plane[ty + 1][tx + 2] + plane[ty][tx + 1] +
                 plane[ty + 2][tx + 1]) * c1 - current * c0;
        }
        __syncthreads();
        below = current;
        current = above;
    }
}

#endif
