// Geometric multigrid for -lap(u) = f on the unit square, vertex-centred
// grids of n = 2^k - 1 interior points per side with a ghost layer
// holding the Dirichlet zeros.
#ifndef CFD_MULTIGRID_CUH
#define CFD_MULTIGRID_CUH

#include "cuda_check.cuh"
#include "reduce.cuh"

namespace cfd {
namespace mg {

// A level's arrays are (n + 2) * (n + 2) with a ghost layer.
__host__ __device__ __forceinline__ int at(int i, int j, int n) {
  return (j + 1) * (n + 2) + (i + 1);
}

template <typename Real>
__global__ void smooth_jacobi(const Real *__restrict__ u, Real *__restrict__ v,
                              const Real *__restrict__ f, int n, Real h2,
                              Real weight) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n)
    return;
  const int c = at(i, j, n);
  const int s = n + 2;
  const Real jac = Real(0.25) * (__ldg(&u[c - 1]) + __ldg(&u[c + 1]) +
                                 __ldg(&u[c - s]) + __ldg(&u[c + s]) +
                                 h2 * __ldg(&f[c]));
  v[c] = (Real(1) - weight) * __ldg(&u[c]) + weight * jac;
}

template <typename Real>
__global__ void residual(const Real *__restrict__ u, const Real *__restrict__ f,
                         Real *__restrict__ r, int n, Real inv_h2) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n)
    return;
  const int c = at(i, j, n);
  const int s = n + 2;
  r[c] = f[c] - inv_h2 * (Real(4) * u[c] - u[c - 1] - u[c + 1] - u[c - s] - u[c + s]);
}

// Vertex-centred levels: fine n = 2 * nc + 1, coarse point (i, j) sits on
// fine point (2i + 1, 2j + 1); ghosts hold the boundary's zeros.
template <typename Real>
__global__ void restrict_full(const Real *__restrict__ fine,
                              Real *__restrict__ coarse, int nc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nc || j >= nc)
    return;
  const int nf = 2 * nc + 1;
  const int I = 2 * i + 1, J = 2 * j + 1;
  const Real centre = fine[at(I, J, nf)];
  const Real edges = fine[at(I - 1, J, nf)] + fine[at(I + 1, J, nf)] +
                     fine[at(I, J - 1, nf)] + fine[at(I, J + 1, nf)];
  const Real corners = fine[at(I - 1, J - 1, nf)] + fine[at(I + 1, J - 1, nf)] +
                       fine[at(I - 1, J + 1, nf)] + fine[at(I + 1, J + 1, nf)];
  coarse[at(i, j, nc)] = (Real(4) * centre + Real(2) * edges + corners) / Real(16);
}

// Bilinear prolongation of the coarse correction, added to the fine level.
template <typename Real>
__global__ void prolong_add(const Real *__restrict__ coarse,
                            Real *__restrict__ fine, int nf) {
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  const int J = blockIdx.y * blockDim.y + threadIdx.y;
  if (I >= nf || J >= nf)
    return;
  const int nc = (nf - 1) / 2;
  Real sum = 0;
  for (int dj = 0; dj < 2; ++dj)
    for (int di = 0; di < 2; ++di) {
      if ((I & 1) && di == 1) continue;
      if ((J & 1) && dj == 1) continue;
      const int ci = (I & 1) ? (I - 1) / 2 : I / 2 - 1 + di;
      const int cj = (J & 1) ? (J - 1) / 2 : J / 2 - 1 + dj;
      const Real wx = (I & 1) ? Real(1) : Real(0.5);
      const Real wy = (J & 1) ? Real(1) : Real(0.5);
      sum += wx * wy * __ldg(&coarse[at(ci, cj, nc)]);
    }
  fine[at(I, J, nf)] += sum;
}

template <int BLOCK, typename Real>
__global__ void norm2(const Real *__restrict__ r, int n, double *__restrict__ out) {
  double local = 0.0;
  for (int k = blockIdx.x * BLOCK + threadIdx.x; k < n * n; k += BLOCK * gridDim.x) {
    const double v = r[at(k % n, k / n, n)];
    local += v * v;
  }
  block_sum_atomic<BLOCK>(local, out);
}

} // namespace mg
} // namespace cfd

#endif // CFD_MULTIGRID_CUH
