// Device side of the D2Q9 solver: lattice constants and kernels.
// Included by exactly one translation unit (src/lbm.cu).
#ifndef CFD_LBM_KERNELS_CUH
#define CFD_LBM_KERNELS_CUH

#include "lattice.h"
#include "reduce.cuh"

namespace cfd {

__constant__ int c_ex[d2q9::Q];
__constant__ int c_ey[d2q9::Q];
__constant__ int c_opp[d2q9::Q];
__constant__ float c_wf[d2q9::Q];
__constant__ double c_wd[d2q9::Q];

template <typename Real> __device__ __forceinline__ Real lattice_w(int q);
template <> __device__ __forceinline__ float lattice_w<float>(int q) {
  return c_wf[q];
}
template <> __device__ __forceinline__ double lattice_w<double>(int q) {
  return c_wd[q];
}

template <typename Real>
__device__ __forceinline__ Real feq(int q, Real rho, Real ux, Real uy) {
  const Real eu = Real(c_ex[q]) * ux + Real(c_ey[q]) * uy;
  const Real usq = ux * ux + uy * uy;
  return lattice_w<Real>(q) * rho *
         (Real(1) + Real(3) * eu + Real(4.5) * eu * eu - Real(1.5) * usq);
}

template <typename Real>
__global__ void lbm_init_kernel(Real *__restrict__ f, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  const size_t n = size_t(nx) * ny;
  const int cell = idx2(x, y, nx);
#pragma unroll
  for (int q = 0; q < d2q9::Q; ++q)
    f[q * n + cell] = feq<Real>(q, Real(1), Real(0), Real(0));
}

// One fused BGK collision and push streaming step. Populations that would
// leave the domain are bounced back into the opposite direction of the same
// cell; the lid (y = ny) moves with velocity u_lid along x.
template <typename Real>
__global__ void __launch_bounds__(256)
lbm_collide_stream_kernel(const Real *__restrict__ fin, Real *__restrict__ fout,
                          int nx, int ny, Real omega, Real u_lid) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  const size_t n = size_t(nx) * ny;
  const int cell = idx2(x, y, nx);

  Real f[d2q9::Q];
  Real rho = 0, ux = 0, uy = 0;
#pragma unroll
  for (int q = 0; q < d2q9::Q; ++q) {
    f[q] = __ldg(&fin[q * n + cell]);
    rho += f[q];
    ux += f[q] * c_ex[q];
    uy += f[q] * c_ey[q];
  }
  ux /= rho;
  uy /= rho;

#pragma unroll
  for (int q = 0; q < d2q9::Q; ++q) {
    const Real fpost = f[q] - omega * (f[q] - feq<Real>(q, rho, ux, uy));
    const int xn = x + c_ex[q];
    const int yn = y + c_ey[q];
    if (yn >= ny) {
      // Moving lid: bounce-back with momentum transfer.
      fout[c_opp[q] * n + cell] =
          fpost - Real(6) * lattice_w<Real>(q) * rho * Real(c_ex[q]) * u_lid;
    } else if (xn < 0 || xn >= nx || yn < 0) {
      fout[c_opp[q] * n + cell] = fpost;
    } else {
      fout[q * n + idx2(xn, yn, nx)] = fpost;
    }
  }
}

template <typename Real, int BLOCK>
__global__ void lbm_mass_kernel(const Real *__restrict__ f, size_t count,
                                double *__restrict__ mass) {
  double local = 0.0;
  for (size_t i = blockIdx.x * size_t(BLOCK) + threadIdx.x; i < count;
       i += size_t(BLOCK) * gridDim.x)
    local += double(__ldg(&f[i]));
  block_sum_atomic<BLOCK>(local, mass);
}

template <typename Real>
__global__ void lbm_macroscopic_kernel(const Real *__restrict__ f,
                                       Real *__restrict__ rho,
                                       Real *__restrict__ ux,
                                       Real *__restrict__ uy, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  const size_t n = size_t(nx) * ny;
  const int cell = idx2(x, y, nx);
  Real r = 0, mx = 0, my = 0;
  for (int q = 0; q < d2q9::Q; ++q) {
    const Real fq = __ldg(&f[q * n + cell]);
    r += fq;
    mx += fq * c_ex[q];
    my += fq * c_ey[q];
  }
  rho[cell] = r;
  ux[cell] = mx / r;
  uy[cell] = my / r;
}

} // namespace cfd

#endif // CFD_LBM_KERNELS_CUH
