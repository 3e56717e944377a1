// D2Q9 lattice Boltzmann solver for the lid-driven cavity (BGK collision,
// push streaming between two buffers, half-way bounce-back walls).
#ifndef CFD_LBM_H
#define CFD_LBM_H

#include <cstddef>
#include <vector>

namespace cfd {

struct LbmParams {
  int nx = 64;
  int ny = 64;
  double tau = 0.6;   // relaxation time, omega = 1 / tau
  double u_lid = 0.1; // lid velocity in lattice units
};

template <typename Real>
class LbmSolver {
public:
  explicit LbmSolver(const LbmParams &p);
  ~LbmSolver();
  LbmSolver(const LbmSolver &) = delete;
  LbmSolver &operator=(const LbmSolver &) = delete;

  void initialize();          // rho = 1, u = 0 everywhere
  void step(int nsteps = 1);  // collide + stream + walls
  double total_mass() const;  // sum of all populations (double atomics)
  void macroscopic(std::vector<Real> &rho, std::vector<Real> &ux,
                   std::vector<Real> &uy) const;
  void download(std::vector<Real> &f) const; // SoA: f[q * nx * ny + cell]
  int steps_done() const { return steps_; }

private:
  LbmParams p_;
  Real *f_[2] = {nullptr, nullptr};
  double *d_mass_ = nullptr;
  int cur_ = 0;
  int steps_ = 0;
};

// Copies the lattice weights and velocities to __constant__ memory. Called
// by the solver's constructor; returns false on failure.
bool lbm_upload_lattice();

// Host reference (src/host_reference.cpp): the same scheme on the CPU.
template <typename Real>
void lbm_host_init(std::vector<Real> &f, int nx, int ny);
template <typename Real>
void lbm_host_step(const std::vector<Real> &fin, std::vector<Real> &fout,
                   int nx, int ny, Real omega, Real u_lid);

} // namespace cfd

#endif // CFD_LBM_H
