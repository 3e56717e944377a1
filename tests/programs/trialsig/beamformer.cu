// Delay-and-sum beamformer over 48 channels in batches on several streams,
// each batch high-passed by a per-channel biquad (state carried across
// batches), checked against a host chain.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#include "sig/sig_check.cuh"
#include "sig/sig_gen.h"
// The trial's host library (its src/sig_gen.cpp, compiled apart by its
// CMakeLists.txt and Makefile), in this program for the build's time.
#include "sig/sig_gen.cpp"
#include "sig/beamform.cuh"

namespace {
constexpr int kChan = 48;
constexpr int kBeams = 5;
constexpr int kBatch = 2048;   // samples per channel per batch
constexpr int kBatches = 6;
constexpr int kStreams = 3;

Biquad highpass(double fc, double q) {
  const double w = 2 * M_PI * fc, cw = std::cos(w), al = std::sin(w) / (2 * q);
  const double a0 = 1 + al;
  return {(1 + cw) / 2 / a0, -(1 + cw) / a0, (1 + cw) / 2 / a0, -2 * cw / a0, (1 - al) / a0};
}
}  // namespace

int main() {
  const int n = kBatch;
  // Channel data for every batch: a plane wave arriving with a per-channel delay plus noise.
  std::vector<float> all((size_t)kBatches * kChan * n);
  Lcg rng(77);
  for (int b = 0; b < kBatches; ++b)
    for (int c = 0; c < kChan; ++c)
      for (int i = 0; i < n; ++i) {
        double t = b * n + i - 0.37 * c;
        all[((size_t)b * kChan + c) * n + i] = (float)(0.5 + std::sin(2 * M_PI * t / 64.0)) + 0.2f * rng.noise();
      }
  std::vector<float> delays(kBeams * kChan);
  for (int k = 0; k < kBeams; ++k)
    for (int c = 0; c < kChan; ++c) delays[k * kChan + c] = (float)(30.0 - 0.37 * c * (k - 1) * 0.5);
  std::vector<Biquad> sections(kChan);
  for (int c = 0; c < kChan; ++c) sections[c] = highpass(0.002, 0.707);

  float *h_in, *h_out;
  CUDA_CHECK(cudaMallocHost(&h_in, sizeof(float) * kBatches * kChan * n));
  CUDA_CHECK(cudaMallocHost(&h_out, sizeof(float) * kBatches * kBeams * n));
  std::memcpy(h_in, all.data(), all.size() * sizeof(float));

  float *d_delays;
  Biquad *d_sections;
  double *d_state;
  CUDA_CHECK(cudaMalloc(&d_delays, delays.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sections, kChan * sizeof(Biquad)));
  CUDA_CHECK(cudaMalloc(&d_state, 2 * kChan * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d_delays, delays.data(), delays.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_sections, sections.data(), kChan * sizeof(Biquad), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_state, 0, 2 * kChan * sizeof(double)));

  cudaStream_t streams[kStreams];
  cudaEvent_t filtered[kBatches], start, stop;
  float *d_in[kStreams], *d_out[kStreams];
  for (int s = 0; s < kStreams; ++s) {
    CUDA_CHECK(cudaStreamCreate(&streams[s]));
    CUDA_CHECK(cudaMalloc(&d_in[s], sizeof(float) * kChan * n));
    CUDA_CHECK(cudaMalloc(&d_out[s], sizeof(float) * kBeams * n));
  }
  for (int b = 0; b < kBatches; ++b) CUDA_CHECK(cudaEventCreateWithFlags(&filtered[b], cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  CUDA_CHECK(cudaEventRecord(start, streams[0]));
  for (int b = 0; b < kBatches; ++b) {
    cudaStream_t st = streams[b % kStreams];
    float *din = d_in[b % kStreams], *dout = d_out[b % kStreams];
    CUDA_CHECK(cudaMemcpyAsync(din, h_in + (size_t)b * kChan * n, sizeof(float) * kChan * n,
                               cudaMemcpyHostToDevice, st));
    // The IIR state flows from batch b-1 to batch b: wait for its filter.
    if (b > 0) CUDA_CHECK(cudaStreamWaitEvent(st, filtered[b - 1], 0));
    biquad_kernel<<<div_up(kChan, 32), 32, 0, st>>>(din, d_sections, kChan, n, d_state);
    KERNEL_CHECK();
    CUDA_CHECK(cudaEventRecord(filtered[b], st));
    dim3 grid(div_up(n, 256 / kWarp), kBeams);
    delay_and_sum_kernel<<<grid, 256, 0, st>>>(din, d_delays, dout, kChan, n, kBeams);
    KERNEL_CHECK();
    CUDA_CHECK(cudaMemcpyAsync(h_out + (size_t)b * kBeams * n, dout, sizeof(float) * kBeams * n,
                               cudaMemcpyDeviceToHost, st));
  }
  for (int s = 1; s < kStreams; ++s) {
    cudaEvent_t e;
    CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(e, streams[s]));
    CUDA_CHECK(cudaStreamWaitEvent(streams[0], e, 0));
    CUDA_CHECK(cudaEventDestroy(e));
  }
  CUDA_CHECK(cudaEventRecord(stop, streams[0]));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));

  // Host chain.
  std::vector<float> filt(all.size());
  std::vector<double> z(2 * kChan, 0.0);
  for (int b = 0; b < kBatches; ++b)
    for (int c = 0; c < kChan; ++c) {
      const Biquad &q = sections[c];
      for (int i = 0; i < n; ++i) {
        size_t idx = ((size_t)b * kChan + c) * n + i;
        double in = all[idx], out = q.b0 * in + z[2 * c];
        z[2 * c] = q.b1 * in - q.a1 * out + z[2 * c + 1];
        z[2 * c + 1] = q.b2 * in - q.a2 * out;
        filt[idx] = (float)out;
      }
    }
  double maxerr = 0;
  for (int b = 0; b < kBatches; ++b)
    for (int k = 0; k < kBeams; ++k)
      for (int t = 0; t < n; ++t) {
        double acc = 0;
        for (int c = 0; c < kChan; ++c) {
          float pos = (float)t - delays[k * kChan + c];
          int i0 = (int)std::floor(pos);
          float fr = pos - (float)i0;
          const float *row = &filt[((size_t)b * kChan + c) * n];
          float a = (i0 >= 0 && i0 < n) ? row[i0] : 0.f;
          float bb = (i0 + 1 >= 0 && i0 + 1 < n) ? row[i0 + 1] : 0.f;
          acc += a + fr * (bb - a);
        }
        acc /= kChan;
        maxerr = std::fmax(maxerr, std::fabs(acc - h_out[((size_t)b * kBeams + k) * n + t]));
      }
  // Beam 3 undoes the wave's delays exactly, so it has the most power.
  double pw[kBeams] = {};
  for (int k = 0; k < kBeams; ++k)
    for (int t = 100; t < n; ++t) { double v = h_out[((size_t)(kBatches - 1) * kBeams + k) * n + t]; pw[k] += v * v; }
  int best = 0;
  for (int k = 1; k < kBeams; ++k) if (pw[k] > pw[best]) best = k;
  bool ok = maxerr < 1e-4 && best == 3 && ms >= 0.f;
  std::printf("beamformer: %d batches on %d streams, max err %.3g, loudest beam %d\n", kBatches, kStreams, maxerr, best);

  for (int s = 0; s < kStreams; ++s) {
    CUDA_CHECK(cudaFree(d_in[s])); CUDA_CHECK(cudaFree(d_out[s])); CUDA_CHECK(cudaStreamDestroy(streams[s]));
  }
  for (int b = 0; b < kBatches; ++b) CUDA_CHECK(cudaEventDestroy(filtered[b]));
  CUDA_CHECK(cudaEventDestroy(start)); CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFreeHost(h_in)); CUDA_CHECK(cudaFreeHost(h_out));
  CUDA_CHECK(cudaFree(d_delays)); CUDA_CHECK(cudaFree(d_sections)); CUDA_CHECK(cudaFree(d_state));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
