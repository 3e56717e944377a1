// NVCC_OPTIONS: -rdc=true -I../../include --expt-relaxed-constexpr
// verlet: 50 velocity-Verlet steps of a Lennard-Jones fluid in a periodic
// box, launched in a loop on a stream; potential and kinetic energy reduced
// in double per step; the energy drift checked against a host run.
#include <cmath>
#include <random>
#include <vector>
#include "md_common.cuh"
#include "reduce.cuh"
#include "geom.cuh"
#include "verlet.h"

using namespace md;

struct SimParams {
  int n;
  float L, dt, half_dt;
};
__constant__ SimParams c_params;

template <typename Force, int BLOCK>
__global__ void __launch_bounds__(BLOCK) pair_forces(const float4 *__restrict__ pos, float4 *__restrict__ force,
                                                     Force pair, double *epot) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  const int n = c_params.n;
  float e = 0.f;
  if (i < n) {
    float4 pi = __ldg(&pos[i]);
    vec3 f;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      vec3 d = geom_min_image(vec3(pi) - vec3(__ldg(&pos[j])), c_params.L);
      f += d * pair(d.norm2(), e);
    }
    force[i] = make_float4(f.x, f.y, f.z, pi.w);
  }
  double sum = block_sum<double, BLOCK>(0.5 * (double)e);
  if (threadIdx.x == 0) atomicAdd(epot, sum);
}

__global__ void kick_drift(float4 *pos, float4 *vel, const float4 *__restrict__ force) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= c_params.n) return;
  float4 v = vel[i], f = force[i], p = pos[i];
  const float h = c_params.half_dt;
  v.x += h * f.x; v.y += h * f.y; v.z += h * f.z;
  p.x = wrap_position(p.x + c_params.dt * v.x, c_params.L);
  p.y = wrap_position(p.y + c_params.dt * v.y, c_params.L);
  p.z = wrap_position(p.z + c_params.dt * v.z, c_params.L);
  vel[i] = v;
  pos[i] = p;
}

template <int BLOCK>
__global__ void kick_kinetic(float4 *vel, const float4 *__restrict__ force, double *ekin) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  double k = 0.0;
  if (i < c_params.n) {
    float4 v = vel[i], f = force[i];
    const float h = c_params.half_dt;
    v.x += h * f.x; v.y += h * f.y; v.z += h * f.z;
    vel[i] = v;
    k = 0.5 * (double)(v.x * v.x + v.y * v.y + v.z * v.z);
  }
  k = block_sum<double, BLOCK>(k);
  if (threadIdx.x == 0) atomicAdd(ekin, k);
}

