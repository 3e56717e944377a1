// Digital down-converter bank: NCO mixers on 8 channels, a 3-stage CIC
// decimating by 16, and an FM demodulator, checked against a host chain.
#include <cmath>
#include <cstdio>
#include <vector>
#include "sig/sig_check.cuh"
#include "sig/sig_gen.h"
// The trial's host library (its src/sig_gen.cpp, compiled apart by its
// CMakeLists.txt and Makefile), in this program for the build's time.
#include "sig/sig_gen.cpp"
#include "sig/ddc_kernels.cuh"

namespace {
constexpr int kStages = 3;
constexpr int kR = 16;
constexpr int kChan = 8;

void host_chain(const std::vector<float> &x, const NcoConfig &nco, std::vector<float> &fm,
                std::vector<int> &iq) {
  const int n = (int)x.size(), nd = n / kR;
  uint32_t integ[2][kStages] = {}, comb[2][kStages] = {};
  iq.assign(2 * nd, 0);
  int m = 0;
  for (int i = 0; i < n; ++i) {
    double ph = std::fmod(nco.phase0 + i * nco.dphase, 2 * M_PI);
    double v[2] = {x[i] * std::cos(ph), -x[i] * std::sin(ph)};
    uint32_t s[2];
    for (int k = 0; k < 2; ++k) {
      double q = std::fmin(std::fmax(v[k], -1.0), 1.0) * 32767.0;
      s[k] = (uint32_t)(int32_t)std::nearbyint(q);
      for (int st = 0; st < kStages; ++st) { integ[k][st] += s[k]; s[k] = integ[k][st]; }
    }
    if ((i + 1) % kR == 0) {
      for (int k = 0; k < 2; ++k) {
        uint32_t y = s[k];
        for (int st = 0; st < kStages; ++st) { uint32_t d = y - comb[k][st]; comb[k][st] = y; y = d; }
        iq[2 * m + k] = (int32_t)y;
      }
      ++m;
    }
  }
  fm.assign(nd, 0.f);
  for (int j = 0; j < nd; ++j) {
    int p = j > 0 ? j - 1 : 0;
    double ar = iq[2 * j], ai = iq[2 * j + 1], br = iq[2 * p], bi = iq[2 * p + 1];
    fm[j] = (float)std::atan2(ai * br - ar * bi, ar * br + ai * bi);
  }
}
}  // namespace

int main() {
  const int n = 1 << 15;
  const int nd = n / kR;
  // An FM signal: carrier near 0.1 cycles/sample, deviation 0.004, tone 1/2000.
  std::vector<float> x(n);
  Lcg rng(2024);
  double phase = 0;
  for (int i = 0; i < n; ++i) {
    double inst = 0.1 + 0.004 * std::sin(2 * M_PI * i / 2000.0);
    phase += 2 * M_PI * inst;
    x[i] = (float)(0.7 * std::cos(phase)) + 0.01f * rng.noise();
  }
  std::vector<NcoConfig> cfg(kChan);
  for (int c = 0; c < kChan; ++c) cfg[c] = {0.3 * c, 2 * M_PI * (0.1 + 0.0005 * (c - kChan / 2))};

  float *d_x, *d_fm;
  float2 *d_z;
  int2 *d_iq;
  NcoConfig *d_cfg;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_z, (size_t)kChan * n * sizeof(float2)));
  CUDA_CHECK(cudaMalloc(&d_iq, (size_t)kChan * nd * sizeof(int2)));
  CUDA_CHECK(cudaMalloc(&d_fm, (size_t)kChan * nd * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_cfg, kChan * sizeof(NcoConfig)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_cfg, cfg.data(), kChan * sizeof(NcoConfig), cudaMemcpyHostToDevice));

  nco_mix_kernel<<<dim3(16, kChan), 256>>>(d_x, d_z, d_cfg, n);
  KERNEL_CHECK();
  cic_decimate_kernel<kStages, kR><<<1, 2 * kChan>>>(d_z, d_iq, n, kChan);
  KERNEL_CHECK();
  fm_demod_kernel<<<dim3(4, kChan), 128>>>(d_iq, d_fm, nd, kChan);
  KERNEL_CHECK();
  std::vector<int2> iq((size_t)kChan * nd);
  std::vector<float> fm((size_t)kChan * nd);
  CUDA_CHECK(cudaMemcpy(iq.data(), d_iq, iq.size() * sizeof(int2), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(fm.data(), d_fm, fm.size() * sizeof(float), cudaMemcpyDeviceToHost));

  bool ok = true;
  double worst_iq = 0, worst_fm = 0;
  for (int c = 0; c < kChan; ++c) {
    std::vector<float> rfm;
    std::vector<int> riq;
    host_chain(x, cfg[c], rfm, riq);
    for (int j = 0; j < nd; ++j) {
      // A last-bit difference of sincosf may move a Q15 rounding by one; the
      // CIC's gain (R^N = 4096) bounds the effect.
      double di = std::fabs((double)iq[(size_t)c * nd + j].x - riq[2 * j]);
      double dq = std::fabs((double)iq[(size_t)c * nd + j].y - riq[2 * j + 1]);
      worst_iq = std::fmax(worst_iq, std::fmax(di, dq));
      if (j > 4) worst_fm = std::fmax(worst_fm, std::fabs(fm[(size_t)c * nd + j] - rfm[j]));
    }
  }
  ok = worst_iq <= 3 * 4096.0 && worst_fm < 1e-3;
  // The demodulated tone must be there: mean of |fm| on the centre channel.
  double mean_abs = 0;
  for (int j = 8; j < nd; ++j) mean_abs += std::fabs(fm[(size_t)(kChan / 2) * nd + j]);
  mean_abs /= (nd - 8);
  std::printf("ddc: worst I/Q diff %.0f LSB, worst FM diff %.3g rad, centre |fm| %.4f\n", worst_iq, worst_fm, mean_abs);
  ok = ok && mean_abs > 0.1 && mean_abs < 0.5;
  CUDA_CHECK(cudaFree(d_x)); CUDA_CHECK(cudaFree(d_z)); CUDA_CHECK(cudaFree(d_iq));
  CUDA_CHECK(cudaFree(d_fm)); CUDA_CHECK(cudaFree(d_cfg));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
