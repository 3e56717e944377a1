#ifndef SIG_WINDOW_CUH
#define SIG_WINDOW_CUH
#include <cuda_runtime.h>
#include <cufft.h>

enum class WindowType { Hann, Blackman };

template <WindowType W>
__device__ __forceinline__ float window_value(int i, int n) {
  const float r = (float)i / (float)(n - 1);
  if constexpr (W == WindowType::Hann) {
    return 0.5f - 0.5f * cosf(2.0f * 3.14159265358979f * r);
  } else {
    // sinpif/cospif form of the Blackman window.
    float s1 = sinpif(r);          // sin(pi r)
    float c2 = 1.0f - 2.0f * s1 * s1;  // cos(2 pi r)
    float c4 = __cosf(4.0f * 3.14159265358979f * r);
    return 0.42f - 0.5f * c2 + 0.08f * c4;
  }
}

template <WindowType W>
__global__ void make_window_kernel(float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] = window_value<W>(i, n);
}

// Frames: frame f starts at f*hop; each frame is windowed into a row of
// length nfft (the R2C input).
__global__ void frame_window_kernel(const float *__restrict__ x, const float *__restrict__ w,
                                    float *__restrict__ frames, int nfft, int hop, int nframes) {
  int f = blockIdx.y;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nfft; i += gridDim.x * blockDim.x)
    if (f < nframes) frames[(size_t)f * nfft + i] = x[(size_t)f * hop + i] * w[i];
}

__global__ void magnitude_db_kernel(const cufftComplex *__restrict__ spec, float *__restrict__ db,
                                    int nbins, int in_dist, int nframes, float floor_db) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  int f = blockIdx.y;
  if (b >= nbins || f >= nframes) return;
  cufftComplex c = spec[(size_t)f * in_dist + b];
  float p = c.x * c.x + c.y * c.y;
  db[(size_t)f * nbins + b] = fmaxf(10.0f * log10f(p + 1e-20f), floor_db);
}
#endif  // SIG_WINDOW_CUH
