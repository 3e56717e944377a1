/*
 * mc_curand.cu: Metropolis Monte Carlo with curand Philox states kept in
 * global memory between launches; the raw sequence and every acceptance
 * reproduced on the host (philox_host.h); XORWOW normals checked
 * statistically.
 * From a trial of molecular-dynamics code (tests/programs_trialmd.sh).
 * CUEMU_OPTIONS: -Iinclude --expt-relaxed-constexpr -lcurand
 * NVCC_OPTIONS: -Iinclude --expt-relaxed-constexpr
 */
#include <curand_kernel.h>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <vector>
#include "mc_kernels.cuh"
#include "philox_host.h"

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      return 2;                                                               \
    }                                                                         \
  } while (0)

int main() {
  const unsigned long long seed = 0x1234abcd5678ull;
  mc::Params p{2000, 0.6f, 1.0f, 1.0f};
  const int sweeps = 40, draws = 8, threads = 128;
  const int blocks = (p.n + threads - 1) / threads;

  curandStatePhilox4_32_10_t *d_states;
  float3 *d_pos;
  unsigned long long *d_acc;
  unsigned *d_raw, *d_acc_pp;
  CHECK(cudaMalloc(&d_states, p.n * sizeof(*d_states)));
  CHECK(cudaMalloc(&d_pos, p.n * sizeof(float3)));
  CHECK(cudaMalloc(&d_acc, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_raw, p.n * draws * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_acc_pp, p.n * sizeof(unsigned)));
  CHECK(cudaMemset(d_pos, 0, p.n * sizeof(float3)));
  CHECK(cudaMemset(d_acc, 0, sizeof(unsigned long long)));
  CHECK(cudaMemset(d_acc_pp, 0, p.n * sizeof(unsigned)));

  mc::init_states<<<blocks, threads>>>(d_states, seed, p.n);
  mc::peek_raw<<<blocks, threads>>>(d_states, p.n, draws, d_raw);
  for (int s = 0; s < sweeps; ++s) mc::metropolis_sweep<<<blocks, threads>>>(d_states, d_pos, p, d_acc, d_acc_pp);
  CHECK(cudaGetLastError());
  std::vector<unsigned> raw(p.n * draws), acc_pp(p.n);
  std::vector<float3> pos(p.n);
  unsigned long long accepted = 0;
  CHECK(cudaMemcpy(raw.data(), d_raw, raw.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(acc_pp.data(), d_acc_pp, p.n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(pos.data(), d_pos, p.n * sizeof(float3), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&accepted, d_acc, sizeof(accepted), cudaMemcpyDeviceToHost));

  bool ok = true;
  int raw_bad = 0, particle_bad = 0;
  unsigned long long host_accepted = 0;
  double r2 = 0.0;
  for (int i = 0; i < p.n; ++i) {
    HostPhilox h(seed, i);
    for (int k = 0; k < draws; ++k)
      if (h.next() != raw[i * draws + k]) ++raw_bad;
    HostPhilox g(seed, i);
    float x = 0.f, y = 0.f, z = 0.f;
    unsigned acc = 0;
    for (int s = 0; s < sweeps; ++s) {
      float tx = x + p.delta * (2.f * g.uniform() - 1.f);
      float ty = y + p.delta * (2.f * g.uniform() - 1.f);
      float tz = z + p.delta * (2.f * g.uniform() - 1.f);
      float dE = 0.5f * p.k * (tx * tx + ty * ty + tz * tz) - 0.5f * p.k * (x * x + y * y + z * z);
      float u = g.uniform();
      if (dE <= 0.f || u < expf(-p.beta * dE)) {
        x = tx; y = ty; z = tz;
        ++acc;
      }
    }
    host_accepted += acc;
    if (acc != acc_pp[i] || fabsf(x - pos[i].x) > 1e-4f) ++particle_bad;
    r2 += (double)pos[i].x * pos[i].x + (double)pos[i].y * pos[i].y + (double)pos[i].z * pos[i].z;
  }
  r2 /= p.n;
  double rate = (double)accepted / ((double)p.n * sweeps);
  printf("philox: %d of %d raw draws differ; accepted %llu (host %llu, rate %.3f), %d particles differ, <r2> %.3f\n",
         raw_bad, p.n * draws, accepted, host_accepted, rate, particle_bad, r2);
  // Equilibrium <r^2> = 3 / (beta k) once relaxed; after 40 sweeps from the
  // origin it is well on its way (loose bound), and the rate is moderate.
  long long gap = (long long)accepted - (long long)host_accepted;
  ok = raw_bad == 0 && particle_bad <= p.n / 500 && llabs(gap) <= (long long)particle_bad * sweeps &&
       rate > 0.3 && rate < 0.95 && r2 > 1.0 && r2 < 4.0;

  // XORWOW: normals over many subsequences.
  const int nx = 4096, nd = 16;
  curandState *d_xor;
  double *d_mom, mom[2];
  CHECK(cudaMalloc(&d_xor, nx * sizeof(curandState)));
  CHECK(cudaMalloc(&d_mom, 2 * sizeof(double)));
  CHECK(cudaMemset(d_mom, 0, 2 * sizeof(double)));
  mc::init_states<<<nx / 256, 256>>>(d_xor, 2024ull, nx);
  mc::normal_moments<<<nx / 256, 256>>>(d_xor, nx, nd, d_mom);
  CHECK(cudaMemcpy(mom, d_mom, sizeof(mom), cudaMemcpyDeviceToHost));
  double m = mom[0] / (nx * nd), var = mom[1] / (nx * nd) - m * m;
  printf("xorwow normals: mean %.4f var %.4f\n", m, var);
  ok = ok && fabs(m) < 0.03 && fabs(var - 1.0) < 0.03;

  cudaFree(d_states); cudaFree(d_pos); cudaFree(d_acc); cudaFree(d_raw); cudaFree(d_acc_pp);
  cudaFree(d_xor); cudaFree(d_mom);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