int main() {
  constexpr int BLOCK = 64;
  VerletSetup s;
  const int side = 6;
  s.n = side * side * side;
  s.L = side * 1.5f;
  s.dt = 0.004f;
  s.rc = 2.5f;
  s.steps = 50;

  std::mt19937 rng(42);
  std::normal_distribution<float> gauss(0.f, 1.f);
  std::vector<float4> pos(s.n), vel(s.n);
  double mom[3] = {0, 0, 0};
  for (int i = 0; i < s.n; ++i) {
    int x = i % side, y = (i / side) % side, z = i / (side * side);
    pos[i] = make_float4((x + 0.5f) * 1.5f, (y + 0.5f) * 1.5f, (z + 0.5f) * 1.5f, 0.f);
    vel[i] = make_float4(gauss(rng), gauss(rng), gauss(rng), 0.f);
    mom[0] += vel[i].x; mom[1] += vel[i].y; mom[2] += vel[i].z;
  }
  for (auto &v : vel) {
    v.x -= (float)(mom[0] / s.n); v.y -= (float)(mom[1] / s.n); v.z -= (float)(mom[2] / s.n);
  }

  SimParams p{s.n, s.L, s.dt, 0.5f * s.dt};
  CUDA_CHECK(cudaMemcpyToSymbol(c_params, &p, sizeof(p)));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  float4 *d_pos, *d_vel, *d_force;
  double *d_epot, *d_ekin;
  CUDA_CHECK(cudaMalloc(&d_pos, s.n * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&d_vel, s.n * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&d_force, s.n * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&d_epot, (s.steps + 1) * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_ekin, (s.steps + 1) * sizeof(double)));
  CUDA_CHECK(cudaMemcpyAsync(d_pos, pos.data(), s.n * sizeof(float4), cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(d_vel, vel.data(), s.n * sizeof(float4), cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemsetAsync(d_epot, 0, (s.steps + 1) * sizeof(double), stream));
  CUDA_CHECK(cudaMemsetAsync(d_ekin, 0, (s.steps + 1) * sizeof(double), stream));

  LJForce lj(1.f, 1.f, s.rc);
  const int blocks = (s.n + BLOCK - 1) / BLOCK;
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start, stream));
  pair_forces<LJForce, BLOCK><<<blocks, BLOCK, 0, stream>>>(d_pos, d_force, lj, d_epot);
  // Kinetic energy of step 0 (a zero kick).
  {
    SimParams p0 = p;
    p0.half_dt = 0.f;
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_params, &p0, sizeof(p0), 0, cudaMemcpyHostToDevice, stream));
    kick_kinetic<BLOCK><<<blocks, BLOCK, 0, stream>>>(d_vel, d_force, d_ekin);
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_params, &p, sizeof(p), 0, cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  for (int step = 1; step <= s.steps; ++step) {
    kick_drift<<<blocks, BLOCK, 0, stream>>>(d_pos, d_vel, d_force);
    pair_forces<LJForce, BLOCK><<<blocks, BLOCK, 0, stream>>>(d_pos, d_force, lj, d_epot + step);
    kick_kinetic<BLOCK><<<blocks, BLOCK, 0, stream>>>(d_vel, d_force, d_ekin + step);
  }
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaEventRecord(stop, stream));

  double *h_epot, *h_ekin;
  CUDA_CHECK(cudaMallocHost(&h_epot, (s.steps + 1) * sizeof(double)));
  CUDA_CHECK(cudaMallocHost(&h_ekin, (s.steps + 1) * sizeof(double)));
  CUDA_CHECK(cudaMemcpyAsync(h_epot, d_epot, (s.steps + 1) * sizeof(double), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaMemcpyAsync(h_ekin, d_ekin, (s.steps + 1) * sizeof(double), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  float ms = 0.f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));

  std::vector<double> epot, ekin;
  host_verlet(s, pos, vel, epot, ekin);
  bool ok = true;
  double e0 = h_epot[0] + h_ekin[0];
  double maxdiff = 0.0;
  for (int k = 0; k <= s.steps; ++k) {
    double dg = h_epot[k] + h_ekin[k], dh = epot[k] + ekin[k];
    maxdiff = fmax(maxdiff, fabs(dg - dh));
    maxdiff = fmax(maxdiff, fabs(h_epot[k] - epot[k]));
  }
  double drift = (h_epot[s.steps] + h_ekin[s.steps] - e0) / fabs(e0);
  double hdrift = (epot[s.steps] + ekin[s.steps] - epot[0] - ekin[0]) / fabs(epot[0] + ekin[0]);
  printf("E0 %.6f  E50 %.6f  drift %.3e (host %.3e), max step difference %.3e\n", e0,
         h_epot[s.steps] + h_ekin[s.steps], drift, hdrift, maxdiff);
  ok = maxdiff < 1e-3 * fabs(e0) && fabs(drift) < 1e-3 && fabs(drift - hdrift) < 1e-4;
  ok = ok && ms >= 0.f && h_ekin[0] > 0.0;

  cudaFreeHost(h_epot); cudaFreeHost(h_ekin);
  cudaFree(d_pos); cudaFree(d_vel); cudaFree(d_force); cudaFree(d_epot); cudaFree(d_ekin);
  cudaEventDestroy(start); cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
