// Heat equation in 2D (shared-memory tiles on pitched memory), 3D Jacobi
// sweeps (cudaMalloc3D, marching in z) and red-black Gauss-Seidel, each
// against the host.
#include "cfd/cuda_check.cuh"
#include "cfd/stencil.h"
// The trial's static library of solver kernels (its src/stencil.cu and
// src/host_reference.cpp, which its CMake target and Makefile compile
// apart), in this program for the build's time.
#include "cfd/stencil.cu"
#include "cfd/host_reference.cpp"

#include <cmath>
#include <cstdio>
#include <vector>

static double max_abs_diff(const std::vector<float> &a,
                           const std::vector<float> &b) {
  double m = 0.0;
  for (size_t i = 0; i < a.size(); ++i)
    m = std::fmax(m, std::fabs(double(a[i]) - double(b[i])));
  return m;
}

static bool test_heat2d() {
  const int nx = 100, ny = 75, steps = 40;
  const float alpha = 0.2f;
  std::vector<float> u0(size_t(nx) * ny, 0.0f);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const float x = float(i) / (nx - 1), y = float(j) / (ny - 1);
      u0[size_t(j) * nx + i] = (j == ny - 1) ? 1.0f : std::sin(3.0f * x) * y;
    }
  std::vector<float> dev, ref = u0, tmp;
  cfd::heat2d_run(u0, dev, nx, ny, alpha, steps);
  for (int s = 0; s < steps; ++s) {
    cfd::heat2d_host_step(ref, tmp, nx, ny, alpha);
    ref.swap(tmp);
  }
  const double err = max_abs_diff(dev, ref);
  const bool ok = err < 1e-5;
  std::printf("heat2d   %dx%d, %d steps: max diff %.3e %s\n", nx, ny, steps, err,
              ok ? "ok" : "WRONG");
  return ok;
}

static bool test_jacobi3d() {
  const int nx = 37, ny = 20, nz = 12, sweeps = 6;
  const float h = 1.0f / (nx - 1);
  std::vector<float> u0(size_t(nx) * ny * nz), rhs(u0.size());
  for (size_t c = 0; c < u0.size(); ++c) {
    u0[c] = float((c * 7919) % 101) / 101.0f;
    rhs[c] = float((c * 104729) % 53) / 53.0f - 0.5f;
  }
  std::vector<float> dev, ref = u0, tmp;
  cfd::jacobi3d_run(u0, rhs, dev, nx, ny, nz, h * h, sweeps);
  for (int s = 0; s < sweeps; ++s) {
    cfd::jacobi3d_host_sweep(ref, tmp, rhs, nx, ny, nz, h * h);
    ref.swap(tmp);
  }
  const double err = max_abs_diff(dev, ref);
  const bool ok = err < 1e-5;
  std::printf("jacobi3d %dx%dx%d, %d sweeps: max diff %.3e %s\n", nx, ny, nz,
              sweeps, err, ok ? "ok" : "WRONG");
  return ok;
}

static bool test_rbgs() {
  const int nx = 66, ny = 45, sweeps = 10;
  const float h = 1.0f / (nx - 1);
  std::vector<float> u(size_t(nx) * ny, 0.0f), rhs(u.size(), 1.0f);
  for (int i = 0; i < nx; ++i)
    u[size_t(ny - 1) * nx + i] = 1.0f;
  std::vector<float> ref = u;
  cfd::rbgs_run(u, rhs, nx, ny, h * h, sweeps);
  for (int s = 0; s < sweeps; ++s)
    cfd::rbgs_host_sweep(ref, rhs, nx, ny, h * h);
  const double err = max_abs_diff(u, ref);
  const bool ok = err < 1e-5;
  std::printf("rbgs     %dx%d, %d sweeps: max diff %.3e %s\n", nx, ny, sweeps,
              err, ok ? "ok" : "WRONG");
  return ok;
}

int main() {
  cfd::print_device_banner();
  bool ok = test_heat2d();
  ok = test_jacobi3d() && ok;
  ok = test_rbgs() && ok;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
