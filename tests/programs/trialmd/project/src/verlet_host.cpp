#include "verlet.h"
#include "md_common.cuh"

using namespace md;

static double host_forces(const VerletSetup &s, const std::vector<float4> &pos, std::vector<float4> &force) {
  LJForce lj(1.f, 1.f, s.rc);
  double e = 0.0;
  for (int i = 0; i < s.n; ++i) {
    vec3 f;
    float ei = 0.f;
    for (int j = 0; j < s.n; ++j) {
      if (j == i) continue;
      vec3 d = min_image(vec3(pos[i]) - vec3(pos[j]), s.L);
      f += d * lj(d.norm2(), ei);
    }
    force[i] = make_float4(f.x, f.y, f.z, 0.f);
    e += 0.5 * ei;
  }
  return e;
}

static double kinetic(const std::vector<float4> &vel) {
  double k = 0.0;
  for (const float4 &v : vel) k += 0.5 * (double)(v.x * v.x + v.y * v.y + v.z * v.z);
  return k;
}

void host_verlet(const VerletSetup &s, std::vector<float4> pos, std::vector<float4> vel,
                 std::vector<double> &epot, std::vector<double> &ekin) {
  std::vector<float4> force(s.n);
  epot.assign(s.steps + 1, 0.0);
  ekin.assign(s.steps + 1, 0.0);
  epot[0] = host_forces(s, pos, force);
  ekin[0] = kinetic(vel);
  float h = 0.5f * s.dt;
  for (int step = 1; step <= s.steps; ++step) {
    for (int i = 0; i < s.n; ++i) {
      vel[i].x += h * force[i].x; vel[i].y += h * force[i].y; vel[i].z += h * force[i].z;
      pos[i].x = wrap_position(pos[i].x + s.dt * vel[i].x, s.L);
      pos[i].y = wrap_position(pos[i].y + s.dt * vel[i].y, s.L);
      pos[i].z = wrap_position(pos[i].z + s.dt * vel[i].z, s.L);
    }
    epot[step] = host_forces(s, pos, force);
    for (int i = 0; i < s.n; ++i) {
      vel[i].x += h * force[i].x; vel[i].y += h * force[i].y; vel[i].z += h * force[i].z;
    }
    ekin[step] = kinetic(vel);
  }
}
