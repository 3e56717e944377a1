// Lid-driven cavity with the D2Q9 lattice Boltzmann solver, in float and
// double: mass conservation, agreement with a host run, and the vortex.
#include "cfd/cuda_check.cuh"
#include "cfd/lbm.h"
// The trial's static library of solver kernels (its src/lbm.cu and
// src/host_reference.cpp, which its CMake target and Makefile compile
// apart), in this program for the build's time.
#include "cfd/lbm.cu"
#include "cfd/host_reference.cpp"

#include <cmath>
#include <cstdio>
#include <vector>

template <typename Real>
static bool run_cavity(const char *label, double tol) {
  cfd::LbmParams p;
  p.nx = 48;
  p.ny = 40;
  p.tau = 0.8;
  p.u_lid = 0.1;
  const int host_steps = 8;
  const int more_steps = 300;

  cfd::LbmSolver<Real> solver(p);
  solver.initialize();
  const double mass0 = solver.total_mass();
  solver.step(host_steps);

  // Host run of the same few steps.
  std::vector<Real> fh, tmp;
  cfd::lbm_host_init(fh, p.nx, p.ny);
  for (int s = 0; s < host_steps; ++s) {
    cfd::lbm_host_step(fh, tmp, p.nx, p.ny, Real(1.0 / p.tau), Real(p.u_lid));
    fh.swap(tmp);
  }
  std::vector<Real> fd;
  solver.download(fd);
  double max_err = 0.0;
  for (size_t i = 0; i < fd.size(); ++i)
    max_err = std::fmax(max_err, std::fabs(double(fd[i]) - double(fh[i])));

  solver.step(more_steps);
  const double mass1 = solver.total_mass();
  const double mass_rel = std::fabs(mass1 - mass0) / mass0;

  std::vector<Real> rho, ux, uy;
  solver.macroscopic(rho, ux, uy);
  // Below the lid the fluid follows it; lower down the return flow goes
  // the other way.
  const int xc = p.nx / 2;
  const double u_top = ux[(p.ny - 1) * p.nx + xc];
  const double u_low = ux[(p.ny / 4) * p.nx + xc];
  bool finite = true;
  for (size_t i = 0; i < rho.size(); ++i)
    finite = finite && std::isfinite(double(rho[i])) && std::isfinite(double(ux[i]));

  const bool ok = max_err < tol && mass_rel < 10 * tol && u_top > 0.02 &&
                  u_low < 0.0 && finite;
  std::printf("%-6s steps %d  host diff %.3e  mass %.10f -> %.10f (rel %.2e)  "
              "u_top %.4f u_low %.4f  %s\n",
              label, solver.steps_done(), max_err, mass0, mass1, mass_rel,
              u_top, u_low, ok ? "ok" : "WRONG");
  return ok;
}

int main() {
  cfd::print_device_banner();
  bool ok = run_cavity<float>("float", 2e-5);
  ok = run_cavity<double>("double", 1e-12) && ok;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
