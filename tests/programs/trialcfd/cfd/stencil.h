// 2D and 3D finite-difference stencils on pitched device memory.
#ifndef CFD_STENCIL_H
#define CFD_STENCIL_H

#include <vector>

namespace cfd {

// Explicit heat equation, u_t = alpha * lap(u), Dirichlet boundary kept.
void heat2d_run(const std::vector<float> &u0, std::vector<float> &out, int nx,
                int ny, float alpha, int steps);
// 7-point Jacobi sweeps of lap(u) = rhs on an nx*ny*nz box.
void jacobi3d_run(const std::vector<float> &u0, const std::vector<float> &rhs,
                  std::vector<float> &out, int nx, int ny, int nz, float h2,
                  int sweeps);
// Red-black Gauss-Seidel sweeps of lap(u) = rhs in 2D, in place.
void rbgs_run(std::vector<float> &u, const std::vector<float> &rhs, int nx,
              int ny, float h2, int sweeps);

// Host references (src/host_reference.cpp).
void heat2d_host_step(const std::vector<float> &u, std::vector<float> &v,
                      int nx, int ny, float alpha);
void jacobi3d_host_sweep(const std::vector<float> &u, std::vector<float> &v,
                         const std::vector<float> &rhs, int nx, int ny, int nz,
                         float h2);
void rbgs_host_sweep(std::vector<float> &u, const std::vector<float> &rhs,
                     int nx, int ny, float h2);

} // namespace cfd

#endif // CFD_STENCIL_H
