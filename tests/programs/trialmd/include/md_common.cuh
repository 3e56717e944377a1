// md_common.cuh: error checks, box helpers and the pair potentials.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <cuda_runtime.h>
#include "vec3.cuh"

#define CUDA_CHECK(call)                                                        \
  do {                                                                          \
    cudaError_t err_ = (call);                                                  \
    if (err_ != cudaSuccess) {                                                  \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_),   \
              __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      exit(EXIT_FAILURE);                                                       \
    }                                                                           \
  } while (0)

#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())

namespace md {

constexpr float sqr(float x) { return x * x; }
constexpr int kMaxNeighbors = 128;
constexpr int kBlockSize = 128;

// Uses std::numeric_limits in device code: needs --expt-relaxed-constexpr.
__host__ __device__ inline float huge_value() { return std::numeric_limits<float>::max(); }

__host__ __device__ inline float wrap_position(float x, float L) {
  x = fmodf(x, L);
  if (x < 0.f) x += L;
  if (x >= L) x -= L;
  return x;
}

__host__ __device__ inline float min_image_1d(float d, float L) {
  return d - L * rintf(d / L);
}

__host__ __device__ inline vec3 min_image(vec3 d, float L) {
  return vec3(min_image_1d(d.x, L), min_image_1d(d.y, L), min_image_1d(d.z, L));
}

// Lennard-Jones 12-6, truncated at rc and shifted.
struct LJForce {
  float eps, sig2, rc2, shift;
  __host__ __device__ LJForce(float e, float s, float rc) : eps(e), sig2(s * s), rc2(rc * rc), shift(0.f) {
    float sr6 = sig2 / rc2; sr6 = sr6 * sr6 * sr6;
    shift = 4.f * eps * (sr6 * sr6 - sr6);
  }
  // Returns f/r (the force is (f/r) * d) and adds the pair energy to e.
  __host__ __device__ float operator()(float r2, float &e) const {
    if (r2 >= rc2) return 0.f;
    float inv2 = 1.f / r2;
    float sr2 = sig2 * inv2;
    float sr6 = sr2 * sr2 * sr2;
    e += 4.f * eps * (sr6 * sr6 - sr6) - shift;
    return 24.f * eps * inv2 * (2.f * sr6 * sr6 - sr6);
  }
};

// Soft spheres: U = eps (1 - r/sigma)^2 for r < sigma.
struct SoftSphereForce {
  float eps, sigma, rc2;
  __host__ __device__ SoftSphereForce(float e, float s) : eps(e), sigma(s), rc2(s * s) {}
  __host__ __device__ float operator()(float r2, float &e) const {
    if (r2 >= rc2) return 0.f;
    float r = sqrtf(r2);
    float x = 1.f - r / sigma;
    e += eps * x * x;
    return 2.f * eps * x / (sigma * r);
  }
};

} // namespace md
