/* fft_poisson.cu: a spectral solver in the style of the CUDA samples'
 * FFT-based simulations: Poisson's equation lap(u) = f on a periodic
 * 128 x 96 grid over [0, 2 pi)^2, solved by a 2-D R2C of f, a kernel that
 * divides each wave number's coefficient by -|k|^2 (and by the grid's size,
 * cuFFT being unnormalised) in the n/2 + 1 Hermitian layout, and a C2R
 * back. f = -(a^2 + b^2) sin(a x) cos(b y) + c, with its mean c dropped by
 * the solver, gives u = sin(a x) cos(b y).
 * CUEMU_OPTIONS: -lcufft */
#include <cmath>
#include <vector>

#include <cufft.h>

#include "../cudalibs/check_libs.h"

#define CHECK_FFT(call) EXPECT_STATUS(call, CUFFT_SUCCESS)

/* F[i][j] /= -(kx^2 + ky^2) * nx * ny over nx x (ny/2 + 1) coefficients;
 * the mean (k = 0) is set to 0. */
__global__ void solve(cufftComplex *F, int nx, int ny) {
  int half = ny / 2 + 1;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= half)
    return;
  float kx = (float)(i <= nx / 2 ? i : i - nx), ky = (float)j;
  float k2 = kx * kx + ky * ky;
  cufftComplex v = F[i * half + j];
  float scale = k2 == 0.0f ? 0.0f : -1.0f / (k2 * nx * ny);
  v.x *= scale;
  v.y *= scale;
  F[i * half + j] = v;
}

int main() {
  const int nx = 128, ny = 96, half = ny / 2 + 1;
  const double a = 3, b = 2, c = 0.25, two_pi = 6.283185307179586;
  std::vector<float> f((size_t)nx * ny);
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      double x = two_pi * i / nx, y = two_pi * j / ny;
      f[(size_t)i * ny + j] =
          (float)(-(a * a + b * b) * std::sin(a * x) * std::cos(b * y) + c);
    }
  float *u;
  cufftComplex *F;
  CHECK_CUDA(cudaMalloc(&u, f.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&F, (size_t)nx * half * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMemcpy(u, f.data(), f.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  cufftHandle forward, inverse;
  CHECK_FFT(cufftPlan2d(&forward, nx, ny, CUFFT_R2C));
  CHECK_FFT(cufftPlan2d(&inverse, nx, ny, CUFFT_C2R));
  CHECK_FFT(cufftExecR2C(forward, u, F));
  dim3 block(16, 16), grid((half + 15) / 16, (nx + 15) / 16);
  solve<<<grid, block>>>(F, nx, ny);
  CHECK_CUDA(cudaGetLastError());
  CHECK_FFT(cufftExecC2R(inverse, F, u));
  std::vector<float> got(f.size());
  CHECK_CUDA(cudaMemcpy(got.data(), u, got.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  double worst = 0;
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      double x = two_pi * i / nx, y = two_pi * j / ny;
      double want = std::sin(a * x) * std::cos(b * y);
      double err = std::fabs(got[(size_t)i * ny + j] - want);
      worst = err > worst ? err : worst;
    }
  EXPECT(worst < 1e-5, "Poisson solution: largest error %.3g", worst);
  CHECK_FFT(cufftDestroy(forward));
  CHECK_FFT(cufftDestroy(inverse));
  CHECK_CUDA(cudaFree(u));
  CHECK_CUDA(cudaFree(F));
  return finish();
}
