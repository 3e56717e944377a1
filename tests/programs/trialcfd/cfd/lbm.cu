// Host side of the D2Q9 solver and the explicit instantiations.
#include "cuda_check.cuh"
#include "lbm.h"
#include "lbm_kernels.cuh"

#include <algorithm>

namespace cfd {

namespace {
constexpr int kBX = 32;
constexpr int kBY = 8;
constexpr int kReduceBlock = 256;
} // namespace

bool lbm_upload_lattice() {
  float wf[d2q9::Q];
  for (int q = 0; q < d2q9::Q; ++q)
    wf[q] = static_cast<float>(d2q9::w[q]);
  if (cudaMemcpyToSymbol(c_ex, d2q9::ex, sizeof(d2q9::ex)) != cudaSuccess)
    return false;
  if (cudaMemcpyToSymbol(c_ey, d2q9::ey, sizeof(d2q9::ey), 0,
                         cudaMemcpyHostToDevice) != cudaSuccess)
    return false;
  if (cudaMemcpyToSymbol(c_opp, d2q9::opposite, sizeof(d2q9::opposite)) !=
      cudaSuccess)
    return false;
  if (cudaMemcpyToSymbol(c_wf, wf, sizeof(wf)) != cudaSuccess)
    return false;
  // The double weights in two halves, the second at an offset.
  if (cudaMemcpyToSymbol(c_wd, d2q9::w, 5 * sizeof(double)) != cudaSuccess)
    return false;
  if (cudaMemcpyToSymbol(c_wd, d2q9::w + 5, 4 * sizeof(double),
                         5 * sizeof(double)) != cudaSuccess)
    return false;
  // Read one back to be sure the symbol holds what we wrote.
  int check[d2q9::Q];
  if (cudaMemcpyFromSymbol(check, c_opp, sizeof(check)) != cudaSuccess)
    return false;
  for (int q = 0; q < d2q9::Q; ++q)
    if (check[q] != d2q9::opposite[q])
      return false;
  return true;
}

template <typename Real>
LbmSolver<Real>::LbmSolver(const LbmParams &p) : p_(p) {
  if (!lbm_upload_lattice()) {
    std::fprintf(stderr, "failed to upload the lattice constants\n");
    std::exit(EXIT_FAILURE);
  }
  const size_t bytes = sizeof(Real) * d2q9::Q * size_t(p_.nx) * p_.ny;
  CUDA_CHECK(cudaMalloc(&f_[0], bytes));
  CUDA_CHECK(cudaMalloc(&f_[1], bytes));
  CUDA_CHECK(cudaMalloc(&d_mass_, sizeof(double)));
}

template <typename Real> LbmSolver<Real>::~LbmSolver() {
  cudaFree(f_[0]);
  cudaFree(f_[1]);
  cudaFree(d_mass_);
}

template <typename Real> void LbmSolver<Real>::initialize() {
  dim3 block(kBX, kBY);
  dim3 grid(div_up(p_.nx, kBX), div_up(p_.ny, kBY));
  lbm_init_kernel<Real><<<grid, block>>>(f_[0], p_.nx, p_.ny);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemset(f_[1], 0, sizeof(Real) * d2q9::Q * p_.nx * p_.ny));
  cur_ = 0;
  steps_ = 0;
}

template <typename Real> void LbmSolver<Real>::step(int nsteps) {
  dim3 block(kBX, kBY);
  dim3 grid(div_up(p_.nx, kBX), div_up(p_.ny, kBY));
  const Real omega = Real(1.0 / p_.tau);
  for (int s = 0; s < nsteps; ++s) {
    lbm_collide_stream_kernel<<<grid, block>>>(f_[cur_], f_[1 - cur_], p_.nx,
                                               p_.ny, omega, Real(p_.u_lid));
    cur_ = 1 - cur_;
  }
  CUDA_CHECK(cudaGetLastError());
  steps_ += nsteps;
}

template <typename Real> double LbmSolver<Real>::total_mass() const {
  CUDA_CHECK(cudaMemset(d_mass_, 0, sizeof(double)));
  const size_t count = size_t(d2q9::Q) * p_.nx * p_.ny;
  const int blocks = static_cast<int>(
      std::min<size_t>(64, (count + kReduceBlock - 1) / kReduceBlock));
  lbm_mass_kernel<Real, kReduceBlock>
      <<<blocks, kReduceBlock>>>(f_[cur_], count, d_mass_);
  CUDA_CHECK(cudaGetLastError());
  double mass = 0.0;
  CUDA_CHECK(cudaMemcpy(&mass, d_mass_, sizeof(double), cudaMemcpyDeviceToHost));
  return mass;
}

template <typename Real>
void LbmSolver<Real>::macroscopic(std::vector<Real> &rho, std::vector<Real> &ux,
                                  std::vector<Real> &uy) const {
  const size_t n = size_t(p_.nx) * p_.ny;
  Real *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 3 * n * sizeof(Real)));
  dim3 block(kBX, kBY);
  dim3 grid(div_up(p_.nx, kBX), div_up(p_.ny, kBY));
  lbm_macroscopic_kernel<<<grid, block>>>(f_[cur_], d, d + n, d + 2 * n, p_.nx,
                                          p_.ny);
  CUDA_CHECK(cudaGetLastError());
  rho.resize(n);
  ux.resize(n);
  uy.resize(n);
  CUDA_CHECK(cudaMemcpy(rho.data(), d, n * sizeof(Real), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(ux.data(), d + n, n * sizeof(Real), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(uy.data(), d + 2 * n, n * sizeof(Real),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d));
}

template <typename Real>
void LbmSolver<Real>::download(std::vector<Real> &f) const {
  f.resize(size_t(d2q9::Q) * p_.nx * p_.ny);
  CUDA_CHECK(cudaMemcpy(f.data(), f_[cur_], f.size() * sizeof(Real),
                        cudaMemcpyDeviceToHost));
}

template class LbmSolver<float>;
template class LbmSolver<double>;

} // namespace cfd
