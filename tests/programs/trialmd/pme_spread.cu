/*
 * pme_spread.cu: PME-style charge spreading (order-4 B-spline coefficients
 * in an initialised __constant__ table, atomicAdd on floats, periodic
 * wrap), the grid summed in double, a cuFFT 3D R2C/C2R round trip.
 * From a trial of molecular-dynamics code (tests/programs_trialmd.sh).
 * CUEMU_OPTIONS: -Iinclude --expt-relaxed-constexpr -lcufft
 * NVCC_OPTIONS: -Iinclude --expt-relaxed-constexpr
 */
#include <cufft.h>
#include <cuComplex.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include "pme_kernels.cuh"

#define CUDA_CHECK(x)                                                                      \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                   \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)
#define CUFFT_CHECK(x)                                                                     \
  do {                                                                                     \
    cufftResult r_ = (x);                                                                  \
    if (r_ != CUFFT_SUCCESS) {                                                             \
      printf("%s:%d: cufft error %d\n", __FILE__, __LINE__, (int)r_);                     \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

static void host_weights(double t, double w[4]) {
  w[0] = (1 - t) * (1 - t) * (1 - t) / 6;
  w[1] = (3 * t * t * t - 6 * t * t + 4) / 6;
  w[2] = (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6;
  w[3] = t * t * t / 6;
}

int main() {
  const int n = 500;
  pme::Grid g{32, 32, 32, 20.f};
  const int cells = g.nx * g.ny * g.nz;
  const int ccount = g.nx * g.ny * (g.nz / 2 + 1);
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> ux(0.f, g.L), uq(-1.f, 1.f);
  std::vector<float4> xyzq(n);
  double qsum = 0.0;
  for (auto &p : xyzq) {
    p = make_float4(ux(rng), ux(rng), ux(rng), uq(rng));
    qsum += p.w;
  }

  float4 *d_xyzq;
  float *d_grid, *d_back;
  cufftComplex *d_k;
  double *d_sum;
  CUDA_CHECK(cudaMalloc(&d_xyzq, n * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&d_grid, cells * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_back, cells * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_k, ccount * sizeof(cufftComplex)));
  CUDA_CHECK(cudaMalloc(&d_sum, sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d_xyzq, xyzq.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_grid, 0, cells * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_sum, 0, sizeof(double)));

  pme::spread_charges<<<(n + 127) / 128, 128>>>(d_xyzq, n, g, d_grid);
  CUDA_CHECK(cudaGetLastError());
  pme::grid_sum<256><<<16, 256>>>(d_grid, cells, d_sum);
  CUDA_CHECK(cudaGetLastError());

  cufftHandle fwd, inv;
  CUFFT_CHECK(cufftPlan3d(&fwd, g.nx, g.ny, g.nz, CUFFT_R2C));
  CUFFT_CHECK(cufftPlan3d(&inv, g.nx, g.ny, g.nz, CUFFT_C2R));
  CUFFT_CHECK(cufftExecR2C(fwd, d_grid, d_k));
  cufftComplex k0;
  CUDA_CHECK(cudaMemcpy(&k0, d_k, sizeof(k0), cudaMemcpyDeviceToHost));
  pme::scale_complex<<<64, 128>>>(d_k, ccount, 1.f / cells);
  CUFFT_CHECK(cufftExecC2R(inv, d_k, d_back));
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> grid(cells), back(cells);
  double dsum = 0.0;
  CUDA_CHECK(cudaMemcpy(grid.data(), d_grid, cells * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(back.data(), d_back, cells * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&dsum, d_sum, sizeof(double), cudaMemcpyDeviceToHost));

  // The host spreading, in double.
  std::vector<double> ref(cells, 0.0);
  for (const auto &p : xyzq) {
    double u[3] = {p.x / g.L * g.nx, p.y / g.L * g.ny, p.z / g.L * g.nz};
    double w[3][4];
    int base[3];
    for (int d = 0; d < 3; ++d) {
      double f = floor(u[d]);
      base[d] = (int)f - 1;
      host_weights(u[d] - f, w[d]);
    }
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int c = 0; c < 4; ++c)
          ref[g.index(base[0] + a, base[1] + b, base[2] + c)] += p.w * w[0][a] * w[1][b] * w[2][c];
  }
  double maxerr = 0.0, maxrt = 0.0;
  for (int i = 0; i < cells; ++i) {
    maxerr = fmax(maxerr, fabs(grid[i] - ref[i]));
    maxrt = fmax(maxrt, fabs(back[i] - grid[i]));
  }
  printf("charge %.6f, grid sum %.6f, k=0 %.6f%+.6fi, spread error %.3g, round trip error %.3g\n", qsum, dsum,
         k0.x, k0.y, maxerr, maxrt);
  bool ok = fabs(dsum - qsum) < 1e-4 && fabs(k0.x - qsum) < 1e-3 && fabs(k0.y) < 1e-5 && maxerr < 1e-5 &&
            maxrt < 1e-5;
  cufftDestroy(fwd);
  cufftDestroy(inv);
  cudaFree(d_xyzq); cudaFree(d_grid); cudaFree(d_back); cudaFree(d_k); cudaFree(d_sum);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
