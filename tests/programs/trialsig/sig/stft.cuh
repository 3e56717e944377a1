// Multichannel STFT / ISTFT with a sine (root-Hann) window: analysis and
// synthesis windows whose squares overlap-add to one at hop = nfft / 2.
#ifndef SIG_STFT_CUH
#define SIG_STFT_CUH
#include <cuComplex.h>
#include <cufft.h>

__device__ __forceinline__ float sine_window(int i, int nfft) {
  return sinpif(((float)i + 0.5f) / (float)nfft);
}

// x interleaved [sample][channel]; frames interleaved [frame][i][channel].
__global__ void stft_frames_kernel(const float *__restrict__ x, float *__restrict__ frames,
                                   int nch, int nfft, int hop, int nframes, int nsamples) {
  const int f = blockIdx.y;
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < nfft * nch; e += blockDim.x * gridDim.x) {
    const int i = e / nch, c = e % nch;
    const long s = (long)f * hop + i - nfft / 2;  // centred frames
    const float v = (s >= 0 && s < nsamples) ? x[s * nch + c] : 0.0f;
    frames[((size_t)f * nfft + i) * nch + c] = v * sine_window(i, nfft);
  }
}

// A spectral gain per bin: a real projects' noise gate reduced to a mask.
__global__ void apply_gain_kernel(cufftComplex *spec, const float *__restrict__ gain, int nbins, size_t total) {
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < total; k += (size_t)blockDim.x * gridDim.x) {
    const float g = gain[k % nbins];
    spec[k] = cuCmulf(spec[k], make_cuFloatComplex(g, 0.f));
  }
}

// Overlap-add of the inverse frames (C2R output is unnormalised: * 1/nfft).
__global__ void overlap_add_kernel(const float *__restrict__ frames, float *__restrict__ y, int nfft,
                                   int hop, int nframes, int nsamples, int nch, int c) {
  const int f = blockIdx.y;
  const float scale = 1.0f / (float)nfft;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nfft; i += blockDim.x * gridDim.x) {
    const long s = (long)f * hop + i - nfft / 2;
    if (s < 0 || s >= nsamples) continue;
    const float v = frames[(size_t)f * nfft + i] * scale * sine_window(i, nfft);
    atomicAdd(&y[s * nch + c], v);
  }
}
#endif  // SIG_STFT_CUH
