// verlet.h: the host reference run of the velocity-Verlet integrator.
#pragma once
#include <vector>
#include <cuda_runtime.h>

struct VerletSetup {
  int n;
  float L, dt, rc;
  int steps;
};

// Runs the integrator on the host in float, as the kernels do; fills the
// potential and kinetic energy of every step (steps + 1 values each).
void host_verlet(const VerletSetup &s, std::vector<float4> pos, std::vector<float4> vel,
                 std::vector<double> &epot, std::vector<double> &ekin);
