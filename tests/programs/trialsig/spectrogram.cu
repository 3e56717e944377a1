// Spectrogram: Hann and Blackman windows from a kernel, batched R2C FFTs
// with cufftPlanMany on a stream, magnitudes in dB, checked against a host DFT.
//
// CUEMU_OPTIONS: -lcufft
#include <cmath>
#include <cstdio>
#include <vector>
#include <cufft.h>
#include "sig/sig_check.cuh"
#include "sig/sig_gen.h"
// The trial's host library (its src/sig_gen.cpp, compiled apart by its
// CMakeLists.txt and Makefile), in this program for the build's time.
#include "sig/sig_gen.cpp"
#include "sig/window.cuh"

struct SpectrogramPlan {
  int nfft, hop, nframes, nbins, out_dist;
  cufftHandle plan;
};

static void plan_spectrogram(SpectrogramPlan &sp, cudaStream_t stream) {
  int n[1] = {sp.nfft};
  int inembed[1] = {sp.nfft};
  int onembed[1] = {sp.out_dist};
  CUFFT_CHECK(cufftPlanMany(&sp.plan, 1, n, inembed, 1, sp.nfft, onembed, 1, sp.out_dist,
                            CUFFT_R2C, sp.nframes));
  CUFFT_CHECK(cufftSetStream(sp.plan, stream));
}

template <WindowType W>
static double host_window(int i, int n) {
  double r = (double)i / (n - 1);
  if (W == WindowType::Hann) return 0.5 - 0.5 * std::cos(2 * M_PI * r);
  return 0.42 - 0.5 * std::cos(2 * M_PI * r) + 0.08 * std::cos(4 * M_PI * r);
}

template <WindowType W>
static bool run(const char *name, const std::vector<float> &x, cudaStream_t stream) {
  SpectrogramPlan sp;
  sp.nfft = 256; sp.hop = 128;
  sp.nframes = (int)((x.size() - sp.nfft) / sp.hop + 1);
  sp.nbins = sp.nfft / 2 + 1;
  sp.out_dist = sp.nbins + 3;  // padded rows
  plan_spectrogram(sp, stream);

  float *d_x, *d_w, *d_frames, *d_db;
  cufftComplex *d_spec;
  CUDA_CHECK(cudaMalloc(&d_x, x.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_w, sp.nfft * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_frames, (size_t)sp.nframes * sp.nfft * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_spec, (size_t)sp.nframes * sp.out_dist * sizeof(cufftComplex)));
  CUDA_CHECK(cudaMalloc(&d_db, (size_t)sp.nframes * sp.nbins * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(d_x, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice, stream));

  make_window_kernel<W><<<div_up(sp.nfft, 128), 128, 0, stream>>>(d_w, sp.nfft);
  KERNEL_CHECK();
  frame_window_kernel<<<dim3(2, sp.nframes), 64, 0, stream>>>(d_x, d_w, d_frames, sp.nfft, sp.hop, sp.nframes);
  KERNEL_CHECK();
  CUFFT_CHECK(cufftExecR2C(sp.plan, d_frames, d_spec));
  magnitude_db_kernel<<<dim3(div_up(sp.nbins, 64), sp.nframes), 64, 0, stream>>>(
      d_spec, d_db, sp.nbins, sp.out_dist, sp.nframes, -120.f);
  KERNEL_CHECK();
  std::vector<float> db((size_t)sp.nframes * sp.nbins), w(sp.nfft);
  CUDA_CHECK(cudaMemcpyAsync(db.data(), d_db, db.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaMemcpyAsync(w.data(), d_w, w.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));

  double werr = 0;
  for (int i = 0; i < sp.nfft; ++i) werr = std::fmax(werr, std::fabs(w[i] - host_window<W>(i, sp.nfft)));

  // Host DFT of a few frames; compare in dB where the bin has real energy.
  double dberr = 0;
  for (int f = 0; f < sp.nframes; f += 7) {
    for (int b = 0; b < sp.nbins; ++b) {
      double re = 0, im = 0;
      for (int i = 0; i < sp.nfft; ++i) {
        double v = x[(size_t)f * sp.hop + i] * host_window<W>(i, sp.nfft);
        double ang = -2 * M_PI * (double)b * i / sp.nfft;
        re += v * std::cos(ang); im += v * std::sin(ang);
      }
      double ref = std::fmax(10 * std::log10(re * re + im * im + 1e-20), -120.0);
      if (ref > -40) dberr = std::fmax(dberr, std::fabs(ref - db[(size_t)f * sp.nbins + b]));
    }
  }
  bool ok = werr < 1e-5 && dberr < 0.05;
  std::printf("%s: %d frames x %d bins, window err %.3g, dB err %.3g\n", name, sp.nframes, sp.nbins, werr, dberr);
  CUFFT_CHECK(cufftDestroy(sp.plan));
  CUDA_CHECK(cudaFree(d_x)); CUDA_CHECK(cudaFree(d_w)); CUDA_CHECK(cudaFree(d_frames));
  CUDA_CHECK(cudaFree(d_spec)); CUDA_CHECK(cudaFree(d_db));
  return ok;
}

int main() {
  std::vector<float> x = make_test_signal(1 << 14, 16000.f, 7u);
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  bool ok = run<WindowType::Hann>("hann", x, s);
  ok = run<WindowType::Blackman>("blackman", x, s) && ok;
  CUDA_CHECK(cudaStreamDestroy(s));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
