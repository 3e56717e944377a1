// Multichannel STFT -> spectral gain -> ISTFT, captured once into a CUDA
// graph (cuFFT calls included) and replayed on new input. The analysis plan
// reads interleaved channels (istride = channels) and uses a work area that
// the program allocates itself.
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
#include "sig/stft.cuh"

int main() {
  const int nch = 4, nfft = 512, hop = nfft / 2, nsamples = 24000;
  const int nframes = nsamples / hop + 2;
  const int nbins = nfft / 2 + 1;
  std::vector<float> x((size_t)nsamples * nch);
  for (int c = 0; c < nch; ++c) {
    std::vector<float> s = make_test_signal(nsamples, 16000.f, 100u + c);
    for (int i = 0; i < nsamples; ++i) x[(size_t)i * nch + c] = s[i];
  }

  float *d_x, *d_frames, *d_iframes, *d_y, *d_gain;
  cufftComplex *d_spec;
  CUDA_CHECK(cudaMalloc(&d_x, x.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, x.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_frames, (size_t)nframes * nfft * nch * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_iframes, (size_t)nframes * nfft * nch * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_spec, (size_t)nch * nframes * nbins * sizeof(cufftComplex)));
  CUDA_CHECK(cudaMalloc(&d_gain, nbins * sizeof(float)));
  std::vector<float> gain(nbins, 1.0f);
  CUDA_CHECK(cudaMemcpy(d_gain, gain.data(), nbins * sizeof(float), cudaMemcpyHostToDevice));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));

  // Analysis plan: interleaved input, contiguous output rows per channel.
  cufftHandle fwd, inv;
  size_t work_fwd = 0, work_inv = 0;
  int n[1] = {nfft};
  int inembed[1] = {nfft}, onembed[1] = {nbins};
  CUFFT_CHECK(cufftCreate(&fwd));
  CUFFT_CHECK(cufftSetAutoAllocation(fwd, 0));
  CUFFT_CHECK(cufftMakePlanMany(fwd, 1, n, inembed, nch, nfft * nch, onembed, 1, nbins, CUFFT_R2C,
                                nframes, &work_fwd));
  CUFFT_CHECK(cufftCreate(&inv));
  CUFFT_CHECK(cufftMakePlanMany(inv, 1, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2R, nframes, &work_inv));
  size_t est = 0;
  CUFFT_CHECK(cufftGetSize(fwd, &est));
  void *work = nullptr;
  if (est > 0) CUDA_CHECK(cudaMalloc(&work, est));
  CUFFT_CHECK(cufftSetWorkArea(fwd, work));
  CUFFT_CHECK(cufftSetStream(fwd, stream));
  CUFFT_CHECK(cufftSetStream(inv, stream));

  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaMemsetAsync(d_y, 0, x.size() * sizeof(float), stream));
  stft_frames_kernel<<<dim3(8, nframes), 256, 0, stream>>>(d_x, d_frames, nch, nfft, hop, nframes, nsamples);
  for (int c = 0; c < nch; ++c)
    CUFFT_CHECK(cufftExecR2C(fwd, d_frames + c, d_spec + (size_t)c * nframes * nbins));
  apply_gain_kernel<<<64, 256, 0, stream>>>(d_spec, d_gain, nbins, (size_t)nch * nframes * nbins);
  for (int c = 0; c < nch; ++c) {
    float *iframes = d_iframes + (size_t)c * nframes * nfft;
    CUFFT_CHECK(cufftExecC2R(inv, d_spec + (size_t)c * nframes * nbins, iframes));
    overlap_add_kernel<<<dim3(2, nframes), 256, 0, stream>>>(iframes, d_y, nfft, hop, nframes, nsamples, nch, c);
  }
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  size_t nodes = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));

  bool ok = true;
  std::vector<float> y(x.size());
  for (int round = 0; round < 2; ++round) {
    if (round == 1)
      for (auto &v : x) v = -0.5f * v;
    CUDA_CHECK(cudaMemcpyAsync(d_x, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaGraphLaunch(exec, stream));
    CUDA_CHECK(cudaMemcpyAsync(y.data(), d_y, y.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    double err = 0;
    for (size_t k = 0; k < x.size(); ++k) err = std::fmax(err, std::fabs(y[k] - x[k]));
    std::printf("round %d: graph of %zu nodes, reconstruction max err %.3g\n", round, nodes, err);
    ok = ok && err < 1e-5;
  }
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUFFT_CHECK(cufftDestroy(fwd));
  CUFFT_CHECK(cufftDestroy(inv));
  if (work) CUDA_CHECK(cudaFree(work));
  CUDA_CHECK(cudaFree(d_x)); CUDA_CHECK(cudaFree(d_y)); CUDA_CHECK(cudaFree(d_frames));
  CUDA_CHECK(cudaFree(d_iframes)); CUDA_CHECK(cudaFree(d_spec)); CUDA_CHECK(cudaFree(d_gain));
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
