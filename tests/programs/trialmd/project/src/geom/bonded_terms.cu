// NVCC_OPTIONS: -rdc=true -I../../../include --expt-relaxed-constexpr
#include "geom.cuh"
#include "bonded_math.cuh"

__device__ unsigned long long geom_evaluations = 0;

__device__ float geom_bond(vec3 d, float k, float r0, vec3 *fa) {
  atomicAdd(&geom_evaluations, 1ull);
  return md::bond_harmonic(d, k, r0, *fa);
}

__device__ float geom_angle(vec3 d1, vec3 d2, float k, float theta0, vec3 *fa, vec3 *fc) {
  atomicAdd(&geom_evaluations, 1ull);
  return md::angle_harmonic(d1, d2, k, theta0, *fa, *fc);
}
