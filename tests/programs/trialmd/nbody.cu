/*
 * nbody.cu: one all-pairs gravity step with shared-memory tiles of float4
 * (the classic tile loop with #pragma unroll, rsqrtf), a body count that
 * is not a multiple of the tile, checked against a double host sum.
 * From a trial of molecular-dynamics code (tests/programs_trialmd.sh).
 * CUEMU_OPTIONS: -Iinclude --expt-relaxed-constexpr
 * NVCC_OPTIONS: -Iinclude --expt-relaxed-constexpr
 */
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "nbody_kernel.cuh"

#define checkCudaErrors(val) check_cuda((val), #val, __FILE__, __LINE__)
static void check_cuda(cudaError_t result, const char *what, const char *file, int line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, (int)result,
            cudaGetErrorName(result), what);
    exit(EXIT_FAILURE);
  }
}

static float frand(unsigned &s) {
  s = s * 1664525u + 1013904223u;
  return (s >> 8) * (1.0f / 16777216.0f);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1000; // not a multiple of the tile
  constexpr int TILE = 128;
  const float dt = 0.01f, soft2 = 0.01f;
  std::vector<float4> pos(n), vel(n);
  unsigned seed = 7;
  for (int i = 0; i < n; ++i) {
    pos[i] = make_float4(frand(seed) * 4.f - 2.f, frand(seed) * 4.f - 2.f, frand(seed) * 4.f - 2.f,
                         0.5f + frand(seed));
    vel[i] = make_float4(0.f, 0.f, 0.f, 0.f);
  }
  float4 *d_pos[2], *d_vel;
  float3 *d_acc;
  checkCudaErrors(cudaMalloc(&d_pos[0], n * sizeof(float4)));
  checkCudaErrors(cudaMalloc(&d_pos[1], n * sizeof(float4)));
  checkCudaErrors(cudaMalloc(&d_vel, n * sizeof(float4)));
  checkCudaErrors(cudaMalloc(&d_acc, n * sizeof(float3)));
  checkCudaErrors(cudaMemcpy(d_pos[0], pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_vel, vel.data(), n * sizeof(float4), cudaMemcpyHostToDevice));

  int blocks = (n + TILE - 1) / TILE;
  integrate_bodies<float, TILE><<<blocks, TILE>>>(d_pos[1], d_pos[0], d_vel, n, dt, soft2, d_acc);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaDeviceSynchronize());
  std::vector<float3> acc(n);
  std::vector<float4> newpos(n);
  checkCudaErrors(cudaMemcpy(acc.data(), d_acc, n * sizeof(float3), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(newpos.data(), d_pos[1], n * sizeof(float4), cudaMemcpyDeviceToHost));

  double maxrel = 0.0;
  for (int i = 0; i < n; ++i) {
    double a[3] = {0, 0, 0};
    for (int j = 0; j < n; ++j) {
      double r[3] = {(double)pos[j].x - pos[i].x, (double)pos[j].y - pos[i].y, (double)pos[j].z - pos[i].z};
      double d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + soft2;
      double s = pos[j].w / (d2 * sqrt(d2));
      for (int k = 0; k < 3; ++k) a[k] += r[k] * s;
    }
    double norm = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    double err = sqrt((acc[i].x - a[0]) * (acc[i].x - a[0]) + (acc[i].y - a[1]) * (acc[i].y - a[1]) +
                      (acc[i].z - a[2]) * (acc[i].z - a[2]));
    maxrel = fmax(maxrel, err / fmax(norm, 1e-3));
    double px = pos[i].x + a[0] * dt * dt;
    if (fabs(newpos[i].x - px) > 1e-4 * fmax(1.0, fabs(px))) maxrel = fmax(maxrel, 1.0);
  }
  bool ok = maxrel < 1e-4;
  printf("nbody: %d bodies, max relative acceleration error %.3e\n", n, maxrel);
  cudaFree(d_pos[0]); cudaFree(d_pos[1]); cudaFree(d_vel); cudaFree(d_acc);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
