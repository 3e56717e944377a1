// Explicit diffusion on a domain split in two halves along y, each half with
// one ghost row on each side, as a multi-GPU code lays it out.
#ifndef CFD_HALO_CUH
#define CFD_HALO_CUH

#include <cassert>

#include "cuda_check.cuh"
#include "reduce.cuh"

namespace cfd {

struct Half {
  int nx;       // columns
  int rows;     // owned rows
  int row0;     // global index of the first owned row
  int ny;       // global rows
};

// Updates owned local rows [lo, hi) (local row r holds global row0 + r - 1).
__global__ void diffuse_rows_kernel(const float *__restrict__ u,
                                    float *__restrict__ v, Half h, int lo,
                                    int hi, float alpha) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = lo + blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= h.nx || r >= hi)
    return;
  const int g = h.row0 + r - 1;
  const int c = r * h.nx + i;
  const float uc = __ldg(&u[c]);
  if (i == 0 || i == h.nx - 1 || g == 0 || g == h.ny - 1) {
    v[c] = uc;
    return;
  }
  const float out = uc + alpha * (__ldg(&u[c - 1]) + __ldg(&u[c + 1]) +
                                  __ldg(&u[c - h.nx]) + __ldg(&u[c + h.nx]) -
                                  4.0f * uc);
  assert(out == out); // no NaN
  v[c] = out;
}

template <int BLOCK>
__global__ void owned_sum_kernel(const float *__restrict__ u, Half h,
                                 double *__restrict__ total) {
  double local = 0.0;
  const int count = h.rows * h.nx;
  for (int k = blockIdx.x * BLOCK + threadIdx.x; k < count;
       k += BLOCK * gridDim.x)
    local += __ldg(&u[h.nx + k]);
  block_sum_atomic<BLOCK>(local, total);
}

} // namespace cfd

#endif // CFD_HALO_CUH
