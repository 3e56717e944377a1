// CPU references of the solvers, compiled as plain C++.
#include "lattice.h"
#include "lbm.h"
#include "stencil.h"

#include <cstddef>
#include <vector>

namespace cfd {

template <typename Real>
void lbm_host_init(std::vector<Real> &f, int nx, int ny) {
  const size_t n = size_t(nx) * ny;
  f.assign(d2q9::Q * n, Real(0));
  for (int q = 0; q < d2q9::Q; ++q)
    for (size_t c = 0; c < n; ++c)
      f[q * n + c] = Real(d2q9::w[q]) * Real(1) * Real(1);
}

template <typename Real>
void lbm_host_step(const std::vector<Real> &fin, std::vector<Real> &fout,
                   int nx, int ny, Real omega, Real u_lid) {
  const size_t n = size_t(nx) * ny;
  fout.assign(fin.size(), Real(0));
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const size_t cell = size_t(y) * nx + x;
      Real f[d2q9::Q], rho = 0, ux = 0, uy = 0;
      for (int q = 0; q < d2q9::Q; ++q) {
        f[q] = fin[q * n + cell];
        rho += f[q];
        ux += f[q] * d2q9::ex[q];
        uy += f[q] * d2q9::ey[q];
      }
      ux /= rho;
      uy /= rho;
      const Real usq = ux * ux + uy * uy;
      for (int q = 0; q < d2q9::Q; ++q) {
        const Real wq = Real(d2q9::w[q]);
        const Real eu = Real(d2q9::ex[q]) * ux + Real(d2q9::ey[q]) * uy;
        const Real fe = wq * rho *
                        (Real(1) + Real(3) * eu + Real(4.5) * eu * eu -
                         Real(1.5) * usq);
        const Real fpost = f[q] - omega * (f[q] - fe);
        const int xn = x + d2q9::ex[q], yn = y + d2q9::ey[q];
        if (yn >= ny)
          fout[d2q9::opposite[q] * n + cell] =
              fpost - Real(6) * wq * rho * Real(d2q9::ex[q]) * u_lid;
        else if (xn < 0 || xn >= nx || yn < 0)
          fout[d2q9::opposite[q] * n + cell] = fpost;
        else
          fout[q * n + size_t(yn) * nx + xn] = fpost;
      }
    }
}

template void lbm_host_init<float>(std::vector<float> &, int, int);
template void lbm_host_init<double>(std::vector<double> &, int, int);
template void lbm_host_step<float>(const std::vector<float> &,
                                   std::vector<float> &, int, int, float,
                                   float);
template void lbm_host_step<double>(const std::vector<double> &,
                                    std::vector<double> &, int, int, double,
                                    double);

void heat2d_host_step(const std::vector<float> &u, std::vector<float> &v,
                      int nx, int ny, float alpha) {
  v = u;
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i) {
      const size_t c = size_t(j) * nx + i;
      v[c] = u[c] + alpha * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] -
                             4.0f * u[c]);
    }
}

void jacobi3d_host_sweep(const std::vector<float> &u, std::vector<float> &v,
                         const std::vector<float> &rhs, int nx, int ny, int nz,
                         float h2) {
  v = u;
  const size_t sx = 1, sy = nx, sz = size_t(nx) * ny;
  for (int k = 1; k < nz - 1; ++k)
    for (int j = 1; j < ny - 1; ++j)
      for (int i = 1; i < nx - 1; ++i) {
        const size_t c = k * sz + j * sy + i * sx;
        const float s = ((u[c - sx] + u[c + sx]) + (u[c - sy] + u[c + sy])) +
                        (u[c - sz] + u[c + sz]);
        v[c] = (s - h2 * rhs[c]) * (1.0f / 6.0f);
      }
}

void rbgs_host_sweep(std::vector<float> &u, const std::vector<float> &rhs,
                     int nx, int ny, float h2) {
  for (int color = 0; color < 2; ++color)
    for (int j = 1; j < ny - 1; ++j)
      for (int i = 1; i < nx - 1; ++i) {
        if (((i + j) & 1) != color)
          continue;
        const size_t c = size_t(j) * nx + i;
        const float s = (u[c - 1] + u[c + 1]) + (u[c - nx] + u[c + nx]);
        u[c] = 0.25f * (s - h2 * rhs[c]);
      }
}

} // namespace cfd
