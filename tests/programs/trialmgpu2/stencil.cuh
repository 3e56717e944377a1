#ifndef TRIALMGPU2_STENCIL_CUH
#define TRIALMGPU2_STENCIL_CUH
#include <cuda_runtime.h>

// One Jacobi sweep of a 1-D heat equation over rows [1, rows] of a slab with
// one halo row on each side; each row holds `width` points.
template <typename Real>
__global__ void jacobi_rows(Real *out, const Real *in, int rows, int width, Real *row_norm) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y + 1;
  if (y > rows || x >= width) return;
  const Real *c = in + (size_t)y * width;
  Real left = x > 0 ? c[x - 1] : c[x];
  Real right = x + 1 < width ? c[x + 1] : c[x];
  Real v = (Real)0.25 * (left + right + in[(size_t)(y - 1) * width + x] + in[(size_t)(y + 1) * width + x]);
  out[(size_t)y * width + x] = v;
  Real d = v - c[x];
  atomicAdd(row_norm, d * d);
}
#endif // TRIALMGPU2_STENCIL_CUH
