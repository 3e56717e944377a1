// Delay-and-sum beamforming and per-channel biquad filtering.
#ifndef SIG_BEAMFORM_CUH
#define SIG_BEAMFORM_CUH
#include <cuda_runtime.h>

constexpr int kWarp = 32;

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int off = kWarp / 2; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// x: [nchan][n], delays in samples (fractional, >= 0) per (beam, channel).
// One warp per output sample of one beam: lane c handles channels c, c+32...
__global__ void delay_and_sum_kernel(const float *__restrict__ x, const float *__restrict__ delays,
                                     float *__restrict__ beams, int nchan, int n, int nbeams) {
  const int lane = threadIdx.x & (kWarp - 1);
  const int warp_in_block = threadIdx.x / kWarp;
  const int warps_per_block = blockDim.x / kWarp;
  const int beam = blockIdx.y;
  const int t = blockIdx.x * warps_per_block + warp_in_block;
  if (beam >= nbeams || t >= n) return;  // whole warps leave together
  float acc = 0.f;
  for (int c = lane; c < nchan; c += kWarp) {
    const float d = delays[beam * nchan + c];
    const float pos = (float)t - d;
    const int i0 = (int)floorf(pos);
    const float frac = pos - (float)i0;
    const float *row = x + (size_t)c * n;
    float a = (i0 >= 0 && i0 < n) ? __ldg(row + i0) : 0.f;
    float b = (i0 + 1 >= 0 && i0 + 1 < n) ? __ldg(row + i0 + 1) : 0.f;
    acc += a + frac * (b - a);
  }
  acc = warp_sum(acc);
  if (lane == 0) beams[(size_t)beam * n + t] = acc / (float)nchan;
}

struct Biquad {
  double b0, b1, b2, a1, a2;
};

// Direct form II transposed; one thread per channel runs through its samples.
__global__ void biquad_kernel(float *__restrict__ x, const Biquad *__restrict__ sections, int nchan,
                              int n, double *__restrict__ state) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nchan) return;
  const Biquad q = sections[c];
  double z1 = state[2 * c], z2 = state[2 * c + 1];
  float *row = x + (size_t)c * n;
  for (int i = 0; i < n; ++i) {
    const double in = row[i];
    const double out = q.b0 * in + z1;
    z1 = q.b1 * in - q.a1 * out + z2;
    z2 = q.b2 * in - q.a2 * out;
    row[i] = (float)out;
  }
  state[2 * c] = z1;
  state[2 * c + 1] = z2;
}
#endif  // SIG_BEAMFORM_CUH
