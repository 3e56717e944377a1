// bonded_math.cuh: harmonic bond and angle terms, shared by the device
// library and the host reference.
#pragma once
#include "vec3.cuh"

namespace md {

// Harmonic bond U = k (r - r0)^2; d = ra - rb; returns U, fa = force on a.
__host__ __device__ inline float bond_harmonic(const vec3 &d, float k, float r0, vec3 &fa) {
  float r = d.norm();
  float dr = r - r0;
  float fmag = -2.f * k * dr / r;
  fa = d * fmag;
  return k * dr * dr;
}

// Harmonic angle U = k (theta - theta0)^2 for a-b-c; d1 = ra - rb,
// d2 = rc - rb; returns U and the forces on a and c (b gets -(fa + fc)).
__host__ __device__ inline float angle_harmonic(const vec3 &d1, const vec3 &d2, float k, float theta0, vec3 &fa,
                                                vec3 &fc) {
  float r1 = d1.norm(), r2 = d2.norm();
  float c = dot(d1, d2) / (r1 * r2);
  c = fminf(1.f, fmaxf(-1.f, c));
  float s = sqrtf(fmaxf(1.f - c * c, 1e-6f));
  float theta = acosf(c);
  float dtheta = theta - theta0;
  float a = 2.f * k * dtheta / s; // -dU/dcos
  fa = (d2 * (1.f / (r1 * r2)) - d1 * (c / (r1 * r1))) * a;
  fc = (d1 * (1.f / (r1 * r2)) - d2 * (c / (r2 * r2))) * a;
  return k * dtheta * dtheta;
}

} // namespace md
