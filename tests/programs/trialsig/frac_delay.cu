// Fractional-delay bank with hardware linear interpolation (texture
// objects on a 2D CUDA array), pitched output, and per-channel energies.
#include <cmath>
#include <cstdio>
#include <vector>
#include "sig/sig_check.cuh"
#include "sig/sig_gen.h"
// The trial's host library (its src/sig_gen.cpp, compiled apart by its
// CMakeLists.txt and Makefile), in this program for the build's time.
#include "sig/sig_gen.cpp"
#include "sig/tex_delay.cuh"

int main() {
  const int n = 8192, nch = 16;
  std::vector<float> x((size_t)n * nch);
  for (int c = 0; c < nch; ++c) {
    std::vector<float> s = make_test_signal(n, 8000.f, 500u + c);
    for (int i = 0; i < n; ++i) x[(size_t)c * n + i] = s[i];
  }
  std::vector<float> delays(nch);
  for (int c = 0; c < nch; ++c) delays[c] = 1.0f + 0.3137f * c;

  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CUDA_CHECK(cudaMallocArray(&arr, &desc, n, nch));
  CUDA_CHECK(cudaMemcpy2DToArray(arr, 0, 0, x.data(), n * sizeof(float), n * sizeof(float), nch,
                                 cudaMemcpyHostToDevice));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeBorder;
  td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 0;
  cudaTextureObject_t tex;
  CUDA_CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));

  float *d_delays, *d_out, *d_energy;
  size_t pitch;
  CUDA_CHECK(cudaMalloc(&d_delays, nch * sizeof(float)));
  CUDA_CHECK(cudaMallocPitch(&d_out, &pitch, n * sizeof(float), nch));
  CUDA_CHECK(cudaMalloc(&d_energy, nch * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_energy, 0, nch * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_delays, delays.data(), nch * sizeof(float), cudaMemcpyHostToDevice));

  tex_delay_kernel<<<dim3(div_up(n, 128), nch), 128>>>(tex, d_delays, d_out, pitch, n, nch);
  KERNEL_CHECK();
  channel_energy_kernel<16><<<dim3(8, nch), 128>>>(d_out, pitch, n, d_energy);
  KERNEL_CHECK();
  std::vector<float> y((size_t)n * nch), energy(nch);
  CUDA_CHECK(cudaMemcpy2D(y.data(), n * sizeof(float), d_out, pitch, n * sizeof(float), nch,
                          cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(energy.data(), d_energy, nch * sizeof(float), cudaMemcpyDeviceToHost));

  // The texture unit keeps 8 fractional bits of the interpolation weight, so
  // compare with exact interpolation within 1/256 of the step.
  double worst = 0, worst_e = 0, exact_dev = 0;
  for (int c = 0; c < nch; ++c) {
    double e = 0;
    for (int t = 0; t < n; ++t) {
      double pos = t - (double)delays[c];
      int i0 = (int)std::floor(pos);
      double fr = pos - i0;
      double a = (i0 >= 0 && i0 < n) ? x[(size_t)c * n + i0] : 0.0;
      double b = (i0 + 1 >= 0 && i0 + 1 < n) ? x[(size_t)c * n + i0 + 1] : 0.0;
      double ref = a + fr * (b - a);
      double got = y[(size_t)c * n + t];
      double bound = std::fabs(b - a) / 256.0 + 1e-6;
      worst = std::fmax(worst, std::fabs(got - ref) / bound);
      exact_dev = std::fmax(exact_dev, std::fabs(got - ref));
      e += got * got;
    }
    worst_e = std::fmax(worst_e, std::fabs(e - energy[c]) / e);
  }
  std::printf("frac_delay: worst error %.3f of the 8-bit bound (max abs %.3g), energy rel err %.3g\n",
              worst, exact_dev, worst_e);
  bool ok = worst <= 1.0 && worst_e < 1e-4;
  CUDA_CHECK(cudaDestroyTextureObject(tex));
  CUDA_CHECK(cudaFreeArray(arr));
  CUDA_CHECK(cudaFree(d_delays)); CUDA_CHECK(cudaFree(d_out)); CUDA_CHECK(cudaFree(d_energy));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
