// FIR filter bank: float and packed-half FIR and a polyphase decimator,
// checked against a host FIR.
#include <cmath>
#include <cstdio>
#include <vector>
#include "sig/sig_check.cuh"
#include "sig/sig_gen.h"
// The trial's host library (its src/sig_gen.cpp, compiled apart by its
// CMakeLists.txt and Makefile), in this program for the build's time.
#include "sig/sig_gen.cpp"
#include "sig/fir_kernels.cuh"

static void host_fir(const std::vector<float> &x, const std::vector<float> &h, std::vector<float> &y) {
  const int n = (int)x.size(), nt = (int)h.size();
  y.assign(n, 0.f);
  for (int i = 0; i < n; ++i) {
    double acc = 0;
    for (int k = 0; k < nt && k <= i; ++k) acc += (double)h[k] * x[i - k];
    y[i] = (float)acc;
  }
}

int main() {
  constexpr int BLOCK = 256;
  constexpr int DECIM = 4;
  const int n = 1 << 15;
  const int ntaps = 63;
  std::vector<float> x = make_test_signal(n, 48000.f, 1234u);
  std::vector<float> x2 = make_test_signal(n, 48000.f, 99u);
  std::vector<float> h = design_lowpass(ntaps, 0.1f);

  CUDA_CHECK(cudaMemcpyToSymbol(c_taps, h.data(), ntaps * sizeof(float)));
  CUDA_CHECK(cudaMemcpyToSymbol(c_ntaps, &ntaps, sizeof(int)));
  std::vector<__half2> h2(ntaps);
  for (int k = 0; k < ntaps; ++k) h2[k] = __float2half2_rn(h[k]);
  CUDA_CHECK(cudaMemcpyToSymbol(c_taps_h2, h2.data(), ntaps * sizeof(__half2)));

  float *d_x, *d_y, *d_dec;
  __half2 *d_xh, *d_yh;
  const int n_out = n / DECIM;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_dec, n_out * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_xh, n * sizeof(__half2)));
  CUDA_CHECK(cudaMalloc(&d_yh, n * sizeof(__half2)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<__half2> xh(n);
  for (int i = 0; i < n; ++i) xh[i] = __floats2half2_rn(x[i], x2[i]);
  CUDA_CHECK(cudaMemcpy(d_xh, xh.data(), n * sizeof(__half2), cudaMemcpyHostToDevice));

  const size_t smem = (BLOCK + ntaps - 1) * sizeof(float);
  fir_float_kernel<BLOCK><<<div_up(n, BLOCK), BLOCK, smem>>>(d_x, d_y, n);
  KERNEL_CHECK();
  fir_half2_kernel<BLOCK><<<div_up(n, BLOCK), BLOCK, (BLOCK + ntaps - 1) * sizeof(__half2)>>>(d_xh, d_yh, n);
  KERNEL_CHECK();
  constexpr int DBLOCK = 128;
  const size_t dsmem = (DBLOCK * DECIM + ntaps - 1) * sizeof(float);
  polyphase_decimate_kernel<DECIM, DBLOCK><<<div_up(n_out, DBLOCK), DBLOCK, dsmem>>>(d_x, d_dec, n, n_out);
  KERNEL_CHECK();
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> y(n), dec(n_out);
  std::vector<__half2> yh(n);
  CUDA_CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(dec.data(), d_dec, n_out * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(yh.data(), d_yh, n * sizeof(__half2), cudaMemcpyDeviceToHost));

  std::vector<float> ref, ref2;
  host_fir(x, h, ref);
  host_fir(x2, h, ref2);
  double err_f = 0, err_h = 0, err_d = 0;
  for (int i = 0; i < n; ++i) {
    err_f = std::fmax(err_f, std::fabs(y[i] - ref[i]));
    err_h = std::fmax(err_h, std::fabs(__low2float(yh[i]) - ref[i]));
    err_h = std::fmax(err_h, std::fabs(__high2float(yh[i]) - ref2[i]));
  }
  for (int m = 0; m < n_out; ++m) err_d = std::fmax(err_d, std::fabs(dec[m] - ref[m * DECIM]));
  std::printf("fir float max err %.3g, half2 max err %.3g, decimated max err %.3g\n", err_f, err_h, err_d);
  bool ok = err_f < 1e-5 && err_h < 2e-2 && err_d < 1e-5;
  CUDA_CHECK(cudaFree(d_x)); CUDA_CHECK(cudaFree(d_y)); CUDA_CHECK(cudaFree(d_dec));
  CUDA_CHECK(cudaFree(d_xh)); CUDA_CHECK(cudaFree(d_yh));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
