// mc_kernels.cuh: Metropolis displacement moves of particles in a harmonic
// well, with per-thread curand states kept in global memory between launches.
#pragma once
#include <curand_kernel.h>

namespace mc {

struct Params {
  int n;
  float delta; // largest displacement
  float beta;  // 1 / kT
  float k;     // spring constant
};

template <typename State>
__global__ void init_states(State *states, unsigned long long seed, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < n) curand_init(seed, id, 0, &states[id]);
}

// The first draws of each state, to reproduce the sequence on the host.
__global__ void peek_raw(curandStatePhilox4_32_10_t *states, int n, int draws, unsigned *out) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  curandStatePhilox4_32_10_t s = states[id]; // a copy: the stored state does not advance
  for (int k = 0; k < draws; ++k) out[id * draws + k] = curand(&s);
}

__device__ __forceinline__ float harmonic(float3 r, float k) { return 0.5f * k * (r.x * r.x + r.y * r.y + r.z * r.z); }

template <typename State>
__global__ void metropolis_sweep(State *states, float3 *pos, Params p, unsigned long long *accepted,
                                 unsigned *accept_per_particle) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= p.n) return;
  State local = states[id];
  float3 r = pos[id];
  float3 trial;
  trial.x = r.x + p.delta * (2.f * curand_uniform(&local) - 1.f);
  trial.y = r.y + p.delta * (2.f * curand_uniform(&local) - 1.f);
  trial.z = r.z + p.delta * (2.f * curand_uniform(&local) - 1.f);
  float dE = harmonic(trial, p.k) - harmonic(r, p.k);
  float u = curand_uniform(&local);
  if (dE <= 0.f || u < expf(-p.beta * dE)) {
    pos[id] = trial;
    atomicAdd(accepted, 1ull);
    accept_per_particle[id]++;
  }
  states[id] = local;
}

__global__ void normal_moments(curandState *states, int n, int draws, double *moments) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  curandState local = states[id];
  double s1 = 0.0, s2 = 0.0;
  for (int k = 0; k < draws; ++k) {
    float x = curand_normal(&local);
    s1 += x;
    s2 += (double)x * x;
  }
  states[id] = local;
  atomicAdd(&moments[0], s1);
  atomicAdd(&moments[1], s2);
}

} // namespace mc
