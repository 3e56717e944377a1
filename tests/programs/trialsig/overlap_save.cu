// Overlap-save convolution of a long signal with a long FIR through
// C2C cuFFT, checked against direct convolution on the host.
//
// CUEMU_OPTIONS: -lcufft
#include <cmath>
#include <cstdio>
#include <vector>
#include "sig/sig_check.cuh"
#include "sig/sig_gen.h"
// The trial's host library (its src/sig_gen.cpp, compiled apart by its
// CMakeLists.txt and Makefile), in this program for the build's time.
#include "sig/sig_gen.cpp"
#include "sig/ols_kernels.cuh"

int main() {
  const int n = 50000;        // signal length
  const int P = 777;          // filter length
  const int N = 4096;         // FFT size
  const int L = N - P + 1;    // new samples per segment
  const int n_out = n + P - 1;
  const int nseg = div_up(n_out, L);
  std::vector<float> x = make_test_signal(n, 8000.f, 42u);
  std::vector<float> h = design_lowpass(P, 0.05f);
  Lcg rng(5);
  for (auto &v : h) v += 1e-4f * rng.noise();

  float *d_x, *d_y;
  cufftComplex *d_seg, *d_H;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n_out * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_seg, (size_t)nseg * N * sizeof(cufftComplex)));
  CUDA_CHECK(cudaMalloc(&d_H, N * sizeof(cufftComplex)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  std::vector<cufftComplex> hpad(N);
  for (int i = 0; i < N; ++i) hpad[i] = make_cuFloatComplex(i < P ? h[i] : 0.f, 0.f);
  CUDA_CHECK(cudaMemcpy(d_H, hpad.data(), N * sizeof(cufftComplex), cudaMemcpyHostToDevice));

  cufftHandle plan1, planB;
  CUFFT_CHECK(cufftPlan1d(&plan1, N, CUFFT_C2C, 1));
  CUFFT_CHECK(cufftPlan1d(&planB, N, CUFFT_C2C, nseg));
  CUFFT_CHECK(cufftExecC2C(plan1, d_H, d_H, CUFFT_FORWARD));
  // Conjugate twice (round trip through the correlation form).
  conj_inplace<<<div_up(N, 256), 256>>>(d_H, N);
  conj_inplace<<<div_up(N, 256), 256>>>(d_H, N);
  KERNEL_CHECK();

  ols_gather<<<dim3(4, nseg), 256>>>(d_x, n, d_seg, N, L, P, nseg);
  KERNEL_CHECK();
  CUFFT_CHECK(cufftExecC2C(planB, d_seg, d_seg, CUFFT_FORWARD));
  ols_multiply<<<128, 256>>>(d_seg, d_H, N, nseg, 1.0f / N);
  KERNEL_CHECK();
  CUFFT_CHECK(cufftExecC2C(planB, d_seg, d_seg, CUFFT_INVERSE));
  ols_scatter<<<dim3(4, nseg), 256>>>(d_seg, d_y, n_out, N, L, P, nseg);
  KERNEL_CHECK();
  std::vector<float> y(n_out);
  CUDA_CHECK(cudaMemcpy(y.data(), d_y, n_out * sizeof(float), cudaMemcpyDeviceToHost));

  double maxerr = 0, maxref = 0;
  for (int i = 0; i < n_out; i += 3) {
    double acc = 0;
    int k0 = i - (n - 1) > 0 ? i - (n - 1) : 0;
    int k1 = i < P - 1 ? i : P - 1;
    for (int k = k0; k <= k1; ++k) acc += (double)h[k] * x[i - k];
    maxerr = std::fmax(maxerr, std::fabs(acc - y[i]));
    maxref = std::fmax(maxref, std::fabs(acc));
  }
  bool ok = maxerr < 1e-4 * std::fmax(1.0, maxref);
  std::printf("overlap-save: N=%d L=%d segments=%d max err %.3g (max |y| %.3g)\n", N, L, nseg, maxerr, maxref);
  CUFFT_CHECK(cufftDestroy(plan1)); CUFFT_CHECK(cufftDestroy(planB));
  CUDA_CHECK(cudaFree(d_x)); CUDA_CHECK(cudaFree(d_y)); CUDA_CHECK(cudaFree(d_seg)); CUDA_CHECK(cudaFree(d_H));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
